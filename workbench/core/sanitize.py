"""The one sanitizer for untrusted text from tools and fixtures.

Tool output may hold terminal escape sequences (clipboard writes, title changes, screen
clears, hyperlinks), characters that change what earlier text shows (a carriage return, a
bidi override), characters that show nothing at all (zero-width spaces, tag characters), and
text that looks like Rich/Textual markup. None of it may reach the terminal as anything but
inert characters, and nothing may hide what is there. Every surface builds its text through
this module, in one of two ways:

- :func:`clean` shows text **as it is**: every control character becomes its visible control
  picture (``\r`` is ``␍``, ESC is ``␛``), so an escape sequence shows as ``␛]52;…``, and
  every invisible character becomes a mark such as ``⟨U+200B⟩``. Nothing is removed and
  nothing rewrites what came before. This is the default, for arguments (what will run),
  names, labels, messages and results. :func:`clean_line` does the same for one line (a
  newline shows as ``␊``).
- :func:`clean_output` shows text **as a terminal would** print it, for what a process wrote
  to its terminal (a command's stdout and stderr, a server's log): escape sequences are
  removed, a carriage return lets later text overwrite earlier (progress bars), other
  controls are removed; invisible characters still become marks. :func:`ansi_text` does
  the same but keeps SGR colour as Rich styles; it never creates links or actions.
- :func:`plain` wraps clean text in a :class:`rich.text.Text`, which is never parsed as markup.
- :func:`safe_json` writes JSON that keeps every value but escapes what a terminal would act on.

Invisible characters are kept only where they are part of the writing: a zero-width joiner
between two emoji (one family emoji), a zero-width (non-)joiner between two letters of a
script that writes with them (Persian, Hindi), and VS15/VS16 right after the character they
select.
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

# Characters that show nothing, or act on the text around them, in a terminal: bidi marks,
# embeddings, overrides and isolates (shown text would differ from what runs), zero-width
# spaces and joiners, line and paragraph separators, the BOM, soft hyphen, Hangul fillers
# (blank but two cells wide in many terminals), invisible operators, interlinear annotation,
# variation selectors, tag characters (which spell hidden ASCII) and the other
# default-ignorable code points.
_INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\ufffe\uffff"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
_EMOJI = "\u2600-\u27bf\U0001f000-\U0001faff"
# A letter of a script that writes with joiners: not ASCII, or a combining mark (a virama).
_SCRIPT_LETTER = r"(?:(?<=[^\W\d_a-zA-Z])|(?<=[\u0300-\u036f\u0900-\u0dff]))"
_KEPT = re.compile(
    # ZWJ inside an emoji sequence (after an emoji, a VS16 or a skin tone; before an emoji).
    f"(?<=[{_EMOJI}\ufe0f])\u200d(?=[{_EMOJI}])"
    # ZWNJ / ZWJ between two letters of a script that writes with them (Persian, Hindi).
    f"|{_SCRIPT_LETTER}[\u200c\u200d]"
    r"(?=[^\W\d_a-zA-Z]|[\u0900-\u0dff])"
    # A presentation selector right after the character it selects (not after another one).
    "|(?<![\ufe0e\ufe0f\t])(?<=.)[\ufe0e\ufe0f]"
)
_SURROGATE_RANGE = "\ud800-\udfff"
# Everything clean() shows differently: C0 but \t and \n, DEL, C1, invisible, surrogates.
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_INVISIBLE}{_SURROGATE_RANGE}]")
# The same, and newline and tab too: for one line.
_UNSAFE_IN_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f{_INVISIBLE}{_SURROGATE_RANGE}]")
# Most text is ASCII (str.isascii() is O(1)): a small class checks it several times faster
# than the one with the astral ranges.
_UNSAFE_ASCII = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
_UNSAFE_ASCII_IN_LINE = re.compile("[\x00-\x1f\x7f]")
# What clean_output() drops after escapes and carriage returns are dealt with: the other
# controls (as a terminal acts on them, they draw nothing).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# What json.dumps(ensure_ascii=False) leaves raw that a terminal would act on or hide (it
# already escapes C0): DEL, C1, invisible characters, and lone surrogates (which cannot even
# be encoded).
_JSON_UNSAFE = re.compile(f"[\x7f-\x9f{_INVISIBLE}{_SURROGATE_RANGE}]")
_JSON_UNSAFE_BMP = re.compile(f"[\x7f-\x9f{_INVISIBLE.split(chr(0x1BCA0))[0]}{_SURROGATE_RANGE}]")


def _mark(character: str) -> str:
    """The visible stand-in for one control or invisible character."""
    code = ord(character)
    if code < 0x20:
        return chr(0x2400 + code)  # the control pictures: ␀ … ␟ (␍, ␊, ␛, ␇)
    if code == 0x7F:
        return "\u2421"  # ␡
    if 0xD800 <= code <= 0xDFFF:
        return "\ufffd"  # a lone surrogate cannot be printed, nor even encoded
    return f"\u27e8U+{code:04X}\u27e9"  # ⟨U+200B⟩


_JOINERS = frozenset("\u200c\u200d\ufe0e\ufe0f")


def _shown(match: re.Match[str]) -> str:
    """A matched character's mark, or the character itself where it is part of the writing."""
    character = match.group()
    if character in _JOINERS and _KEPT.match(match.string, match.start()) is not None:
        return character
    return _mark(character)


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
    """Apply bare carriage returns the way a terminal would: later text overwrites earlier.

    Only for what a process wrote to a terminal (a progress bar): never for arguments, where
    ``rm -rf ~ #\\rls`` must not show as ``ls``.
    """
    if "\r" not in line:
        return line
    screen: list[str] = []
    for part in line.split("\r"):
        screen[: len(part)] = list(part)
    return "".join(screen)


def _as_terminal(text: str) -> str:
    """Controls as a terminal acts on them: ``\\r`` overwrites, the rest draw nothing."""
    text = text.replace("\r\n", "\n")
    if "\r" in text:
        text = "\n".join(resolve_carriage_returns(line) for line in text.split("\n"))
    return clean(_CONTROLS.sub("", text))


def clean(text: object) -> str:
    """``text`` as it is, with nothing hidden: controls, escapes and invisible characters
    shown as visible marks (``␍``, ``␛]52;…``, ``⟨U+200B⟩``); newlines and tabs kept."""
    if not isinstance(text, str):
        text = str(text)
    if is_safe(text):
        return text
    return _UNSAFE.sub(_shown, text)


def clean_line(text: object) -> str:
    """Like :func:`clean`, on one line: a newline or tab shows as ``␊`` or ``␉``."""
    if not isinstance(text, str):
        text = str(text)
    if (_UNSAFE_ASCII_IN_LINE if text.isascii() else _UNSAFE_IN_LINE).search(text) is None:
        return text
    return _UNSAFE_IN_LINE.sub(_shown, text)


def clean_output(text: object) -> str:
    """What a terminal would show of ``text`` a process wrote to it: escape sequences
    removed, carriage returns resolved, other controls removed, invisible characters marked."""
    if not isinstance(text, str):
        text = str(text)
    if is_safe(text):
        return text
    return _as_terminal(_ESCAPES.sub("", text))


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
            chunk = _as_terminal(text[position : match.start()])
            if chunk:
                result.append(chunk, current or None)
        position = match.end()
        params, intermediates, final = match.group(1), match.group(2), match.group(3)
        if final == "m" and not intermediates and params is not None:
            current = _sgr_style(params, current)
    if position < len(text):
        chunk = _as_terminal(text[position:])
        if chunk:
            result.append(chunk, current or None)
    return result


def is_safe(text: str) -> bool:
    """Whether ``text`` holds nothing :func:`clean` would show differently (a fast check)."""
    return (_UNSAFE_ASCII if text.isascii() else _UNSAFE).search(text) is None


def plain(text: object, style: Style | str = "") -> Text:
    """Return a :class:`Text` holding ``text`` cleaned; markup-looking text stays literal."""
    from rich.text import Text

    return Text(clean(text if isinstance(text, str) else str(text)), style=style)


def safe_json(
    value: Any,
    *,
    indent: int | str | None = None,
    sort_keys: bool = False,
    default: Any = None,
    escape_astral: bool = True,
) -> str:
    """JSON text of ``value`` that is safe to print: the same data, unsafe code points escaped.

    Unlike :func:`clean` this loses nothing: a reader decoding the JSON gets every character
    back, while a terminal printing it sees only ``\\u009b``-style escapes. Non-ASCII text
    such as CJK stays readable (``ensure_ascii`` would escape all of it).

    ``escape_astral=False`` is for JSON that PyYAML reads back (fixture files: the loader
    parses JSON as YAML, which refuses the surrogate-pair escapes JSON needs above U+FFFF):
    there the few invisible characters above U+FFFF (tag characters) are left as they are.
    """
    text = json.dumps(
        value, indent=indent, ensure_ascii=False, sort_keys=sort_keys, default=default
    )
    if not escape_astral:
        return _JSON_UNSAFE_BMP.sub(_json_escape, text)
    return _JSON_UNSAFE.sub(_json_escape, text)


def yaml_escape(text: str) -> str:
    """``text`` (the inside of YAML double-quoted scalars) with every character a terminal
    would act on or hide written as a ``\\uXXXX`` / ``\\UXXXXXXXX`` escape: a YAML reader gets
    the same value back, ``cat`` shows only the escape."""
    return _JSON_UNSAFE.sub(_yaml_escape, text)


def _yaml_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\U{code:08X}" if code > 0xFFFF else f"\\u{code:04X}"


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:  # JSON escapes only 16-bit units: a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"
