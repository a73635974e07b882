"""The conversation view's saving of a transcript's call as a fixture variant (f2), through
the same dialog as the live screen's."""

from __future__ import annotations

from pathlib import Path

from textual import work

from workbench.app.screens.call_screen import CallScreen
from workbench.core.manifest import ToolApi, ToolManifest, ToolMeta
from workbench.core.sanitize import clean
from workbench.project import Project
from workbench.transcripts.conversation import CallRow


class ConversationSaving(CallScreen):
    """Saving the selected call: ask how (label, kind, file), then write it off the UI thread;
    a tool the project does not know gets a manifest of the saved API beside it."""

    path: Path
    project: Project | None

    @property
    def selected_call(self) -> CallRow | None:
        """The selected row when it is a tool call."""
        raise NotImplementedError

    def _manifest(self, row: CallRow) -> ToolManifest | None:
        raise NotImplementedError

    def action_save_fixture(self) -> None:
        """Save the selected call as a fixture variant, through the same dialog as F2."""
        row = self.selected_call
        if row is None or self.project is None:
            self.notify("Select a tool call to save it.", severity="warning", markup=False)
            return
        self._ask_how_to_save(row, self.project)

    @work(thread=True, exclusive=True, group="save")
    def _ask_how_to_save(self, row: CallRow, project: Project) -> None:
        from workbench.app.recording import (
            check_request,
            destinations,
            kinds_for,
            missing_kinds,
            suggested_kind,
        )
        from workbench.app.screens.save_fixture_screen import SaveFixtureScreen
        from workbench.transcripts.importer import slug

        catalog = project.catalog
        tool, api = row.target.tool, row.target.api
        script = row.script(self._manifest(row))
        events = [step.event for step in script.steps]
        final = script.final_state()
        kind = suggested_kind(final)
        if kind == "typical":
            kind = row.kind  # The import's reading: empty or truncated where it is.
        variant = row.variant()
        screen = SaveFixtureScreen(
            what=f"{tool}.{api}, call {row.number} of {self.path.name}, {final.phase.value}",
            label=variant.label,
            kind=kind,
            kinds=kinds_for(catalog, tool, api),
            variant_id=slug(row.call.id),
            destinations=destinations(catalog, project.config, tool, api),
            missing=missing_kinds(catalog, tool, api),
            check=lambda request: check_request(events, request),
        )

        def chosen(request: object) -> None:
            if request is not None:
                self._save(row, events, request, project)

        self.app.call_from_thread(self.app.push_screen, screen, chosen)

    @work(thread=True, group="save")
    def _save(self, row: CallRow, events: list[object], request: object, project: Project) -> None:
        from workbench.app.recording import SaveRequest, save_recording
        from workbench.fixtures.recorder import RecordingError

        assert isinstance(request, SaveRequest)
        tool, api = row.target.tool, row.target.api
        manifest = self._manifest(row)
        if manifest is None or api not in manifest.api_names():
            # A tool nobody knows gets a manifest of the saved API, as `workbench import` does.
            manifest = ToolManifest(
                identifier=tool,
                meta=ToolMeta(title=tool, description="Saved from an agent transcript."),
                api=[ToolApi(name=api, description="Saved from an agent transcript.")],
                type="mcp" if row.call.server or row.call.name.startswith("mcp__") else "builtin",
            )
        try:
            saved = save_recording(
                events,  # type: ignore[arg-type]
                request,
                tool=tool,
                api=api,
                manifest=manifest,
                packaged=tool in project.registry.tools(),
                catalog=project.catalog,
                config=project.config,
            )
        except (RecordingError, OSError, ValueError) as error:
            self.app.call_from_thread(
                self.notify, clean(f"Could not save: {error}"), severity="error", markup=False
            )
            return
        where = saved.path
        if where.is_relative_to(project.config.root):
            where = where.relative_to(project.config.root)
        self.app.call_from_thread(
            self.notify,
            clean(f"Saved as {where}#{saved.variant_id}"),
            title="Saved",
            markup=False,
            timeout=8,
        )
