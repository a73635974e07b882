"""slug: the one rule that turns free text into a tool identifier or a variant id."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from workbench.core.identifiers import MAX_SLUG_CHARS, slug
from workbench.fixtures.models import FixtureVariant

IDENTIFIER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def test_server_and_folder_names_become_identifiers() -> None:
    assert slug("mcp-servers/everything", fallback="mcp-server") == "mcp-servers-everything"
    assert slug("Misbehaving Server", fallback="mcp-server") == "misbehaving-server"
    assert slug("my_server.v2", fallback="mcp-server") == "my_server.v2"
    assert slug("calculate-6 * 7", fallback="call") == "calculate-6-7"


def test_nothing_usable_gives_the_fallback() -> None:
    assert slug("  ..//  ", fallback="mcp-server") == "mcp-server"
    assert slug("…", fallback="skills") == "skills"
    assert slug("_private", fallback="x") == "private"


@given(st.text(max_size=200))
def test_every_slug_is_a_valid_identifier_and_variant_id(text: str) -> None:
    value = slug(text, fallback="call")
    assert IDENTIFIER.match(value)
    assert len(value) <= MAX_SLUG_CHARS
    FixtureVariant.model_validate(
        {
            "id": value,
            "label": "x",
            "kind": "typical",
            "args": {},
            "result": {"success": True, "content": "x"},
        }
    )
