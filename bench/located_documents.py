"""The located read of whole-JSON transcripts against ``json.loads``, in the same run.

A gemini-cli recording, a request body or an OTLP export is one JSON document; Workbench
decodes it with :func:`workbench.transcripts.locating.decode_located` so a problem names the
line its record starts on. This generates a gemini-cli recording of ``--calls`` calls (each
with a few kilobytes of output, pretty-printed as gemini-cli writes it), then times, best of
``--repeat``: ``json.loads`` of the text (the floor), ``decode_located`` of it (``json.loads``
and one scan of the text for where its records start), and reading every entry of the file
through ``read_transcript`` (what import and the conversation view do). Wall first, CPU
beside, each as a ratio to ``json.loads``.

    python bench/located_documents.py [--calls 20000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from workbench.transcripts.locating import decode_located
from workbench.transcripts.readers import read_transcript


def recording(calls: int) -> str:
    """A gemini-cli chat recording: a prompt, then one model message per call."""
    messages: list[dict[str, object]] = [
        {"id": "m-0", "type": "user", "content": "Read the files and summarise them"}
    ]
    for index in range(calls):
        output = f"line {index}\n" * 200
        messages.append(
            {
                "id": f"m-{index + 1}",
                "timestamp": "2026-01-07T08:00:01.000Z",
                "type": "gemini",
                "content": "Reading the next file.",
                "toolCalls": [
                    {
                        "id": f"read_file-{index}",
                        "name": "read_file",
                        "args": {"file_path": f"/src/file_{index}.py", "limit": 200},
                        "status": "success",
                        "timestamp": "2026-01-07T08:00:01.000Z",
                        "result": [{"functionResponse": {"response": {"output": output}}}],
                    }
                ],
            }
        )
    return json.dumps({"sessionId": "bench", "messages": messages}, indent=2)


def best(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    """The fastest of ``repeat`` runs: (wall, CPU) seconds."""
    times: list[tuple[float, float]] = []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    text = recording(options.calls)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "session.json"
        path.write_text(text, encoding="utf-8")
        print(f"gemini-cli recording: {options.calls:,} calls, {len(text) / 1e6:.1f} MB")
        base_wall, base_cpu = best(lambda: json.loads(text), options.repeat)
        rows = [
            ("json.loads", (base_wall, base_cpu)),
            ("decode_located", best(lambda: decode_located(text), options.repeat)),
            ("read_transcript", best(lambda: sum(1 for _ in read_transcript(path)), 1)),
        ]
    for name, (wall, cpu) in rows:
        print(
            f"{name:>16}: {wall:6.2f} s wall (x{wall / base_wall:.2f}), "
            f"{cpu:6.2f} s CPU (x{cpu / base_cpu:.2f})"
        )


if __name__ == "__main__":
    main()
