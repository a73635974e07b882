"""SkillLibrary and parse_skill_file over real SKILL.md folders: discovery, front matter,
references."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.tools.skills.library import (
    BUNDLED_SKILLS,
    MAX_SKILL_CHARS,
    SkillError,
    SkillLibrary,
    parse_skill_file,
)


def write_skill(
    root: Path, folder: str, text: str, references: dict[str, str] | None = None
) -> Path:
    skill = root / folder
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(text, encoding="utf-8")
    for relative, content in (references or {}).items():
        (skill / relative).parent.mkdir(parents=True, exist_ok=True)
        (skill / relative).write_text(content, encoding="utf-8")
    return skill


def test_bundled_skills_are_found_with_names_and_descriptions() -> None:
    skills = SkillLibrary([BUNDLED_SKILLS]).skills()
    assert sorted(skills) == ["code-review", "incident-report", "release-notes"]
    assert skills["release-notes"].description.startswith("Write release notes")
    assert skills["release-notes"].folder == BUNDLED_SKILLS / "release-notes"
    assert skills["release-notes"].references() == [
        "references/examples.md",
        "references/template.md",
    ]
    assert skills["incident-report"].references() == []


def test_activation_strips_the_front_matter() -> None:
    skill, body, truncated, _ = SkillLibrary([BUNDLED_SKILLS]).activate("code-review")
    assert skill.name == "code-review" and not truncated
    assert body.startswith("# Reviewing a change\n")
    assert "description:" not in body and not body.startswith("---")


def test_name_comes_from_front_matter_else_the_folder(tmp_path: Path) -> None:
    write_skill(tmp_path, "folder-a", "---\nname: renamed\ndescription: Does A.\n---\n# A\n")
    write_skill(tmp_path, "folder-b", "# B without front matter\n")
    write_skill(tmp_path, "folder-c", "---\ndescription: only a description\n---\nC body")
    skills = SkillLibrary([tmp_path]).skills()
    assert sorted(skills) == ["folder-b", "folder-c", "renamed"]
    assert (
        skills["renamed"].description == "Does A."
        and skills["renamed"].folder == tmp_path / "folder-a"
    )
    assert skills["folder-b"].description == ""
    assert skills["folder-c"].description == "only a description"


def test_first_root_wins_a_name_clash_and_missing_roots_are_skipped(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    write_skill(mine, "release-notes", "---\nname: release-notes\ndescription: my own\n---\nmine")
    library = SkillLibrary([tmp_path / "does-not-exist", mine, BUNDLED_SKILLS])
    skills = library.skills()
    assert skills["release-notes"].description == "my own"
    assert library.activate("release-notes")[1] == "mine"
    assert "code-review" in skills


def test_folders_without_skill_md_and_loose_files_are_ignored(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "SKILL.md").write_text("---\nname: loose\n---\n")
    (tmp_path / "deep" / "nested").mkdir(parents=True)
    (tmp_path / "deep" / "nested" / "SKILL.md").write_text("too deep")
    assert SkillLibrary([tmp_path]).skills() == {}


def test_unknown_skill_lists_the_available_ones() -> None:
    with pytest.raises(SkillError) as error:
        SkillLibrary([BUNDLED_SKILLS]).get("nope")
    assert error.value.error_type == "SkillNotFound"
    assert error.value.available == ["code-review", "incident-report", "release-notes"]


def test_references_skip_hidden_files_and_skill_md(tmp_path: Path) -> None:
    skill = write_skill(
        tmp_path,
        "s",
        "body",
        {"b.md": "b", "a/z.txt": "z", ".hidden": "h", ".git/config": "c", "sub/.secret": "s"},
    )
    (skill / "sub" / "SKILL.md").write_text("nested skill file")
    assert SkillLibrary([tmp_path]).get("s").references() == ["a/z.txt", "b.md"]


def test_references_leave_out_symlinks_that_escape(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("secret")
    skill = write_skill(tmp_path / "root", "s", "body", {"references/real.md": "real"})
    (skill / "references" / "leak.md").symlink_to(outside)
    (skill / "alias.md").symlink_to(skill / "references" / "real.md")
    assert SkillLibrary([tmp_path / "root"]).get("s").references() == [
        "alias.md",
        "references/real.md",
    ]


def test_non_utf8_skill_files_are_read_with_replacement(tmp_path: Path) -> None:
    skill = tmp_path / "latin"
    skill.mkdir()
    (skill / "SKILL.md").write_bytes(b"---\nname: latin\n---\ncaf\xe9")
    assert SkillLibrary([tmp_path]).activate("latin")[1] == "caf\ufffd"


def test_activation_truncates_long_bodies(tmp_path: Path) -> None:
    write_skill(tmp_path, "long", "---\nname: long\n---\n" + "x" * (MAX_SKILL_CHARS + 5))
    write_skill(tmp_path, "exact", "y" * MAX_SKILL_CHARS)
    library = SkillLibrary([tmp_path])
    _, body, truncated, _ = library.activate("long")
    assert truncated and body == "x" * MAX_SKILL_CHARS
    _, body, truncated, _ = library.activate("exact")
    assert not truncated and len(body) == MAX_SKILL_CHARS


# --- parse_skill_file -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "meta", "body"),
    [
        ("---\nname: x\ndescription: y\n---\nBody\n", {"name": "x", "description": "y"}, "Body\n"),
        ("---\nname: x\n---\n\n\nBody after blank lines", {"name": "x"}, "Body after blank lines"),
        ("---\nname: x\n---", {"name": "x"}, ""),
        ("# No front matter\n---\nname: x\n---\n", {}, "# No front matter\n---\nname: x\n---\n"),
        ("", {}, ""),
        ("---\nname: x\nno closing fence", {}, "---\nname: x\nno closing fence"),
        ("---\nname: [unclosed\n---\nBody", {}, "Body"),
        ("---\n: : :\n  - bad\n---\nBody", {}, "Body"),
        ("---\n- a\n- list\n---\nBody", {}, "Body"),
        ("---\njust a string\n---\nBody", {}, "Body"),
        ("---\n\n---\nBody", {}, "Body"),
        ("---\nname: !!python/object/apply:os.system ['echo pwned']\n---\nBody", {}, "Body"),
        (" ---\nname: x\n---\nBody", {}, " ---\nname: x\n---\nBody"),
    ],
)
def test_parse_skill_file_cases(text: str, meta: dict[str, object], body: str) -> None:
    assert parse_skill_file(text) == (meta, body)


def test_bad_yaml_front_matter_falls_back_to_the_folder_name(tmp_path: Path) -> None:
    write_skill(tmp_path, "broken", "---\nname: [unclosed\ndescription: x\n---\n# Body")
    skills = SkillLibrary([tmp_path]).skills()
    assert list(skills) == ["broken"] and skills["broken"].description == ""


def test_non_string_front_matter_values_are_stringified(tmp_path: Path) -> None:
    write_skill(tmp_path, "typed", "---\nname: 42\ndescription: 2024-01-02\n---\nbody")
    skills = SkillLibrary([tmp_path]).skills()
    assert list(skills) == ["42"] and skills["42"].description == "2024-01-02"


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_parse_skill_file_never_raises_on_any_text(text: str) -> None:
    meta, body = parse_skill_file(text)
    assert isinstance(meta, dict) and isinstance(body, str)
    if not text.startswith("---\n"):
        assert (meta, body) == ({}, text)


yaml_ish = st.text(
    alphabet=st.sampled_from(list("abc:-[]{}!&*|>'\"#%@`,? \n\t\\0123\x00\x85\ufeff")), max_size=60
)


@settings(max_examples=300, deadline=None)
@given(front=yaml_ish, body=st.text(max_size=60))
def test_parse_skill_file_never_raises_on_front_matter(front: str, body: str) -> None:
    meta, parsed_body = parse_skill_file(f"---\n{front}\n---\n{body}")
    assert isinstance(meta, dict)
    assert isinstance(parsed_body, str)


@settings(max_examples=100, deadline=None)
@given(
    suffix=st.from_regex(r"[a-z0-9-]{0,20}", fullmatch=True),
    words=st.from_regex(r"[A-Za-z .,]{0,40}", fullmatch=True),
    body=st.text(max_size=200).filter(lambda text: "\n---" not in text),
)
def test_parse_skill_file_round_trips_simple_front_matter(
    suffix: str, words: str, body: str
) -> None:
    name, description = f"skill-{suffix}", f"Use it{words}".strip()
    meta, parsed = parse_skill_file(f"---\nname: {name}\ndescription: {description}\n---\n{body}")
    assert meta == {"name": name, "description": description}
    assert parsed == body.lstrip("\n")
