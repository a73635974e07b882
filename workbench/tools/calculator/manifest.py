"""The calculator's manifest: one API, evaluated safely (never ``eval``)."""

from __future__ import annotations

from workbench.api import SCHEMAS_CHECKED, ToolManifest

IDENTIFIER = "calculator"

SYSTEM_ROLE = """You can evaluate arithmetic with the calculator.

- **calculate**: evaluate one expression exactly as written. Supports + - * / // % ** and
  parentheses, the constants pi, e and tau, and the functions sqrt, abs, round, floor, ceil,
  exp, log (natural, or log(x, base)), log10, log2, sin, cos, tan, asin, acos, atan,
  degrees, radians, factorial, gcd and hypot.
  Use it instead of doing arithmetic in your head; put each separate question in its own call.
"""

MANIFEST = ToolManifest.model_validate(
    {
        "identifier": IDENTIFIER,
        "meta": {
            "title": "Calculator",
            "emoji": "🧮",
            "description": "Evaluate arithmetic expressions exactly and safely.",
        },
        "systemRole": SYSTEM_ROLE,
        "executors": ["client", "server"],
        "api": [
            {
                "name": "calculate",
                "description": (
                    "Evaluate one arithmetic expression and return its value. Integers are exact "
                    "(arbitrary size); results with more than 200 digits are shortened in the text "
                    "you receive. Errors say where in the expression they happened."
                ),
                "defaultTimeoutMs": 5000,
                "parameters": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["expression"],
                    "properties": {
                        "expression": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": 500,
                            "description": 'The expression, e.g. "(2 + 3) * sqrt(16)" '
                            'or "factorial(20) / 3".',
                        },
                        "precision": {
                            "type": "integer",
                            "minimum": 0,
                            "maximum": 15,
                            "default": 10,
                            "description": "Significant digits for non-integer results "
                            "(default 10).",
                        },
                    },
                },
            }
        ],
    },
    context=SCHEMAS_CHECKED,
)
