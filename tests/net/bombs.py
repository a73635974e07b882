"""Compressed bombs: a few bytes on the wire that decode to far more than any cap."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator
from functools import lru_cache

MIB = 1024 * 1024


def _gzip(chunks: Iterable[bytes]) -> Iterator[bytes]:
    compressor = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    for chunk in chunks:
        out = compressor.compress(chunk)
        if out:
            yield out
    yield compressor.flush()


@lru_cache(maxsize=4)
def gzip_gzip_bomb(decoded_mib: int) -> bytes:
    """``Content-Encoding: gzip, gzip`` zeros: 1 GiB decoded is 1,827 bytes on the wire."""
    zeros = bytes(MIB)
    inner = b"".join(_gzip(zeros for _ in range(decoded_mib)))
    return b"".join(_gzip([inner]))


def gzip_bytes(data: bytes) -> bytes:
    return b"".join(_gzip([data]))
