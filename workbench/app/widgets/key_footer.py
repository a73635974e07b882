"""The footer of Workbench's screens: the keys that matter now first, whole entries only."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby
from typing import Protocol, runtime_checkable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel, KeyGroup


@runtime_checkable
class FooterPolicy(Protocol):
    """What a screen may tell its footer: which keys go first, and a label that follows state."""

    def footer_first(self) -> Iterable[str]:
        """Actions whose keys lead the footer now (the answers to an open question)."""
        ...

    def footer_label(self, binding: Binding) -> str:
        """What the footer says for ``binding`` (its description, or one that says the state)."""
        ...


@dataclass(frozen=True)
class _Key:
    """One key of the footer, as it is drawn."""

    key: str
    display: str
    label: str
    action: str
    disabled: bool
    tooltip: str

    def widget(self, classes: str = "") -> FooterKey:
        return FooterKey(
            self.key,
            self.display,
            self.label,
            self.action,
            disabled=self.disabled,
            tooltip=self.tooltip,
            classes=classes,
        )


@dataclass(frozen=True)
class _Entry:
    """A key, a group of keys with their label, or the command palette's key."""

    keys: tuple[_Key, ...]
    group: str | None = None
    compact_group: bool = False
    palette: bool = False


ALWAYS_SHOWN = frozenset({"quit", "app.quit", "help", "app.help"})
"""Actions whose keys the footer keeps when it must leave entries out."""


LAYOUT_WAITS = 20
"""Refreshes the footer waits for its entries' widths (then it goes by what it has)."""


class KeyFooter(Footer):
    """Textual's footer, with three changes.

    - The screen's current keys come first (``footer_first``): while a call waits for an
      answer, ``y`` / ``n`` / ``esc`` lead, whatever else the focused widget offers.
    - An entry that does not fit is left out whole, never cut in half at the right edge;
      Quit, Keys and the command palette key keep their places.
    - It shows the keys even while the app has no focus (a served page starts unfocused,
      and Textual's footer stayed blank there until the first click).
    """

    _first: tuple[str, ...] = ()
    """The screen's current actions, as the footer last drew them."""
    _shown: tuple[_Entry, ...] | None = None
    """The entries the footer last composed: the same ones again are not composed again."""
    _pending = False
    """A look at the bindings is scheduled (many changes in one refresh need one look)."""

    def compose(self) -> ComposeResult:
        entries = self._entries()
        self._shown = entries
        for entry in entries:
            if entry.group is not None:
                with KeyGroup(classes="-compact" if entry.compact_group else ""):
                    for key in entry.keys:
                        yield key.widget(classes="-grouped").data_bind(compact=Footer.compact)
                yield FooterLabel(entry.group)
            elif entry.palette:
                yield entry.keys[0].widget(classes="-command-palette")
            else:
                yield entry.keys[0].widget().data_bind(compact=Footer.compact)

    def _entries(self) -> tuple[_Entry, ...]:
        """What the footer shows for the screen's bindings now, in order."""
        if not self._bindings_ready:
            return ()
        screen = self.screen
        policy = screen if isinstance(screen, FooterPolicy) else None
        first = list(policy.footer_first()) if policy is not None else []
        self._first = tuple(first)
        active = screen.active_bindings
        by_action: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
        for _, binding, enabled, tooltip in active.values():
            if binding.show:
                by_action[binding.action].append((binding, enabled, tooltip))

        for action in first:
            # A text field takes printable keys, so Textual leaves ``y`` / ``n`` out while one
            # has the focus; they still answer from the buttons' row: listed, dimmed.
            if action in by_action or screen.check_action(action, ()) is not None:
                continue
            for bindings in screen._bindings.key_to_bindings.values():
                found = next((b for b in bindings if b.action == action and b.show), None)
                if found is not None:
                    by_action[action].append((found, False, found.tooltip))
                    break

        def rank(item: list[tuple[Binding, bool, str]]) -> int:
            action = item[0][0].action
            return first.index(action) if action in first else len(first)

        def key(binding: Binding, label: str, enabled: bool, tooltip: str) -> _Key:
            display = self.app.get_key_display(binding)
            return _Key(binding.key, display, label, binding.action, not enabled, tooltip)

        # A stable sort: the rest keep Textual's order (the focused widget's keys, then the
        # screen's), the current ones move to the front in the order the screen gave.
        shown: list[_Entry] = []
        ordered = sorted(by_action.values(), key=rank)
        for group, grouped_entries in groupby(ordered, lambda entry: entry[0][0].group):
            members = list(grouped_entries)
            if group is not None and len(members) > 1:
                keys = tuple(
                    key(binding, "", enabled, tooltip or binding.description)
                    for binding, enabled, tooltip in (member[0] for member in members)
                )
                shown.append(_Entry(keys, group=group.description, compact_group=group.compact))
                continue
            for binding, enabled, tooltip in (member[0] for member in members):
                label = policy.footer_label(binding) if policy is not None else binding.description
                shown.append(_Entry((key(binding, label, enabled, tooltip),)))
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            palette = active.get(self.app.COMMAND_PALETTE_BINDING)
            if palette is not None:
                _, binding, enabled, _ = palette
                tooltip = binding.tooltip or binding.description
                shown.append(
                    _Entry((key(binding, binding.description, enabled, tooltip),), palette=True)
                )
        return tuple(shown)

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if self.is_attached and screen is self.screen and not self._pending:
            # Textual recomposes on every change: a start changed the bindings some twenty
            # times (focus, phases, hosts), each a whole new row of widgets to style.
            self._pending = True
            self.call_after_refresh(self._follow_bindings)

    async def _follow_bindings(self) -> None:
        self._pending = False
        if self.is_attached and self._entries() != self._shown:
            await self.recompose()

    async def recompose(self) -> None:
        await super().recompose()
        self.call_after_refresh(self._drop_overflow)

    def on_resize(self) -> None:
        for child in self.children:
            child.display = True
        self.call_after_refresh(self._drop_overflow)

    def _drop_overflow(self, attempts: int = 0) -> None:
        """Leave out, whole, every entry from the first one that does not fit. The current
        keys (an open question's answers) have the room first, as many as fit; Quit and Keys
        keep their room next: a newcomer needs those two most."""
        unmeasured = any(child.display and not child.outer_size.width for child in self.children)
        if unmeasured and attempts < LAYOUT_WAITS:
            # The new entries are not laid out yet (a recompose the refresh overtook): with
            # no widths everything would seem to fit. Measure once they are.
            self.call_after_refresh(self._drop_overflow, attempts + 1)
            return
        entries: list[list[Widget]] = []
        for child in self.children:
            if child.has_class("-command-palette"):
                continue
            if isinstance(child, FooterLabel) and entries:
                entries[-1].append(child)  # A group's label goes with its keys.
            else:
                entries.append([child])
        palette = [child for child in self.children if child.has_class("-command-palette")]
        room = self.size.width - sum(child.outer_size.width for child in palette)

        def actions(entry: list[Widget]) -> set[str]:
            return {
                key.action
                for part in entry
                for key in (part, *part.children)
                if isinstance(key, FooterKey)
            }

        def width(entry: list[Widget]) -> int:
            return sum(part.outer_size.width + part.styles.margin.width for part in entry)

        current = [entry for entry in entries if actions(entry) & set(self._first)]
        must: list[list[Widget]] = []
        used = 0
        for entry in current:
            # Many current keys (a screen's leading ones) may not all fit: those past the
            # first that does not are left out whole, like any other entry.
            if used + width(entry) > room:
                break
            must.append(entry)
            used += width(entry)
        # Quit and Keys next, as many as fit, in order: both or neither left one out with
        # room to spare, and a lesser key took it (at 60 columns: Portal instead of Quit).
        kept: list[list[Widget]] = []
        for entry in entries:
            if entry in current or not actions(entry) & ALWAYS_SHOWN:
                continue
            if used + width(entry) > room:
                break
            kept.append(entry)
            used += width(entry)
        full = len(must) < len(current)
        for entry in entries:
            if entry in must or entry in kept:
                continue
            if not full and used + width(entry) <= room:
                used += width(entry)
                continue
            full = True
            for part in entry:
                part.display = False
