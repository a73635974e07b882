"""SkillsRuntime over real skill folders: activateSkill and readReference results, path safety,
truncation, create_runtime roots."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.core.runtime import CallContext, RuntimeServices
from workbench.tools.skills import PACKAGE, create_runtime
from workbench.tools.skills.library import (
    BUNDLED_SKILLS,
    MAX_REFERENCE_CHARS,
    MAX_SKILL_CHARS,
    SkillLibrary,
    count_lines,
)
from workbench.tools.skills.runtime import SkillsRuntime

BUNDLED_NAMES = ["code-review", "incident-report", "release-notes"]


def bundled() -> SkillsRuntime:
    return SkillsRuntime(SkillLibrary([BUNDLED_SKILLS]))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A skills root with one skill ``demo``, its references, and a secret next to the root."""
    (tmp_path / "secret.txt").write_text("TOP SECRET")
    skills = tmp_path / "skills"
    demo = skills / "demo"
    (demo / "references" / "deep").mkdir(parents=True)
    (demo / "SKILL.md").write_text(
        "---\nname: demo\ndescription: A demo skill.\n---\n# Demo\n\nRead `references/guide.md`.\n",
        encoding="utf-8",
    )
    (demo / "references" / "guide.md").write_text("# Guide\nline two\n", encoding="utf-8")
    (demo / "references" / "deep" / "notes.txt").write_text("deep notes", encoding="utf-8")
    (demo / "references" / "empty.md").write_text("  \n", encoding="utf-8")
    (demo / ".env").write_text("TOKEN=1", encoding="utf-8")
    other = skills / "other"
    other.mkdir()
    (other / "SKILL.md").write_text("# Other\n", encoding="utf-8")
    (other / "private.md").write_text("other's file", encoding="utf-8")
    return skills


def runtime_for(root: Path) -> SkillsRuntime:
    return SkillsRuntime(SkillLibrary([root]))


# --- activateSkill ----------------------------------------------------------------------------


async def test_activate_returns_the_body_and_lists_references_in_state() -> None:
    result = await bundled().invoke("activateSkill", {"name": "release-notes"}, CallContext())
    assert result.success and result.error is None
    body = (
        (BUNDLED_SKILLS / "release-notes" / "SKILL.md")
        .read_text(encoding="utf-8")
        .split("\n---\n", 1)[1]
        .lstrip("\n")
    )
    assert result.content == body
    assert result.state == {
        "name": "release-notes",
        "description": "Write release notes for a version from merged changes, grouped for "
        "the people who upgrade.",
        "references": ["references/examples.md", "references/template.md"],
        "lines": count_lines(body),
        "totalLines": count_lines(body),
        "truncated": False,
    }


@pytest.mark.parametrize(
    ("name", "references"), [("code-review", ["references/security.md"]), ("incident-report", [])]
)
async def test_activate_each_bundled_skill(name: str, references: list[str]) -> None:
    result = await bundled().invoke("activateSkill", {"name": name})
    assert result.success and result.content.startswith("# ")
    assert result.state["name"] == name and result.state["references"] == references


async def test_activate_a_skill_from_a_folder(root: Path) -> None:
    result = await runtime_for(root).invoke("activateSkill", {"name": "demo"})
    assert result.success
    assert result.content == "# Demo\n\nRead `references/guide.md`.\n"
    assert result.state["references"] == [
        "references/deep/notes.txt",
        "references/empty.md",
        "references/guide.md",
    ]
    assert result.state["description"] == "A demo skill."


@pytest.mark.parametrize("name", ["nope", "", "Release-Notes", "../release-notes"])
async def test_unknown_skill_lists_the_available_ones(name: str) -> None:
    result = await bundled().invoke("activateSkill", {"name": name})
    assert not result.success and result.error is not None
    assert result.error.type == "SkillNotFound"
    assert result.error.body == {"available": BUNDLED_NAMES}
    assert result.state == {"available": BUNDLED_NAMES}
    assert (
        result.content
        == f"there is no skill {name!r}. Available skills: code-review, incident-report, "
        "release-notes."
    )


async def test_unknown_skill_with_no_skills_installed(tmp_path: Path) -> None:
    result = await runtime_for(tmp_path).invoke("activateSkill", {"name": "x"})
    assert result.error is not None and result.error.type == "SkillNotFound"
    assert result.content.endswith("Available skills: none.")


async def test_activate_truncates_long_skills(tmp_path: Path) -> None:
    skill = tmp_path / "long"
    skill.mkdir()
    (skill / "SKILL.md").write_text(
        "---\nname: long\n---\n" + "line\n" * (MAX_SKILL_CHARS // 5 + 100), encoding="utf-8"
    )
    result = await runtime_for(tmp_path).invoke("activateSkill", {"name": "long"})
    assert result.success and result.state["truncated"] is True
    note = "\n\n[the skill was longer; only the first part is shown]"
    assert result.content.endswith(note)
    assert len(result.content) == MAX_SKILL_CHARS + len(note)


async def test_activate_at_the_limit_is_not_truncated(tmp_path: Path) -> None:
    skill = tmp_path / "exact"
    skill.mkdir()
    (skill / "SKILL.md").write_text("z" * MAX_SKILL_CHARS, encoding="utf-8")
    result = await runtime_for(tmp_path).invoke("activateSkill", {"name": "exact"})
    assert result.state["truncated"] is False and result.content == "z" * MAX_SKILL_CHARS


async def test_activate_an_empty_skill_still_has_content(tmp_path: Path) -> None:
    (tmp_path / "blank").mkdir()
    (tmp_path / "blank" / "SKILL.md").write_text("---\nname: blank\n---\n", encoding="utf-8")
    result = await runtime_for(tmp_path).invoke("activateSkill", {"name": "blank"})
    assert result.success and result.content


# --- readReference ----------------------------------------------------------------------------


async def test_read_a_bundled_reference() -> None:
    result = await bundled().invoke(
        "readReference", {"skill": "release-notes", "path": "references/template.md"}
    )
    text = (BUNDLED_SKILLS / "release-notes" / "references" / "template.md").read_text(
        encoding="utf-8"
    )
    assert result.success and result.content == text
    assert result.state == {
        "skill": "release-notes",
        "path": "references/template.md",
        "size": len(text),
        "lines": count_lines(text),
        "totalLines": count_lines(text),
        "truncated": False,
    }


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("references/guide.md", "# Guide\nline two\n"),
        ("references/deep/notes.txt", "deep notes"),
        ("./references/guide.md", "# Guide\nline two\n"),
        ("references/deep/../guide.md", "# Guide\nline two\n"),
    ],
)
async def test_read_references_inside_the_skill(root: Path, path: str, text: str) -> None:
    result = await runtime_for(root).invoke("readReference", {"skill": "demo", "path": path})
    assert result.success and result.content == text
    assert result.state["path"] == path and result.state["size"] == len(text)


async def test_read_an_empty_reference(root: Path) -> None:
    result = await runtime_for(root).invoke(
        "readReference", {"skill": "demo", "path": "references/empty.md"}
    )
    assert result.success and result.content == "references/empty.md of demo is empty."
    assert result.state["size"] == 3


@pytest.mark.parametrize(
    "path",
    [
        "../other/private.md",
        "../../secret.txt",
        "references/../../other/SKILL.md",
        "references/../../../secret.txt",
        "..",
        ".",
        "",
    ],
)
async def test_traversal_is_an_invalid_reference_path(root: Path, path: str) -> None:
    result = await runtime_for(root).invoke("readReference", {"skill": "demo", "path": path})
    assert not result.success and result.error is not None
    assert result.error.type == "InvalidReferencePath"
    assert "other's file" not in result.content and "TOP SECRET" not in result.content
    assert result.content.startswith(
        f"{path!r} is outside the skill 'demo'. References of 'demo': "
    )
    assert result.error.body == {
        "available": ["references/deep/notes.txt", "references/empty.md", "references/guide.md"]
    }


async def test_absolute_paths_are_invalid(root: Path) -> None:
    for path in [
        str(root.parent / "secret.txt"),
        "/etc/passwd",
        str(root / "other" / "private.md"),
    ]:
        result = await runtime_for(root).invoke("readReference", {"skill": "demo", "path": path})
        assert result.error is not None and result.error.type == "InvalidReferencePath", path
        assert "TOP SECRET" not in result.content


async def test_a_symlink_escaping_the_skill_is_invalid(root: Path) -> None:
    demo = root / "demo"
    (demo / "references" / "leak.md").symlink_to(root.parent / "secret.txt")
    (demo / "linked-dir").symlink_to(root.parent, target_is_directory=True)
    library_runtime = runtime_for(root)
    for path in ["references/leak.md", "linked-dir/secret.txt"]:
        result = await library_runtime.invoke("readReference", {"skill": "demo", "path": path})
        assert result.error is not None and result.error.type == "InvalidReferencePath", path
        assert "TOP SECRET" not in result.content
    activated = await library_runtime.invoke("activateSkill", {"name": "demo"})
    assert "references/leak.md" not in activated.state["references"]


async def test_a_symlinked_skill_folder_still_reads_its_own_references(
    root: Path, tmp_path: Path
) -> None:
    linked_root = tmp_path / "linked-root"
    linked_root.mkdir()
    (linked_root / "demo").symlink_to(root / "demo", target_is_directory=True)
    result = await runtime_for(linked_root).invoke(
        "readReference", {"skill": "demo", "path": "references/guide.md"}
    )
    assert result.success and result.content == "# Guide\nline two\n"


@pytest.mark.parametrize(
    "path", ["references/missing.md", "SKILL.md", ".env", "references", "references/deep"]
)
async def test_missing_or_unlisted_files_are_reference_not_found(root: Path, path: str) -> None:
    result = await runtime_for(root).invoke("readReference", {"skill": "demo", "path": path})
    assert not result.success and result.error is not None
    assert result.error.type == "ReferenceNotFound"
    assert (
        result.content == f"skill 'demo' has no reference {path!r}. "
        "References of 'demo': references/deep/notes.txt, "
        "references/empty.md, references/guide.md."
    )
    assert "TOKEN" not in result.content


async def test_reference_of_an_unknown_skill(root: Path) -> None:
    result = await runtime_for(root).invoke(
        "readReference", {"skill": "ghost", "path": "references/guide.md"}
    )
    assert result.error is not None and result.error.type == "SkillNotFound"
    assert result.content == "there is no skill 'ghost'. Available skills: demo, other."
    assert result.state == {"available": ["demo", "other"]}


async def test_reference_of_a_skill_without_references(root: Path) -> None:
    result = await runtime_for(root).invoke(
        "readReference", {"skill": "other", "path": "nothing.md"}
    )
    assert result.error is not None and result.error.type == "ReferenceNotFound"
    assert result.content.endswith("References of 'other': private.md.")


async def test_long_references_are_truncated(root: Path) -> None:
    text = "r" * (MAX_REFERENCE_CHARS + 1)
    (root / "demo" / "references" / "big.md").write_text(text, encoding="utf-8")
    result = await runtime_for(root).invoke(
        "readReference", {"skill": "demo", "path": "references/big.md"}
    )
    assert result.success
    assert result.state == {
        "skill": "demo",
        "path": "references/big.md",
        "size": MAX_REFERENCE_CHARS + 1,
        "lines": 1,
        "totalLines": 1,
        "truncated": True,
    }
    assert (
        result.content
        == "r" * MAX_REFERENCE_CHARS
        + f"\n\n[truncated: showing {MAX_REFERENCE_CHARS:,} of {MAX_REFERENCE_CHARS + 1:,} "
        "characters]"
    )


async def test_reference_at_the_limit_is_whole(root: Path) -> None:
    (root / "demo" / "references" / "exact.md").write_text(
        "e" * MAX_REFERENCE_CHARS, encoding="utf-8"
    )
    result = await runtime_for(root).invoke(
        "readReference", {"skill": "demo", "path": "references/exact.md"}
    )
    assert result.state["truncated"] is False and result.content == "e" * MAX_REFERENCE_CHARS


# --- create_runtime ---------------------------------------------------------------------------


async def test_create_runtime_searches_settings_workspace_then_bundled(
    root: Path, tmp_path: Path
) -> None:
    workspace = tmp_path / "workspace"
    (workspace / "skills" / "code-review").mkdir(parents=True)
    (workspace / "skills" / "code-review" / "SKILL.md").write_text(
        "---\nname: code-review\ndescription: the workspace's own\n---\nours", encoding="utf-8"
    )
    assert PACKAGE.create_runtime is create_runtime
    runtime = create_runtime(
        RuntimeServices(
            workspace=workspace, settings={"skills.paths": f"{root}:{tmp_path / 'missing'}"}
        )
    )
    listing = await runtime.invoke("activateSkill", {"name": "?"})
    assert listing.state["available"] == [
        "code-review",
        "demo",
        "incident-report",
        "other",
        "release-notes",
    ]
    ours = await runtime.invoke("activateSkill", {"name": "code-review"})
    assert ours.content == "ours" and ours.state["description"] == "the workspace's own"
    demo = await runtime.invoke("readReference", {"skill": "demo", "path": "references/guide.md"})
    assert demo.success


async def test_create_runtime_defaults_to_the_bundled_skills(tmp_path: Path) -> None:
    runtime = create_runtime(RuntimeServices(workspace=tmp_path))
    result = await runtime.invoke("activateSkill", {"name": "missing"})
    assert result.state["available"] == BUNDLED_NAMES
