"""A CI matrix: ``review --check --shard K/N --results`` (or ``snapshot``) per job, then one
``review --merge``: the merged gate, JUnit file and report are the unsharded run's."""

from __future__ import annotations

import filecmp
import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.testing.small_project import calculator_fixture, calculator_project
from workbench.cli import main

VARIANT = textwrap.dedent(
    """\
      - id: {id}
        label: Works out {expression}
        kind: typical
        args: {{expression: "{expression}"}}
        result:
          success: true
          content: "{expression} = {value}"
          state: {{value: "{value}", type: integer, digits: 1}}
    """
)


def fixture(*variants: tuple[str, str, str]) -> str:
    return calculator_fixture(
        *(
            VARIANT.format(id=name, expression=expression, value=value)
            for name, expression, value in variants
        )
    )


BASE = (("add", "1 + 1", "2"), ("sub", "3 - 1", "2"), ("mul", "2 * 3", "6"))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A baseline accepted, then one variant changed and one added: changed, new and
    unchanged cases, some failing the gate."""
    calculator_project(tmp_path, fixture(*BASE))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WORKBENCH_REVIEWER", "Ann Lee")
    accepted = CliRunner().invoke(main, ["review", "--accept-all", "--note", "baseline"])
    assert accepted.exit_code == 0, accepted.output
    changed = (("add", "1 + 1", "3"), *BASE[1:], ("div", "6 / 3", "2"))
    (tmp_path / "fixtures" / "calc.yaml").write_text(fixture(*changed))
    return tmp_path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def gate_outputs(folder: Path, *args: str) -> tuple[int, str]:
    """The gate's JSON, its JUnit file and HTML report written into ``folder``."""
    folder.mkdir()
    code, out, err = run(
        "review",
        *args,
        "--check",
        "--format",
        "json",
        "--junit",
        str(folder / "review.xml"),
        "--report",
        str(folder / "review.html"),
    )
    assert code in (0, 1), err
    return code, out


def same_tree(left: Path, right: Path) -> bool:
    compared = filecmp.dircmp(left, right)
    _, mismatch, errors = filecmp.cmpfiles(left, right, compared.common_files, shallow=False)
    return (
        not compared.left_only
        and not compared.right_only
        and not mismatch
        and not errors
        and all(same_tree(left / name, right / name) for name in compared.common_dirs)
    )


@pytest.mark.parametrize("command", ["review", "snapshot"])
def test_merged_shards_give_the_unsharded_gate_junit_and_report(
    project: Path, tmp_path_factory: pytest.TempPathFactory, command: str
) -> None:
    out = tmp_path_factory.mktemp("out")
    results = []
    for index in (1, 2, 3):
        path = out / f"shard-{index}.json"
        args = ["--check"] if command == "review" else []
        code, _, err = run(command, *args, "--shard", f"{index}/3", "--results", str(path))
        assert code in (0, 1) and f"shard {index}/3" in err, err
        results.append(path)
    ids = [[case["id"] for case in json.loads(path.read_text())["cases"]] for path in results]
    whole_code, whole = gate_outputs(out / "whole")
    matrix = [case["id"] for case in json.loads(whole)["cases"]]
    # Disjoint, together every case, about a third each.
    owned = [case_id for part in ids for case_id in part]
    assert sorted(owned) == sorted(matrix) and len(set(owned)) == len(matrix)
    assert max(map(len, ids)) - min(map(len, ids)) <= 1
    merged_code, merged = gate_outputs(out / "merged", "--merge", *map(str, results))
    assert whole_code == merged_code == 1
    assert merged == whole
    assert same_tree(out / "merged", out / "whole")
    data = json.loads(merged)
    assert data["counts"]["changed"] and data["counts"]["new"] and data["counts"]["unchanged"]


def test_a_shard_is_a_gate_of_its_own_cases(project: Path, tmp_path: Path) -> None:
    verdicts = [run("review", "--check", "--shard", f"{index}/2") for index in (1, 2)]
    failing = [
        line for _, out, _ in verdicts for line in out.splitlines() if line.startswith("FAIL")
    ]
    _, whole, _ = run("review", "--check")
    assert sorted(failing) == sorted(line for line in whole.splitlines() if line.startswith("FAIL"))


def test_a_merge_refuses_results_that_do_not_make_up_one_run(project: Path, tmp_path: Path) -> None:
    paths = [tmp_path / f"s{index}.json" for index in (1, 2, 3)]
    for index, path in enumerate(paths, start=1):
        run("review", "--check", "--shard", f"{index}/3", "--results", str(path))
    other = tmp_path / "other.json"
    run("review", "--check", "--shard", "1/2", "--results", str(other))

    def refused(*files: Path) -> str:
        code, _, err = run("review", "--merge", *map(str, files))
        assert code == 2, err
        return err

    assert "are in no results file (a shard missing?)" in refused(paths[0], paths[1])
    assert "are both shard 1/3" in refused(paths[0], paths[0])
    assert "different numbers of shards" in refused(paths[0], paths[1], other)
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    assert f"{garbage}: not a results file" in refused(garbage, *paths[1:])
    assert "no such file" in refused(tmp_path / "missing.json")
    # A committed snapshot that is not the one the shard compared with: another checkout.
    unchanged = next(
        case["id"] for case in json.loads(paths[1].read_text())["cases"] if "committed" in case
    )
    (project / "snaps" / f"{unchanged}.txt").write_text("edited\n")
    assert "holds other files" in refused(*paths)


@pytest.mark.parametrize(
    "args",
    [
        ["snapshot", "--shard", "0/2"],
        ["review", "--check", "--shard", "3/2"],
        ["review", "--check", "--shard", "two"],
        ["review", "--shard", "1/2"],
        ["review", "--merge"],
        ["review", "results.json"],
        ["review", "--merge", "-k", "add", "results.json"],
        ["review", "--shard", "1/2", "--accept-all", "--note", "why"],
    ],
)
def test_usage_errors(project: Path, args: list[str]) -> None:
    code, _, err = run(*args)
    assert code == 2 and err.startswith("workbench: error:"), err
