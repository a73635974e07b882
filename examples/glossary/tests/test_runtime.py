"""The fixtures are honest: each variant's result is what the runtime returns for its args."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from workbench_glossary import PACKAGE
from workbench_glossary.runtime import closest, lookup

from workbench.api import RuntimeServices

FIXTURES = Path(__file__).parents[1] / "workbench_glossary" / "fixtures"


def _variants() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in sorted(FIXTURES.glob("*.yaml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        found += [(document["api"], variant) for variant in document["variants"]]
    return found


@pytest.mark.parametrize(
    ("api", "variant"), _variants(), ids=lambda value: value if isinstance(value, str) else ""
)
async def test_fixture_result_is_what_the_runtime_returns(
    api: str, variant: dict[str, Any]
) -> None:
    assert PACKAGE.create_runtime is not None
    runtime = PACKAGE.create_runtime(RuntimeServices())
    result = await runtime.invoke(api, variant["args"])
    expected = {key: value for key, value in variant["result"].items() if key != "after_ms"}
    assert result.model_dump(exclude_none=True) == expected


def test_every_api_has_a_variant_of_each_kind() -> None:
    kinds: dict[str, set[str]] = {}
    for api, variant in _variants():
        kinds.setdefault(api, set()).add(variant["kind"])
    for api in PACKAGE.manifest.api_names():
        assert {"typical", "empty", "error", "truncated"} <= kinds[api], api


def test_aliases_and_spacing_find_the_entry() -> None:
    entry = lookup("  rag ")
    assert entry is not None
    assert entry.term == "retrieval-augmented generation"
    assert lookup("Context   Window") is lookup("context window")


def test_an_unknown_term_suggests_each_entry_once() -> None:
    assert closest("tokn") == ["token", "tokenizer"]
    assert closest("zzzz") == []
