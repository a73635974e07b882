"""Words for counts, sizes and durations, and lines assembled from untrusted pieces."""

from __future__ import annotations

from rich.text import Text

from workbench.core.limits import format_size
from workbench.core.sanitize import plain


def text(value: object, style: str = "") -> Text:
    """Untrusted text as a literal :class:`Text` (never markup, controls shown as marks)."""
    return plain(value, style)


def join(*parts: Text | str | tuple[object, str] | None) -> Text:
    """Assemble one line from pieces: ``Text``, trusted ``str`` labels, or ``(value, style)``."""
    line = Text()
    for part in parts:
        if part is None:
            continue
        if isinstance(part, Text):
            line.append_text(part)
        elif isinstance(part, tuple):
            line.append_text(plain(part[0], part[1]))
        else:
            line.append(part)
    return line


_SIBILANT_ENDINGS = ("s", "x", "z", "ch", "sh")


def noun(count: int, singular: str, plural_form: str | None = None) -> str:
    """The form of ``singular`` that agrees with ``count``: ``file`` or ``files``.

    Regular English plurals are made here (``entry`` -> ``entries``, ``match`` ->
    ``matches``); pass ``plural_form`` for the irregular ones (``person``, ``people``).
    """
    if count == 1:
        return singular
    if plural_form is not None:
        return plural_form
    if singular.endswith("y") and singular[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return singular[:-1] + "ies"
    if singular.endswith(_SIBILANT_ENDINGS):
        return singular + "es"
    return singular + "s"


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``1 file``, ``2 files``, ``1,024 files``: every count a surface prints goes through here."""
    return f"{count:,} {noun(count, singular, plural_form)}"


def part_of(part: int, total: int, singular: str, plural_form: str | None = None) -> str:
    """``2 of 3 pages`` when only some of the items made it, ``3 pages`` when all did.

    A count with a completed verb ("Read: 3 pages") claims the verb for every item; when
    some failed, the count must say how many it is true of.
    """
    if part == total:
        return plural(total, singular, plural_form)
    return f"{part:,} of {plural(total, singular, plural_form)}"


def human_size(size: int) -> str:
    """``512 B``, ``1.5 KB``, ``3.2 MB``: a byte count for people (rounded, base 1024)."""
    return format_size(size, rounded=True)


def seconds(milliseconds: int | float) -> str:
    """``1.2 s`` from milliseconds."""
    return f"{milliseconds / 1000:.1f} s"
