"""[tool.workbench]: parsed by a pydantic model, every mistake located by file, line and key."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.config import ConfigError, bundled_fixtures_dir, load_config, toml_lines

KEYS = ("fixtures", "tools", "snapshots", "include_bundled")


def test_a_valid_table_resolves_paths_against_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.workbench]\nfixtures = "fx"\ntools = ["pkg.tools:PACKAGE"]\nsnapshots = "s"\n'
    )
    (tmp_path / "sub").mkdir()
    config = load_config(tmp_path / "sub")
    assert config.root == tmp_path and config.pyproject == tmp_path / "pyproject.toml"
    assert config.fixture_dirs == ((tmp_path / "fx").resolve(),)
    assert config.tool_modules == ("pkg.tools:PACKAGE",)
    assert config.snapshot_dir == (tmp_path / "s").resolve()
    assert config.include_bundled is False  # not listing the bundled fixtures: opt in


def test_no_table_means_the_bundled_tools(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    config = load_config(tmp_path)
    assert config.fixture_dirs == (bundled_fixtures_dir(),) and config.include_bundled


def test_dotted_keys_are_located_too(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool]\nblack.line-length = 1\nworkbench.tools = 7\n")
    with pytest.raises(ConfigError) as raised:
        load_config(tmp_path)
    [problem] = raised.value.problems
    assert (problem.line, problem.field) == (3, "tool.workbench.tools")


@given(
    before=st.lists(st.sampled_from(["[project]", 'name = "x"', "", "# a comment"]), max_size=4),
    keys=st.lists(st.sampled_from(KEYS), unique=True, min_size=1),
    padding=st.sampled_from(["", " ", "  "]),
    after=st.booleans(),
)
def test_every_key_of_the_table_is_found_on_its_line(
    before: list[str], keys: list[str], padding: str, after: bool
) -> None:
    lines = [*before, "[tool.workbench]"]
    expected = {}
    for key in keys:
        lines += [f"{padding}{key}{padding}= 1", "  # between keys"]
        expected[key] = len(lines) - 1
    if after:
        lines += ["[tool.other]", *(f"{key} = 2" for key in KEYS)]
    source = toml_lines("\n".join(lines))
    assert source.line_for(("tool", "workbench")) == len(before) + 1
    for key, line in expected.items():
        assert source.line_for(("tool", "workbench", key)) == line
