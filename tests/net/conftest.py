from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.net.local_server import LocalServer, running_server


@pytest.fixture
def server() -> Iterator[LocalServer]:
    with running_server() as local:
        yield local
