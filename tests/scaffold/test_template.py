"""The template package is a real tool: its fixtures are what its runtime returns, and the
renderer turns it into any tool's package, one block per API."""

from __future__ import annotations

import asyncio

import pytest

from workbench.core.runtime import RuntimeServices
from workbench.fixtures.catalog import build_catalog
from workbench.scaffold.render import ApiNames, ToolNames, render_template, snake_case
from workbench.scaffold.template import PACKAGE

TOOL = ToolNames(identifier="my-tool", module="my_tool", class_name="MyTool", title="My tool")


def test_the_template_fixtures_are_what_its_runtime_returns() -> None:
    assert PACKAGE.fixtures is not None
    catalog = build_catalog([PACKAGE.fixtures], [PACKAGE.manifest])
    assert catalog.problems == []
    refs = catalog.all_variants(include_generated=False)
    assert {ref.variant.kind for ref in refs} == {"typical", "empty", "error", "truncated"}
    assert PACKAGE.create_runtime is not None
    runtime = PACKAGE.create_runtime(RuntimeServices())
    for ref in refs:
        result = asyncio.run(runtime.invoke(ref.api, ref.variant.args))
        recorded = ref.variant.result
        assert (result.success, result.content, result.state) == (
            recorded.success,
            recorded.content,
            recorded.state,
        ), ref.variant.id
        if result.error is not None:
            assert recorded.error is not None and recorded.error.type == result.error.type


def test_blocks_repeat_per_api_with_the_blank_lines_their_place_needs() -> None:
    template = (
        "class ExampleToolRuntime:\n"
        "    # >>> per api\n"
        "    def findItems(self) -> str:\n"
        "        return 'find_items'\n"
        "\n"
        "    # <<< per api\n"
        "\n"
        "\n"
        "# >>> per api\n"
        "def find_items_render() -> None: ...\n"
        "\n"
        "\n"
        "# <<< per api\n"
        "TABLE = {\n"
        "    # >>> per api\n"
        "    'findItems': find_items_render,\n"
        "    # <<< per api\n"
        "}\n"
    )
    apis = [ApiNames("searchPages", "search_pages"), ApiNames("get", "get")]
    assert render_template(template, TOOL, apis) == (
        "class MyToolRuntime:\n"
        "    def searchPages(self) -> str:\n"
        "        return 'search_pages'\n"
        "\n"
        "    def get(self) -> str:\n"
        "        return 'get'\n"
        "\n"
        "\n"
        "def search_pages_render() -> None: ...\n"
        "\n"
        "\n"
        "def get_render() -> None: ...\n"
        "\n"
        "\n"
        "TABLE = {\n"
        "    'searchPages': search_pages_render,\n"
        "    'get': get_render,\n"
        "}\n"
    )


def test_an_unclosed_block_is_an_error() -> None:
    with pytest.raises(ValueError, match="line 1: '# >>> per api' without '# <<< per api'"):
        render_template("# >>> per api\nx = 1\n", TOOL, [ApiNames("a", "a")])


@pytest.mark.parametrize(
    ("name", "snake"),
    [("searchPages", "search_pages"), ("HTTPGet", "http_get"), ("get_page", "get_page")],
)
def test_api_names_in_function_names(name: str, snake: str) -> None:
    assert snake_case(name) == snake
