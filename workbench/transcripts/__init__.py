"""Agent transcripts in: the session model, one streaming reader per format, redaction, import.

Pure (no Textual). The conversation view and ``workbench import`` consume the same API:

``read_transcript(path, format="auto")`` returns an iterator of :data:`~.model.Entry` items,
lazily, in the order the session settles them: a :class:`~.model.Message` (user, assistant,
thinking) when its line is read, a :class:`~.model.ToolCall` when its result arrives (id, name,
server, args, content, state, error, outcome, start and end times, ``parent_call`` for a
subagent's calls), and a :class:`~.model.TranscriptProblem` (``FILE:LINE: record type: what is
wrong``, never the line's content) for what it cannot read. A JSON Lines file is read a line at
a time, so memory is bounded by the longest line and the calls still waiting for a result; a
file that is one JSON document (a gemini-cli recording, a saved request body, an OTLP export)
is parsed whole. A call that never got a result comes last, with outcome ``unfinished``.
:func:`~.model.turns` groups the entries into :class:`~.model.Turn` items (one per thing the
user asked), as lazily; a turn's ``calls`` are in the order they started.

Formats (:data:`~.readers.FORMATS`): ``claude-code``, ``codex``, ``gemini``, ``acp``,
``openai-chat``, ``openai-responses``, ``anthropic``, ``otel``; ``auto`` sniffs the first
records (:func:`~.readers.detect_format`). :mod:`~.redaction` takes secrets out,
:mod:`~.importer` turns calls into fixture variants and adds them to fixture files.
"""

from __future__ import annotations
