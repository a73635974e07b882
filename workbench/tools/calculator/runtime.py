"""A safe arithmetic evaluator: the expression is parsed to an AST and walked, never eval'd.

Only numbers, the listed operators, constants and functions are allowed; sizes are bounded
so that ``9 ** 9 ** 9`` or ``factorial(10**6)`` fail fast with a clear error instead of
hanging the process.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from workbench.api import BaseRuntime, CallContext, ToolError, ToolResult, to_result

MAX_EXPRESSION_CHARS = 500
MAX_INTEGER_DIGITS = 10_000
MAX_FACTORIAL = 3_000
CONTENT_DIGITS = 200
"""Digits of a huge result shown to the model; the UI gets the whole value in ``state``."""


class CalculationError(Exception):
    """A problem with the expression, located at a 1-based column."""

    def __init__(self, error_type: str, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.error_type = error_type
        self.message = message
        self.column = column


_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}
_CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e, "tau": math.tau}


def _factorial(value: float) -> int:
    if not float(value).is_integer() or value < 0:
        raise ValueError("factorial() needs a non-negative integer")
    if value > MAX_FACTORIAL:
        raise OverflowError(f"factorial() is limited to n <= {MAX_FACTORIAL}")
    return math.factorial(int(value))


def _log(value: float, base: float | None = None) -> float:
    return math.log(value) if base is None else math.log(value, base)


_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sqrt": math.sqrt,
    "abs": abs,
    "round": round,
    "floor": math.floor,
    "ceil": math.ceil,
    "exp": math.exp,
    "log": _log,
    "log10": math.log10,
    "log2": math.log2,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "asin": math.asin,
    "acos": math.acos,
    "atan": math.atan,
    "degrees": math.degrees,
    "radians": math.radians,
    "factorial": _factorial,
    "gcd": math.gcd,
    "hypot": math.hypot,
}


def _column(node: ast.AST) -> int | None:
    offset = getattr(node, "col_offset", None)
    return offset + 1 if offset is not None else None


def _check_size(value: Any, node: ast.AST) -> Any:
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and value.bit_length() > MAX_INTEGER_DIGITS * 3.33
    ):
        raise CalculationError(
            "ResultTooLarge",
            f"the result has more than {MAX_INTEGER_DIGITS:,} digits",
            _column(node),
        )
    if isinstance(value, float) and math.isinf(value):
        raise CalculationError(
            "Overflow", "the result is too large for a floating-point number", _column(node)
        )
    return value


def _evaluate(node: ast.AST) -> Any:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
    ):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
        raise CalculationError(
            "UnknownName",
            f"unknown name {node.id!r} (constants: {', '.join(_CONSTANTS)})",
            _column(node),
        )
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left = _evaluate(node.left)
        right = _evaluate(node.right)
        if (
            isinstance(node.op, ast.Pow)
            and isinstance(left, int)
            and isinstance(right, int)
            and right > 0
            and abs(left) > 1
            and right * math.log10(abs(left)) > MAX_INTEGER_DIGITS
        ):
            raise CalculationError(
                "ResultTooLarge",
                f"the result has more than {MAX_INTEGER_DIGITS:,} digits",
                _column(node),
            )
        try:
            return _check_size(_BINARY[type(node.op)](left, right), node)
        except ZeroDivisionError:
            raise CalculationError(
                "DivisionByZero", "division by zero", _column(node.right)
            ) from None
        except OverflowError:
            raise CalculationError(
                "Overflow", "the result is too large for a floating-point number", _column(node)
            ) from None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        function = _FUNCTIONS.get(node.func.id)
        if function is None:
            raise CalculationError(
                "UnknownFunction",
                f"unknown function {node.func.id!r} (available: {', '.join(_FUNCTIONS)})",
                _column(node),
            )
        arguments = [_evaluate(argument) for argument in node.args]
        try:
            return _check_size(function(*arguments), node)
        except CalculationError:
            raise
        except OverflowError as error:
            raise CalculationError(
                "Overflow", f"{node.func.id}(): {error}", _column(node)
            ) from None
        except (ValueError, TypeError) as error:
            raise CalculationError(
                "MathDomainError", f"{node.func.id}(): {error}", _column(node)
            ) from None
    raise CalculationError(
        "UnsupportedSyntax", f"{type(node).__name__} is not allowed in an expression", _column(node)
    )


def format_value(value: Any, precision: int) -> str:
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    if float(value).is_integer() and abs(value) < 1e16:
        return str(int(value))
    text = f"{value:.{max(1, precision)}g}"
    return str(Decimal(text).normalize()) if "e" not in text else text


def calculate(expression: str, precision: int = 10) -> dict[str, Any]:
    """Evaluate ``expression``; returns the result state or raises :class:`CalculationError`."""
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise CalculationError(
            "ExpressionTooLong",
            f"the expression has {len(expression)} characters (limit {MAX_EXPRESSION_CHARS})",
        )
    try:
        tree = ast.parse(expression.strip().replace("^", "**"), mode="eval")
    except SyntaxError as error:
        raise CalculationError(
            "SyntaxError", f"cannot parse the expression: {error.msg}", error.offset
        ) from None
    value = _evaluate(tree)
    text = format_value(value, precision)
    digits = sum(character.isdigit() for character in text)
    return {
        "value": text,
        "type": "integer" if isinstance(value, int) else "real",
        "digits": digits,
    }


class CalculatorRuntime(BaseRuntime):
    """The calculator needs no services."""

    api_names = ("calculate",)

    async def calculate(self, args: dict[str, Any], ctx: CallContext) -> ToolResult:
        del ctx
        expression = str(args.get("expression", ""))
        precision = int(args.get("precision", 10))
        try:
            state = calculate(expression, precision)
        except CalculationError as error:
            where = f" at column {error.column}" if error.column else ""
            return to_result(
                success=False,
                content=f"Could not calculate {expression!r}: {error.message}{where}.",
                state={
                    "column": error.column,
                    "stage": "parse" if error.error_type == "SyntaxError" else "evaluate",
                },
                error=ToolError(
                    type=error.error_type, message=error.message, body={"column": error.column}
                ),
            )
        value = state["value"]
        if len(value) > CONTENT_DIGITS:
            state["truncated"] = True
            content = (
                f"{expression} = {value[:CONTENT_DIGITS]}… ({state['digits']:,} digits; "
                f"showing the first {CONTENT_DIGITS})"
            )
        else:
            content = f"{expression} = {value}"
        return to_result(success=True, content=content, state=state)
