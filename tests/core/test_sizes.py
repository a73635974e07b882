"""The one size formatter: exact sizes read back as settings, rounded ones as surfaces show."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from workbench.core.limits import GIB, KIB, MIB, format_size, parse_size
from workbench.core.regular_file import UnreadableFile, read_regular_file
from workbench.surfaces import kit


@given(st.integers(min_value=0, max_value=1 << 50))
def test_an_exact_size_reads_back_as_the_same_setting(value: int) -> None:
    written = format_size(value).replace(",", "").removesuffix(" bytes")
    assert parse_size(written, "max_body_bytes") == value


@pytest.mark.parametrize(
    ("value", "exact", "rounded"),
    [
        (0, "0 bytes", "0 B"),
        (512, "512 bytes", "512 B"),
        (1_500, "1,500 bytes", "1.5 KB"),
        (KIB, "1 KiB", "1.0 KB"),
        (MIB - 1, "1,048,575 bytes", "1024.0 KB"),
        (64 * MIB, "64 MiB", "64.0 MB"),
        (3 * MIB + MIB // 5, "3,355,443 bytes", "3.2 MB"),
        (2048 * GIB, "2048 GiB", "2048.0 GB"),
    ],
)
def test_exact_and_rounded_words(value: int, exact: str, rounded: str) -> None:
    assert format_size(value) == exact
    assert format_size(value, rounded=True) == rounded
    assert kit.human_size(value) == rounded


@given(st.integers(min_value=KIB, max_value=1 << 50))
@example(1280)  # A tie: found by a CI run.
def test_a_rounded_size_is_within_a_tenth_of_its_unit(value: int) -> None:
    number, unit = format_size(value, rounded=True).split(" ")
    scale = {"KB": KIB, "MB": MIB, "GB": GIB}[unit]
    # Exact arithmetic: at a tie (1,280 bytes is 1.25 KB, written 1.2) the error is exactly half
    # a tenth, which floats put a hair over.
    assert abs(Fraction(number) * scale - value) <= Fraction(scale, 20)
    assert float(number) < 1024 or unit == "GB"


def test_a_file_past_the_limit_names_the_limit_as_a_setting(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b"x" * (KIB + 1))
    with pytest.raises(UnreadableFile, match=r"^file is larger than 1 KiB$"):
        read_regular_file(path, KIB)
