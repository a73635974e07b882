"""The one sanitizer for untrusted text from tools and fixtures.

Tool output may hold terminal escape sequences (clipboard writes, title changes, screen
clears, hyperlinks) and text that looks like Rich/Textual markup. None of it may reach the
terminal as anything but inert characters. Every surface builds its text through this module:

- :func:`clean` returns plain text with every escape-introduced sequence (CSI, OSC, DCS,
  SOS, PM, APC, and their 8-bit C1 forms) removed, C0 controls except newline and tab
  removed, DEL and C1 removed, carriage returns resolved as a terminal would.
- :func:`ansi_text` does the same but keeps SGR colour by turning it into Rich styles; it
  never creates links or actions.
- :func:`plain` wraps clean text in a :class:`rich.text.Text`, which is never parsed as markup.
- :func:`safe_json` writes JSON that keeps every value but escapes what a terminal would act on.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # Rich is imported where a Text is built: clean() and safe_json() (all a headless
    # `workbench call` uses) need none of it.
    from rich.style import Style
    from rich.text import Text

# ESC-introduced strings ended by ST (ESC \ or 0x9C) or, in practice, BEL. An unterminated
# string runs to the end of the text, as a terminal would swallow it.
_STRING_SEQUENCE = (
    r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])(?:[^\x07\x1b\x9c]|\x1b(?!\\))*(?:\x07|\x1b\\|\x9c|$)"
)
_CSI_SEQUENCE = r"(?:\x1b\[|\x9b)([0-?]*)([ -/]*)([@-~]|$)"
# Any other escape: ESC, intermediates, one final byte (ESC 7, ESC ( B, ESC c ...), or a lone ESC.
_OTHER_ESCAPE = r"\x1b[ -/]*[0-~]?"
_ESCAPES = re.compile(f"{_STRING_SEQUENCE}|{_CSI_SEQUENCE}|{_OTHER_ESCAPE}")
# C0 except \t and \n (\r is resolved before this runs), DEL, C1, and the bidi embedding,
# override and isolate controls (which can make shown text differ from what runs).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_SURROGATES = re.compile("[\ud800-\udfff]")
# What json.dumps(ensure_ascii=False) leaves raw that a terminal would act on (it already
# escapes C0): DEL, C1, bidi controls, and lone surrogates (which cannot even be encoded).
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

_SGR_BASIC: dict[int, str] = {
    1: "bold",
    2: "dim",
    3: "italic",
    4: "underline",
    5: "blink",
    7: "reverse",
    8: "conceal",
    9: "strike",
    21: "underline2",
    22: "not dim not bold",
    23: "not italic",
    24: "not underline",
    25: "not blink",
    27: "not reverse",
    28: "not conceal",
    29: "not strike",
    39: "default",
    49: "on default",
    53: "overline",
    55: "not overline",
}


def resolve_carriage_returns(line: str) -> str:
    """Apply bare carriage returns the way a terminal would: later text overwrites earlier."""
    if "\r" not in line:
        return line
    screen: list[str] = []
    for part in line.split("\r"):
        screen[: len(part)] = list(part)
    return "".join(screen)


def _strip_controls(text: str) -> str:
    text = text.replace("\r\n", "\n")
    if "\r" in text:
        text = "\n".join(resolve_carriage_returns(line) for line in text.split("\n"))
    text = _CONTROLS.sub("", text)
    return _SURROGATES.sub("\ufffd", text)


def clean(text: object) -> str:
    """Return ``text`` with every escape sequence and control character removed."""
    if not isinstance(text, str):
        text = str(text)
    return _strip_controls(_ESCAPES.sub("", text))


def _sgr_style(params: str, style: Style) -> Style:
    """Fold one SGR parameter string into ``style``."""
    from rich.color import Color, ColorParseError
    from rich.style import Style

    codes: list[int] = []
    for part in params.replace(":", ";").split(";"):
        try:
            codes.append(int(part) if part else 0)
        except ValueError:
            return style
    index = 0
    while index < len(codes):
        code = codes[index]
        index += 1
        if code == 0:
            style = Style()
        elif code in _SGR_BASIC:
            style += Style.parse(_SGR_BASIC[code])
        elif 30 <= code <= 37:
            style += Style(color=Color.from_ansi(code - 30))
        elif 40 <= code <= 47:
            style += Style(bgcolor=Color.from_ansi(code - 40))
        elif 90 <= code <= 97:
            style += Style(color=Color.from_ansi(code - 90 + 8))
        elif 100 <= code <= 107:
            style += Style(bgcolor=Color.from_ansi(code - 100 + 8))
        elif code in (38, 48) and index < len(codes):
            mode = codes[index]
            color: Color | None = None
            try:
                if mode == 5 and index + 1 < len(codes):
                    color = Color.from_ansi(codes[index + 1] % 256)
                    index += 2
                elif mode == 2 and index + 3 < len(codes):
                    red, green, blue = (min(255, value) for value in codes[index + 1 : index + 4])
                    color = Color.from_rgb(red, green, blue)
                    index += 4
                else:
                    index = len(codes)
            except ColorParseError:
                color = None
            if color is not None:
                style += Style(color=color) if code == 38 else Style(bgcolor=color)
    return style


def ansi_text(text: object, style: Style | str = "") -> Text:
    """Return a :class:`Text` of ``text`` with SGR colours kept as styles and all else removed."""
    from rich.style import Style
    from rich.text import Text

    if not isinstance(text, str):
        text = str(text)
    base = Style.parse(style) if isinstance(style, str) else style
    result = Text(style=base)
    current = Style()
    position = 0
    for match in _ESCAPES.finditer(text):
        if match.start() > position:
            chunk = _strip_controls(text[position : match.start()])
            if chunk:
                result.append(chunk, current or None)
        position = match.end()
        params, intermediates, final = match.group(1), match.group(2), match.group(3)
        if final == "m" and not intermediates and params is not None:
            current = _sgr_style(params, current)
    if position < len(text):
        chunk = _strip_controls(text[position:])
        if chunk:
            result.append(chunk, current or None)
    return result


def is_safe(text: str) -> bool:
    """Whether ``text`` holds nothing :func:`clean` would remove (a fast check)."""
    return _UNSAFE.search(text) is None


def plain(text: object, style: Style | str = "") -> Text:
    """Return a :class:`Text` holding ``text`` cleaned; markup-looking text stays literal."""
    from rich.text import Text

    return Text(clean(text if isinstance(text, str) else str(text)), style=style)


def safe_json(
    value: Any,
    *,
    indent: int | None = None,
    sort_keys: bool = False,
    default: Any = None,
) -> str:
    """JSON text of ``value`` that is safe to print: the same data, unsafe code points escaped.

    Unlike :func:`clean` this loses nothing: a reader decoding the JSON gets every character
    back, while a terminal printing it sees only ``\\u009b``-style escapes. Non-ASCII text
    such as CJK stays readable (``ensure_ascii`` would escape all of it).
    """
    text = json.dumps(
        value, indent=indent, ensure_ascii=False, sort_keys=sort_keys, default=default
    )
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
