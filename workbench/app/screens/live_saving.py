"""The live screen's saving of a finished call as a fixture variant (f2)."""

from __future__ import annotations

from textual import work

from workbench.app.recording import (
    Saved,
    SaveRequest,
    check_request,
    destinations,
    kinds_for,
    missing_kinds,
    save_recording,
    suggested_id,
    suggested_kind,
    suggested_label,
)
from workbench.app.screens.call_screen import CallScreen
from workbench.app.screens.save_fixture_screen import SaveFixtureScreen
from workbench.app.widgets.history_panel import HistoryEntry, HistoryPanel
from workbench.config import ConfigError
from workbench.core.redact import Redactor
from workbench.core.sanitize import clean
from workbench.fixtures.catalog import Catalog
from workbench.fixtures.files import display_path
from workbench.fixtures.recorder import RecordingError
from workbench.session import LiveSession


class FixtureSaving(CallScreen):
    """Saving the call picked in the history: ask how (label, kind, file), write it off the UI
    thread, then say what ``workbench check`` now thinks of that API."""

    session: LiveSession

    def action_save_fixture(self) -> None:
        """Ask how to save the selected call (label, kind, file), then save it."""
        entry = self.query_one("#history", HistoryPanel).selected
        if entry is None or not entry.finished:
            self.notify("Pick a finished call in the history to save it.", severity="warning")
            return
        if entry.evicted:
            self.notify(
                "This call is too old to save (its events were let go); re-run it with f5.",
                severity="warning",
            )
            return
        self._ask_how_to_save(entry)

    @work(thread=True, exclusive=True, group="save")
    def _ask_how_to_save(self, entry: HistoryEntry) -> None:
        # The project's fixture files are read off the UI thread, to offer them as places.
        catalog = self._catalog()
        config = self.session.config
        screen = SaveFixtureScreen(
            what=f"{entry.source}/{entry.tool}.{entry.api}, {entry.state.phase.value}",
            label=suggested_label(entry.api, entry.args),
            kind=suggested_kind(entry.state),
            kinds=kinds_for(catalog, entry.tool, entry.api),
            variant_id=suggested_id(entry.api, entry.args),
            destinations=destinations(catalog, config, entry.tool, entry.api),
            missing=missing_kinds(catalog, entry.tool, entry.api),
            check=lambda request: check_request(list(entry.record.events), request),
        )

        def chosen(request: SaveRequest | None) -> None:
            if request is not None:
                self._save(entry, request, catalog)

        self.app.call_from_thread(self.app.push_screen, screen, chosen)

    def _catalog(self) -> Catalog | None:
        """The project's fixtures as ``workbench check`` sees them (``None`` if they fail to
        load: the recording can still go to the recordings folder)."""
        from workbench.project import open_project

        try:
            return open_project(config=self.session.config).catalog
        except ConfigError:
            return None

    @work(thread=True, group="save")
    def _save(self, entry: HistoryEntry, request: SaveRequest, catalog: Catalog | None) -> None:
        # Reading and writing fixture files stays off the UI thread.
        try:
            saved = save_recording(
                list(entry.record.events),
                request,
                tool=entry.tool,
                api=entry.api,
                manifest=entry.manifest,
                packaged=entry.tool in self.session.registry.tools(),
                catalog=catalog,
                config=self.session.config,
                # Tokens and cookies sent to the session's servers never reach a fixture.
                redactor=Redactor(self.session.secrets),
            )
            gaps = self._gaps_after(entry.tool, entry.api)
        except (RecordingError, OSError, ValueError) as error:
            self.app.call_from_thread(
                self.notify, clean(f"Could not save: {error}"), severity="error", markup=False
            )
            return
        self.app.call_from_thread(self._saved, entry, saved, gaps)

    def _gaps_after(self, tool: str, api: str) -> tuple[list[str], list[str]]:
        """What ``workbench check`` now says about the one API that was recorded: its gaps,
        and the kinds it lacks but is not held to (it is only observed)."""
        from workbench.coverage import coverage
        from workbench.project import open_project

        project = open_project(config=self.session.config)
        for row in coverage(
            project.catalog, project.registry, recordings=project.config.recordings
        ):
            if row.tool == tool and row.api == api:
                observed = [kind for kind, status in row.kinds.items() if status == "observed"]
                return row.gaps, observed
        return [], []

    def _saved(self, entry: HistoryEntry, saved: Saved, gaps: tuple[list[str], list[str]]) -> None:
        address = f"{display_path(saved.path, self.session.config.root)}#{saved.variant_id}"
        self.query_one("#history", HistoryPanel).mark_saved(entry, address)
        message = f"Saved as {address}"
        if saved.manifest is not None:
            message += f"; {display_path(saved.manifest, self.session.config.root)} now "
            message += f"describes {entry.api}"
        problems, observed = gaps
        name = f"{entry.tool}.{entry.api}"
        if problems:
            message += f". workbench check: {name} " + "; ".join(problems)
        elif observed:
            message += (
                f". workbench check: {name} passes as observed (a recording of a tool with no "
                f"surfaces of its own owes no {', '.join(map(repr, observed))} variant)"
            )
        else:
            message += f". workbench check: {name} is covered"
        self.notify(
            clean(message),
            title="Recorded",
            severity="warning" if problems else "information",
            timeout=10,
            markup=False,
        )
