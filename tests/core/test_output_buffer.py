"""The output buffer: immutable views over a shared store, checked against a plain model."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from workbench.core.output_buffer import OutputBuffer

chunks = st.lists(
    st.tuples(st.text(alphabet="ab\n", max_size=8), st.sampled_from(["stdout", "stderr"])),
    max_size=30,
)


def model_lines(pieces: list[tuple[str, str]]) -> list[str]:
    lines: list[str] = []
    partial, partial_stream = "", "stdout"
    for text, stream in pieces:
        if not text:
            continue
        if partial and partial_stream != stream:
            lines.append(partial)
            partial = ""
        partial_stream = stream
        parts = text.split("\n")
        if len(parts) > 1:
            lines.append(partial + parts[0])
            lines.extend(parts[1:-1])
            partial = parts[-1]
        else:
            partial += parts[0]
    return lines + ([partial] if partial else [])


@given(chunks, chunks, st.integers(min_value=0, max_value=30))
def test_views_never_see_each_others_appends(first: list, second: list, split: int) -> None:
    common = first[:split]
    base = OutputBuffer()
    for text, stream in common:
        base = base.append(text, stream)
    a = base
    for text, stream in first[split:]:
        a = a.append(text, stream)
    b = base
    for text, stream in second:
        b = b.append(text, stream)
    assert [line.text for line in base.lines()] == model_lines(common)
    assert [line.text for line in a.lines()] == model_lines(first)
    assert [line.text for line in b.lines()] == model_lines(common + second)


def test_tail_and_counts() -> None:
    buffer = OutputBuffer()
    for index in range(1000):
        buffer = buffer.append(f"line {index}\n")
    buffer = buffer.append("partial")
    assert buffer.line_count == 1001
    assert [line.text for line in buffer.tail(3)] == ["line 998", "line 999", "partial"]


def test_cap_drops_oldest_lines_and_counts_them() -> None:
    buffer = OutputBuffer(max_lines=100)
    for index in range(250):
        buffer = buffer.append(f"{index}\n")
    assert buffer.line_count == 250
    assert buffer.dropped + buffer.stored_count == 250
    assert buffer.stored_count <= 100
    assert buffer.tail(1)[0].text == "249"


def test_carriage_return_progress_bars_stay_one_short_line() -> None:
    """A progress bar redrawn 40,000 times is one line showing its last state, not 1.7 MB."""
    buffer = OutputBuffer()
    for percent in range(40_000):
        buffer = buffer.append(f"\rdownloading {percent % 100:3d}%")
    assert buffer.line_count == 1
    assert buffer.lines()[0].text == "downloading  99%"


def test_a_line_that_never_ends_is_broken_into_capped_pieces() -> None:
    buffer = OutputBuffer().append("x" * 200_000)
    assert all(len(line.text) <= 64 * 1024 for line in buffer.lines())
    assert sum(len(line.text) for line in buffer.lines()) == 200_000
