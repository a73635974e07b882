"""F2 in live mode: name a recorded call, say what kind of case it is, pick its file, and
waive (with a reason) the kinds its API still lacks."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from workbench.app.recording import Destination, SaveRequest
from workbench.core.identifiers import slug
from workbench.core.sanitize import clean

VARIANT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class SaveFixtureScreen(ModalScreen[SaveRequest | None]):
    """Asks for the label, the kind and the file before a live call becomes a fixture.

    ``check`` says what is wrong with a choice (a kind the result contradicts, an id the file
    has), or ``None``; the dialog stays open until the choice is one that saves. ``missing``
    are the standard kinds the API has no variant of and no waiver for: each can be waived
    (written into the file's ``waivers`` with the one reason given), so that ``workbench
    check`` passes for a tool that cannot produce them.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", tooltip="Save the call as this fixture variant"),
        Binding("escape", "dismiss_dialog", "Cancel", tooltip="Close without saving"),
    ]

    DEFAULT_CSS = """
    SaveFixtureScreen {
        align: center middle;
        #dialog {
            width: 90%;
            max-width: 84;
            height: auto;
            border: round $primary;
            border-title-color: $text;
            background: $surface;
            padding: 0 1;
        }
        .-row { height: auto; margin: 0 0 1 0; }
        .-field { width: 8; padding: 0 1 0 0; color: $text-muted; }
        Input, Select { width: 1fr; }
        #save-what { color: $text-muted; margin: 0 0 1 0; }
        #save-error { color: $error; height: auto; }
        #save-waive Checkbox { width: auto; margin-right: 1; }
        #save-buttons { height: auto; }
        #save-buttons Button { margin-right: 1; }
    }
    """

    def __init__(
        self,
        *,
        what: str,
        label: str,
        kind: str,
        kinds: Sequence[str],
        variant_id: str,
        destinations: Sequence[Destination],
        check: Callable[[SaveRequest], str | None],
        missing: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self._what = what
        self._label = label
        self._kind = kind
        self._kinds = list(dict.fromkeys([kind, *kinds]))
        self._variant_id = variant_id
        self._destinations = list(destinations)
        self._check = check
        self._missing = list(missing)
        self._auto_id = variant_id
        """The id last filled in from the label; a different id was typed by the person."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(clean(self._what)), id="save-what")
            with Horizontal(classes="-row"):
                yield Label("Label", classes="-field")
                yield Input(self._label, id="save-label", compact=True)
            with Horizontal(classes="-row"):
                yield Label("Kind", classes="-field")
                yield Select(
                    [(kind, kind) for kind in self._kinds],
                    value=self._kind,
                    allow_blank=False,
                    id="save-kind",
                    compact=True,
                )
            with Horizontal(classes="-row"):
                yield Label("Id", classes="-field")
                yield Input(self._variant_id, id="save-id", compact=True)
            with Horizontal(classes="-row"):
                yield Label("Into", classes="-field")
                yield Select(
                    [
                        (Text(clean(item.name)), index)
                        for index, item in enumerate(self._destinations)
                    ],
                    value=0,
                    allow_blank=False,
                    id="save-into",
                    compact=True,
                )
            if self._missing:
                with Horizontal(classes="-row", id="save-waive"):
                    yield Label("Waive", classes="-field")
                    for kind in self._missing:
                        yield Checkbox(
                            kind,
                            id=f"waive-{kind}",
                            compact=True,
                            disabled=kind == self._kind,
                            tooltip=f"The API cannot produce a {kind!r} case: say why below",
                        )
                with Horizontal(classes="-row"):
                    yield Label("Why", classes="-field")
                    yield Input(
                        placeholder="why the API cannot produce the waived kinds",
                        id="save-reason",
                        compact=True,
                    )
            yield Label("", id="save-error")
            with Horizontal(id="save-buttons"):
                yield Button("Save (ctrl+s)", variant="primary", id="save", compact=True)
                yield Button("Cancel (esc)", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#dialog").border_title = "Save the call as a fixture"
        self.query_one("#save-label", Input).focus()

    @on(Input.Changed, "#save-label")
    def _label_changed(self, event: Input.Changed) -> None:
        # The id follows the label until the person edits it.
        field = self.query_one("#save-id", Input)
        if field.value == self._auto_id and event.value.strip() != self._label:
            self._auto_id = slug(event.value, fallback="call")[:80]
            field.value = self._auto_id

    @on(Select.Changed, "#save-kind")
    def _kind_changed(self, event: Select.Changed) -> None:
        # The kind being recorded is covered by this save: it is not offered as a waiver.
        for box in self.query(Checkbox):
            covered = box.id == f"waive-{event.value}"
            box.disabled = covered
            if covered:
                box.value = False

    def request(self) -> SaveRequest | str:
        """The choice as a request, or what is wrong with it."""
        label = self.query_one("#save-label", Input).value.strip()
        variant_id = self.query_one("#save-id", Input).value.strip()
        kind: Any = self.query_one("#save-kind", Select).value
        into: Any = self.query_one("#save-into", Select).value
        if not label:
            return "Give the variant a label: it is what reviewers read."
        if not VARIANT_ID.match(variant_id) or len(variant_id) > 80:
            return (
                "The id takes letters, digits, '.', '_' and '-' (it starts with a letter or digit)."
            )
        waive = tuple(
            missing
            for missing in self._missing
            if missing != str(kind) and self.query_one(f"#waive-{missing}", Checkbox).value
        )
        reason = self.query_one("#save-reason", Input).value.strip() if self._missing else ""
        if waive and len(reason) < 3:
            kinds = ", ".join(map(repr, waive))
            return f"Say why the API cannot produce {kinds}: it is kept with the waiver."
        return SaveRequest(
            label,
            str(kind),
            variant_id,
            self._destinations[int(into)].path,
            waive=waive,
            reason=reason if waive else "",
        )

    @on(Button.Pressed, "#save")
    @on(Input.Submitted)
    def action_save(self) -> None:
        request = self.request()
        problem = request if isinstance(request, str) else self._check(request)
        if problem is not None or isinstance(request, str):
            self.query_one("#save-error", Label).update(Text(clean(problem or "")))
            return
        self.dismiss(request)

    @on(Button.Pressed, "#cancel")
    def action_dismiss_dialog(self) -> None:
        self.dismiss(None)
