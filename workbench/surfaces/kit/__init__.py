"""Building blocks for surfaces: safe text, caps with "showing N of M", JSON, boxes.

Every piece of tool or fixture text goes through :mod:`workbench.core.sanitize` here, so a
surface written with these helpers cannot leak markup or escape sequences. Tool surfaces
use the names below as ``kit.X``; each lives in the module of its concern:
:mod:`~.wording` (counts, sizes, lines from pieces), :mod:`~.cutting` (caps and their
notes), :mod:`~.code` (JSON, code, diffs), :mod:`~.boxes` (boxes and tables),
:mod:`~.progress` (spinner, skeletons, bars), :mod:`~.endings` (status lines and how a call
that did not finish says so) and :mod:`~.output` (program output).
"""

from __future__ import annotations

# ansi_text is part of the kit surfaces use (kit.ansi_text): re-exported explicitly.
from workbench.core.sanitize import ansi_text as ansi_text
from workbench.surfaces.kit.boxes import (
    args_table,
    error_box,
    key_values,
    notice_box,
    rows_table,
)
from workbench.surfaces.kit.code import (
    code_block,
    diff_block,
    json_block,
    syntax_theme,
    to_json_text,
)
from workbench.surfaces.kit.cutting import (
    MAX_TEXT_CHARS,
    cap_items,
    capped_text,
    hidden_lines_note,
    line_count,
    more_note,
    returned_note,
    shorten,
    shorten_strings,
    showing,
    truncate_line,
)
from workbench.surfaces.kit.endings import (
    ENDING_MARKS,
    ENDING_VERBS,
    ending_notice,
    portal_ending,
    status_line,
)
from workbench.surfaces.kit.endings import (
    error_label as error_label,
)
from workbench.surfaces.kit.endings import (
    error_mark as error_mark,
)
from workbench.surfaces.kit.output import output_tail, output_text
from workbench.surfaces.kit.progress import (
    SPINNER_FRAMES,
    progress_bar,
    skeleton_bar,
    skeleton_lines,
    spinner,
)
from workbench.surfaces.kit.wording import (
    human_size,
    join,
    noun,
    part_of,
    plural,
    seconds,
    text,
)

# error_label and error_mark are used as kit.X but were never in __all__ (the recorded
# public API): importable, not listed, as before the kit became a package.
__all__ = [
    "ENDING_MARKS",
    "ENDING_VERBS",
    "MAX_TEXT_CHARS",
    "SPINNER_FRAMES",
    "ansi_text",
    "args_table",
    "cap_items",
    "capped_text",
    "code_block",
    "diff_block",
    "ending_notice",
    "error_box",
    "hidden_lines_note",
    "human_size",
    "join",
    "json_block",
    "key_values",
    "line_count",
    "more_note",
    "notice_box",
    "noun",
    "output_tail",
    "output_text",
    "part_of",
    "plural",
    "portal_ending",
    "progress_bar",
    "returned_note",
    "rows_table",
    "seconds",
    "shorten",
    "shorten_strings",
    "showing",
    "skeleton_bar",
    "skeleton_lines",
    "spinner",
    "status_line",
    "syntax_theme",
    "text",
    "to_json_text",
    "truncate_line",
]
