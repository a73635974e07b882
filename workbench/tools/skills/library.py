"""SKILL.md folders: a skill is Markdown instructions plus reference files it points to."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

MAX_SKILL_CHARS = 40_000
MAX_REFERENCE_CHARS = 30_000
BUNDLED_SKILLS = Path(__file__).with_name("bundled")


class SkillError(Exception):
    def __init__(self, error_type: str, message: str, available: list[str] | None = None) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.message = message
        self.available = available or []


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    folder: Path

    @property
    def skill_file(self) -> Path:
        return self.folder / "SKILL.md"

    def references(self) -> list[str]:
        files = []
        folder = Path(os.path.realpath(self.folder))
        for path in sorted(self.folder.rglob("*")):
            if (
                path.is_file()
                and path.name != "SKILL.md"
                and not any(part.startswith(".") for part in path.relative_to(self.folder).parts)
            ):
                if folder not in Path(os.path.realpath(path)).parents:
                    continue  # a symlink out of the skill: readReference refuses it, so hide it
                files.append(path.relative_to(self.folder).as_posix())
        return files


def parse_skill_file(text: str) -> tuple[dict[str, object], str]:
    """Split YAML front matter from the Markdown body."""
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end != -1:
            import yaml  # Deferred: a runtime that never reads a skill never loads PyYAML.

            try:
                meta = yaml.safe_load(text[4:end]) or {}
            except yaml.YAMLError:
                meta = {}
            body = text[end + 4 :].lstrip("\n")
            return (meta if isinstance(meta, dict) else {}), body
    return {}, text


class SkillLibrary:
    """Skills found in one or more folders; the first folder wins a name clash."""

    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots = [Path(root) for root in roots]

    def skills(self) -> dict[str, Skill]:
        found: dict[str, Skill] = {}
        for root in self.roots:
            if not root.is_dir():
                continue
            for skill_file in sorted(root.glob("*/SKILL.md")):
                meta, _ = parse_skill_file(skill_file.read_text(encoding="utf-8", errors="replace"))
                name = str(meta.get("name") or skill_file.parent.name)
                found.setdefault(
                    name, Skill(name, str(meta.get("description") or ""), skill_file.parent)
                )
        return found

    def get(self, name: str) -> Skill:
        skills = self.skills()
        if name not in skills:
            raise SkillError(
                "SkillNotFound", f"there is no skill {name!r}", available=sorted(skills)
            )
        return skills[name]

    def activate(self, name: str) -> tuple[Skill, str, bool, int]:
        """The skill, its body (cut at ``MAX_SKILL_CHARS``), whether it was cut, and how many
        lines the whole body has."""
        skill = self.get(name)
        _, body = parse_skill_file(skill.skill_file.read_text(encoding="utf-8", errors="replace"))
        truncated = len(body) > MAX_SKILL_CHARS
        return skill, body[:MAX_SKILL_CHARS], truncated, count_lines(body)

    def read_reference(self, name: str, path: str) -> tuple[Skill, str, int, bool, int]:
        """The skill, the text (cut at ``MAX_REFERENCE_CHARS``), the whole file's characters,
        whether it was cut, and how many lines the whole file has."""
        skill = self.get(name)
        references = skill.references()
        target = Path(os.path.realpath(skill.folder / path))
        folder = Path(os.path.realpath(skill.folder))
        if folder not in target.parents:
            raise SkillError(
                "InvalidReferencePath",
                f"{path!r} is outside the skill {name!r}",
                available=references,
            )
        relative = target.relative_to(folder).as_posix()
        if relative not in references:
            raise SkillError(
                "ReferenceNotFound",
                f"skill {name!r} has no reference {path!r}",
                available=references,
            )
        text = target.read_text(encoding="utf-8", errors="replace")
        return (
            skill,
            text[:MAX_REFERENCE_CHARS],
            len(text),
            len(text) > MAX_REFERENCE_CHARS,
            count_lines(text),
        )


def count_lines(text: str) -> int:
    """Lines as an editor counts them: none in an empty text, a final newline adds none."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)
