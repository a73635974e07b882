"""Hostile text from servers, HTTP tools and headers never reaches stdout or stderr as escapes.

Each command runs as a real process; its raw stdout and stderr bytes are checked for escape
and control sequences a terminal would act on, and for the marker proving the text was shown.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostile import raw_characters
from tests.net.local_server import LocalServer, Reply, running_server
from tests.sources.helpers import SERVERS

HOSTILE_SERVER = shlex.join([sys.executable, str(SERVERS / "hostile.py")])
# ESC, BEL and the other C0 controls but tab and newline, DEL, C1, and bidi controls.
FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
REPO = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args],
        capture_output=True,
        cwd=cwd,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "HOME": str(Path.home())},
    )


def assert_inert(done: subprocess.CompletedProcess[bytes], marker: str) -> None:
    """No byte a terminal would act on, and the marker shows the hostile text was printed."""
    for name, data in (("stdout", done.stdout), ("stderr", done.stderr)):
        text = data.decode("utf-8")  # A raw C1 byte is not UTF-8: that fails here too.
        found = FORBIDDEN.findall(text)
        assert not found, f"{name} carries {found[:5]!r}: {text[:400]!r}"
        # Nor an invisible character (zero-width, U+2028, BOM, tags): each shows as a mark.
        hidden = raw_characters(text)
        assert not hidden, f"{name} carries {hidden[:5]}: {text[:400]!r}"
    shown = (done.stdout + done.stderr).decode("utf-8").lower()
    assert marker.lower() in shown, (done.stdout[:400], done.stderr[:400])


@pytest.mark.parametrize(
    "args",
    [
        ["tools"],
        ["tools", "--format", "json"],
        ["tools", "--openai"],
        ["call", "echo"],
        ["call", "echo", "--format", "json"],
        ["call", "explode"],
        ["call", "explode", "--format", "json"],
        ["call", "chatty"],
        ["call", "chatty", "--format", "json"],
        ["call", "bad_name"],
    ],
    ids=" ".join,
)
def test_a_hostile_stdio_server_prints_inert(args: list[str], tmp_path: Path) -> None:
    done = run(*args, "--mcp", HOSTILE_SERVER, cwd=tmp_path)
    # bad_name is refused as an API name: the marker is then the server's (slugified) name.
    assert_inert(done, "hostile")


def test_json_output_keeps_the_hostile_text_escaped_not_lost(tmp_path: Path) -> None:
    done = run("call", "echo", "--format", "json", "--mcp", HOSTILE_SERVER, cwd=tmp_path)
    content = json.loads(done.stdout)["result"]["content"]
    assert "\x9b31m" in content and "\u202e" in content and "\x1b]52;" in content
    assert b"\\u009b31m" in done.stdout and b"\\u202e" in done.stdout
    assert "\u200b\u2028" in content and b"\\u200b\\u2028" in done.stdout


@pytest.fixture
def hostile_http(tmp_path: Path) -> Iterator[LocalServer]:
    """An HTTP tool and an MCP endpoint answering with hostile codes, text and headers."""
    payload = "HOSTILE\x1b]52;c;aGk=\x07\x1b[2J\u202e\x9b31m\x1b]0;title\x07\u200b\u2028\ufeff"
    with running_server() as endpoint:
        endpoint.routes["/lookup"] = Reply(
            status=200,
            body=json.dumps(
                {
                    "success": False,
                    "content": "content " + payload,
                    "error": {"type": "Type" + payload, "message": "message " + payload},
                }
            ),
            content_type="application/json",
            headers={"X-Note": "HOSTILE\x1b]52;c;aGk=\x07\x9b2J"},
        )
        endpoint.routes["/mcp"] = Reply(
            status=200, body="{}", content_type="text/HOSTILE\x1b]52;c;aGk=\x07\x9b2J"
        )
        (tmp_path / "pyproject.toml").write_text(
            '[tool.workbench]\nfixtures = ["fx"]\ninclude_bundled = false\n'
        )
        (tmp_path / "fx" / "remote").mkdir(parents=True)
        (tmp_path / "fx" / "remote" / "manifest.yaml").write_text(
            "identifier: remote\nmeta: {title: Remote}\napi:\n  - name: lookup\n"
            f"    url: {endpoint.url('/lookup')}\n    parameters: {{type: object}}\n"
        )
        yield endpoint


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_an_http_tools_hostile_error_type_prints_inert(
    hostile_http: LocalServer, tmp_path: Path, output_format: str
) -> None:
    done = run(
        "call", "remote.lookup", "--allow-host", "127.0.0.1", "--format", output_format,
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert_inert(done, "HOSTILE")


def test_sdk_log_lines_quoting_a_hostile_header_print_inert(
    hostile_http: LocalServer, tmp_path: Path
) -> None:
    done = run(
        "tools", "--mcp", hostile_http.url("/mcp"), "--handshake-timeout", "30", cwd=tmp_path
    )
    assert b"Unexpected content type" in done.stderr, (hostile_http.paths(), done.stdout)
    assert_inert(done, "HOSTILE")
