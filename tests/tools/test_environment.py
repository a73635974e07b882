"""Each tool package names the environment variables it reads: the session turns them into
settings for that tool's runtime, and core knows no tool's settings keys."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from workbench.api import RuntimeServices, ToolManifest, ToolPackage
from workbench.session import LiveOptions, build_session
from workbench.tools import settings_variables
from workbench.tools.task import PACKAGE as TASK
from workbench.tools.web_browsing import PACKAGE as WEB

NOTES = textwrap.dedent(
    """\
    from workbench.api import ToolManifest, ToolPackage

    PACKAGE = ToolPackage(
        manifest=ToolManifest.model_validate(
            {
                "identifier": "notes",
                "meta": {"title": "Notes"},
                "api": [{"name": "read", "description": "Read a note.", "parameters": {}}],
            }
        ),
        environment={"ACME_NOTES_DIR": "notes.dir"},
    )
    """
)


def test_the_bundled_tools_declare_their_own_variables() -> None:
    assert WEB.environment["WORKBENCH_WEB_ONLINE"] == "web.online"
    assert TASK.environment == {"WORKBENCH_TASK_DATABASE": "task.database"}
    variables = settings_variables([])
    assert variables["WORKBENCH_SKILLS_PATH"] == "skills.paths"
    assert variables["WORKBENCH_SEARXNG_URL"] == "web.searxng_url"


def test_from_environment_reads_only_the_variables_it_is_given(tmp_path: Path) -> None:
    environ = {"ACME_NOTES_DIR": str(tmp_path), "WORKBENCH_TASK_DATABASE": "", "OTHER": "x"}
    notes = ToolPackage(
        manifest=ToolManifest.model_validate(
            {
                "identifier": "notes",
                "meta": {"title": "Notes"},
                "api": [{"name": "read", "description": "Read a note.", "parameters": {}}],
            }
        ),
        environment={"ACME_NOTES_DIR": "notes.dir"},
    )
    services = RuntimeServices.from_environment(
        tmp_path, environ, variables=settings_variables([notes])
    )
    # An empty variable is no setting; an undeclared one is not read.
    assert services.settings == {"notes.dir": str(tmp_path)}
    assert RuntimeServices.from_environment(tmp_path, environ).settings == {}


def test_a_session_gives_a_tool_the_settings_its_package_declares(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "acme_notes.py").write_text(NOTES)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "acme_notes", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ACME_NOTES_DIR", "/srv/notes")
    monkeypatch.setenv("WORKBENCH_TASK_DATABASE", str(tmp_path / "tasks.db"))
    session = build_session(LiveOptions(tool_modules=["acme_notes"], workspace=tmp_path))
    assert session.services.settings["notes.dir"] == "/srv/notes"
    assert session.services.settings["task.database"] == str(tmp_path / "tasks.db")
