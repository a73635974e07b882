"""A project's own host profiles: added, overriding bundled ones key by key, or located errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from workbench.config import load_config
from workbench.hosts import load_hosts


def project(tmp_path: Path, table: str, files: dict[str, str] | None = None) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "demo"\n\n[tool.workbench]\nfixtures = []\n' + table
    )
    for name, text in (files or {}).items():
        (tmp_path / name).write_text(text)
    return tmp_path


def test_no_hosts_table_means_the_bundled_hosts_and_no_targets(tmp_path: Path) -> None:
    hosts = load_hosts(load_config(project(tmp_path, "")))
    assert hosts.targets == () and hosts.problems == [] and "codex" in hosts.profiles


def test_a_list_names_the_targets(tmp_path: Path) -> None:
    hosts = load_hosts(load_config(project(tmp_path, 'hosts = ["codex", "claude-code"]\n')))
    assert [host.name for host in hosts.targeted()] == ["codex", "claude-code"]


def test_inline_profiles_override_a_bundled_host_key_by_key_and_add_new_ones(
    tmp_path: Path,
) -> None:
    table = (
        '[tool.workbench.hosts]\ntarget = ["codex", "in-house"]\n\n'
        "[tool.workbench.hosts.profiles.codex.user]\nhead = 8\n\n"
        "[tool.workbench.hosts.profiles.in-house]\n"
        'title = "In-house agent"\nversion = "3"\n'
        '[tool.workbench.hosts.profiles.in-house.model]\nkeep = "tail"\n'
        'caps = [{unit = "lines", limit = 100, source = "our agent\'s config"}]\n'
    )
    hosts = load_hosts(load_config(project(tmp_path, table)))
    assert hosts.problems == []
    codex = hosts.get("codex")
    assert codex.user is not None and codex.user.head == 8 and codex.user.tail == 5
    assert hosts.get("in-house").model.caps[0].limit == 100
    assert hosts.origins["in-house"].endswith("pyproject.toml")


def test_a_mistake_in_a_profile_is_located_and_the_others_still_load(tmp_path: Path) -> None:
    table = (
        '[tool.workbench.hosts]\ntarget = ["codex"]\nfile = "hosts.yaml"\n'
        "[tool.workbench.hosts.profiles.codex.user]\nhead = -1\n"
    )
    files = {
        "hosts.yaml": "broken:\n  title: Broken\n  version: '1'\n  model:\n"
        "    caps:\n      - {unit: pages, limit: 3, source: x}\n"
    }
    hosts = load_hosts(load_config(project(tmp_path, table, files)))
    formatted = [problem.format() for problem in hosts.problems]
    assert any(line.startswith("hosts.yaml:6: broken.model.caps[0].unit:") for line in formatted), (
        formatted
    )
    assert any(
        line.startswith("pyproject.toml:10: tool.workbench.hosts.profiles.codex.user.head:")
        for line in formatted
    ), formatted
    assert "broken" not in hosts.profiles
    assert hosts.get("codex").user is not None  # the bundled codex is kept as it was


def test_an_unknown_target_names_the_known_hosts(tmp_path: Path) -> None:
    hosts = load_hosts(load_config(project(tmp_path, 'hosts = ["nope"]\n')))
    [problem] = hosts.problems
    assert problem.line == 6 and "unknown host 'nope'" in problem.message
    assert "codex" in problem.message and hosts.targeted() == []


def test_counting_tokens_opens_no_network_connection() -> None:
    code = (
        "import socket\n"
        "def refuse(*a, **k):\n"
        "    raise SystemExit('network used')\n"
        "socket.socket.connect = refuse\n"
        "socket.create_connection = refuse\n"
        "from workbench.hosts.tokens import tokenizer\n"
        "t = tokenizer()\n"
        "assert t.exact and t.count('hello world') == 2, t\n"
        "print('ok')\n"
    )
    env = {"PATH": "/usr/bin:/bin", "TIKTOKEN_CACHE_DIR": ""}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    assert result.stdout.strip() == "ok", result.stderr
