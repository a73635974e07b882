"""A call's events, kept for recording it as a fixture, in bounded memory however long it runs.

The reducer folds every event into the call state as it arrives; what is kept here is only
for :func:`~workbench.fixtures.recorder.variant_from_events`. A flooding call sends hundreds of
thousands of progress reports and megabytes of output, so the log folds as it goes:

- consecutive argument deltas become one (the recorder reads only the final arguments);
- progress reports closer together than :data:`PROGRESS_STEP_MS` keep only the latest one,
  so the last value always survives;
- consecutive small output chunks of one stream within :data:`OUTPUT_MERGE_MS` become one;
- past ``max_output_chars`` of output the oldest output is let go, and one marker chunk says
  how much; past ``max_events`` the progress reports are thinned by half (and, when they are
  few, half the output goes).
"""

from __future__ import annotations

from collections.abc import Iterator

from workbench.core import events as ev

PROGRESS_STEP_MS = 100
OUTPUT_MERGE_MS = 100
MERGE_CHUNK_CHARS = 4096
"""Only small chunks merge: each merge copies the text so far, which must stay cheap."""
DEFAULT_MAX_EVENTS = 5_000
DEFAULT_MAX_OUTPUT_CHARS = 1_000_000
DEFAULT_MAX_SERVER_EVENTS = 500
"""Log lines and notifications kept for a recording; a flooding server's rest is counted."""


class EventLog:
    """An append-only, self-folding sequence of :class:`~workbench.core.events.CallEvent`."""

    def __init__(
        self,
        *,
        max_events: int = DEFAULT_MAX_EVENTS,
        max_output_chars: int = DEFAULT_MAX_OUTPUT_CHARS,
    ) -> None:
        self.max_events = max_events
        self.max_output_chars = max_output_chars
        self._events: list[ev.CallEvent] = []
        self._output_chars = 0
        self.received = 0
        """Every event appended, folded or not."""
        self.dropped_output_chars = 0
        """Output let go from the head to stay under ``max_output_chars``."""
        self._step_start = 0
        self._marker: ev.OutputChunk | None = None
        self._server_events = 0
        self.dropped_server_events = 0
        """Log lines and notifications past :data:`DEFAULT_MAX_SERVER_EVENTS`, not kept."""

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[ev.CallEvent]:
        return iter(self._events)

    def __bool__(self) -> bool:
        return bool(self._events)

    def __getitem__(self, index: int) -> ev.CallEvent:
        return self._events[index]

    def clear(self) -> None:
        self._events = []
        self._output_chars = 0
        self._marker = None
        self._server_events = 0

    def append(self, event: ev.CallEvent) -> None:
        self.received += 1
        if isinstance(event, ev.ServerEvent):
            if self._server_events >= DEFAULT_MAX_SERVER_EVENTS:
                self.dropped_server_events += 1
                return
            self._server_events += 1
        last = self._events[-1] if self._events else None
        if isinstance(event, ev.ArgsDelta) and isinstance(last, ev.ArgsDelta):
            self._events[-1] = ev.ArgsDelta(last.text + event.text, at_ms=event.at_ms)
            return
        if isinstance(event, ev.Progress):
            if isinstance(last, ev.Progress) and event.at_ms - self._step_start < PROGRESS_STEP_MS:
                self._events[-1] = event  # The latest value of this step wins.
                return
            self._step_start = event.at_ms
            self._events.append(event)
        elif isinstance(event, ev.OutputChunk):
            self._output_chars += len(event.text)
            if (
                isinstance(last, ev.OutputChunk)
                and last is not self._marker
                and last.stream == event.stream
                and event.at_ms - last.at_ms <= OUTPUT_MERGE_MS
                and len(last.text) + len(event.text) <= MERGE_CHUNK_CHARS
            ):
                # The merged chunk keeps the first one's time, as the recorder's merge does.
                self._events[-1] = ev.OutputChunk(
                    last.text + event.text, last.stream, at_ms=last.at_ms
                )
            else:
                self._events.append(event)
            if self._output_chars > self.max_output_chars:
                self._drop_old_output()
        else:
            self._events.append(event)
        if len(self._events) > self.max_events:
            self._thin_progress()

    def _drop_old_output(self, keep_chars: int | None = None) -> None:
        """Let the oldest output go until half the cap is kept; one marker says how much."""
        keep = self.max_output_chars // 2 if keep_chars is None else keep_chars
        excess = self._output_chars - keep
        kept: list[ev.CallEvent] = []
        marker_index: int | None = None
        marker_at = 0
        for event in self._events:
            if isinstance(event, ev.OutputChunk) and (event is self._marker or excess > 0):
                if marker_index is None:
                    marker_index, marker_at = len(kept), event.at_ms
                if event is self._marker:
                    continue  # The earlier marker: the new one counts what it counted.
                cut = min(excess, len(event.text))
                excess -= cut
                self.dropped_output_chars += cut
                self._output_chars -= cut
                if cut == len(event.text):
                    continue
                event = ev.OutputChunk(event.text[cut:], event.stream, at_ms=event.at_ms)
            kept.append(event)
        if marker_index is not None:
            self._marker = ev.OutputChunk(
                f"[… {self.dropped_output_chars:,} characters of earlier output not kept]\n",
                "stderr",
                at_ms=marker_at,
            )
            kept.insert(marker_index, self._marker)
        self._events = kept

    def _thin_progress(self) -> None:
        """Too many events even folded: keep every other progress report (always the last)."""
        progress = [
            index for index, event in enumerate(self._events) if isinstance(event, ev.Progress)
        ]
        drop = set(progress[:-1][::2])
        if drop:
            self._events = [event for index, event in enumerate(self._events) if index not in drop]
        if len(self._events) > self.max_events // 2 and len(drop) < len(self._events) // 4:
            # Mostly small output chunks that could not merge (streams taking turns).
            self._drop_old_output(self._output_chars // 2)
