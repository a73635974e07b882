"""The calculator evaluates safely: no eval, bounded sizes, located errors."""

from __future__ import annotations

import pytest

from workbench.tools.calculator import CalculatorRuntime


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("2 + 2", "4"),
        ("(2 + 3) * sqrt(16)", "20"),
        ("0.1 + 0.2", "0.3"),
        ("2 ** 10", "1024"),
        ("7 // 2", "3"),
        ("-3 % 5", "2"),
        ("log(e)", "1"),
        ("factorial(5)", "120"),
        ("2 ^ 3", "8"),
    ],
)
async def test_values(expression: str, value: str) -> None:
    result = await CalculatorRuntime().invoke("calculate", {"expression": expression})
    assert result.success and result.state["value"] == value
    assert result.content == f"{expression} = {value}"


@pytest.mark.parametrize(
    ("expression", "error_type", "column"),
    [
        ("1/0", "DivisionByZero", 3),
        ("2 +* 3", "SyntaxError", 4),
        ("__import__('os')", "UnknownFunction", 1),
        ("x + 1", "UnknownName", 1),
        ("9 ** 9 ** 9", "ResultTooLarge", 1),
        ("factorial(100000)", "Overflow", 1),
        ("sqrt(-1)", "MathDomainError", 1),
        ("[1, 2]", "UnsupportedSyntax", 1),
        ("(1).real", "UnsupportedSyntax", 1),
    ],
)
async def test_errors_are_typed_and_located(expression: str, error_type: str, column: int) -> None:
    result = await CalculatorRuntime().invoke("calculate", {"expression": expression})
    assert not result.success
    assert result.error is not None and result.error.type == error_type
    assert result.state["column"] == column
    assert expression in result.content


async def test_huge_results_are_shortened_for_the_model_but_whole_in_state() -> None:
    result = await CalculatorRuntime().invoke("calculate", {"expression": "factorial(500)"})
    assert result.success and result.state["truncated"] and result.state["digits"] == 1135
    assert len(result.state["value"]) == 1135
    assert "showing the first 200" in result.content and len(result.content) < 400


async def test_unknown_api() -> None:
    result = await CalculatorRuntime().invoke("integrate", {})
    assert result.error is not None and result.error.type == "ApiNotFound"
