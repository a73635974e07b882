"""Bounded decompression: decoded bytes are counted before they pile up, bombs stop at the cap."""

from __future__ import annotations

import tracemalloc
import zlib

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.net.bombs import MIB, gzip_bytes, gzip_gzip_bomb
from tests.net.local_server import LocalServer, Reply
from workbench.net.decoding import PIECE_BYTES, BodyDecoder, UndecodableBody
from workbench.net.ssrf import read_capped, safe_client


def _encode(data: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip_bytes(data)
    if encoding == "deflate":
        return zlib.compress(data)
    if encoding == "raw-deflate":
        compressor = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
        return compressor.compress(data) + compressor.flush()
    return data


def _decode_all(decoder: BodyDecoder, wire: bytes, chunk: int) -> bytes:
    pieces = []
    for start in range(0, len(wire), chunk):
        pieces.extend(decoder.feed(wire[start : start + chunk]))
    pieces.extend(decoder.flush())
    assert all(len(piece) <= PIECE_BYTES for piece in pieces)
    return b"".join(pieces)


@settings(max_examples=60, deadline=None)
@given(
    data=st.binary(max_size=20_000),
    chain=st.lists(st.sampled_from(["gzip", "deflate", "raw-deflate", "identity"]), max_size=4),
    chunk=st.integers(min_value=1, max_value=5_000),
)
def test_any_chain_in_any_chunking_decodes_to_the_original(
    data: bytes, chain: list[str], chunk: int
) -> None:
    wire = data
    for encoding in chain:
        wire = _encode(wire, encoding)
    header = ", ".join("deflate" if name == "raw-deflate" else name for name in chain)
    decoder = BodyDecoder.from_header_values([header] if header else [])
    assert _decode_all(decoder, wire, chunk) == data


def test_a_bomb_is_inflated_lazily_one_bounded_piece_at_a_time() -> None:
    decoder = BodyDecoder(["gzip", "gzip"])
    wire = gzip_gzip_bomb(64)
    tracemalloc.start()
    try:
        seen = 0
        for piece in decoder.feed(wire):
            seen += len(piece)
            if seen > 2 * MIB:
                break
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert seen > 2 * MIB
    # The reader stopped after 2 MiB of 64: inflating stopped with it.
    assert peak < 4 * MIB


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (["br"], "unsupported content-encoding br"),
        (["gzip, gzip, gzip, gzip, gzip, gzip"], "chains 6 layers"),
    ],
)
def test_what_cannot_be_undone_is_named(header: list[str], message: str) -> None:
    with pytest.raises(UndecodableBody, match=message):
        BodyDecoder.from_header_values(header)


def test_corrupt_gzip_is_an_error_not_garbage() -> None:
    decoder = BodyDecoder(["gzip"])
    with pytest.raises(UndecodableBody, match="corrupt gzip data"):
        list(decoder.feed(b"\x1f\x8b\x08\x00garbage-garbage-garbage"))


async def test_read_capped_stops_a_gzip_gzip_bomb_at_the_cap(server: LocalServer) -> None:
    wire = gzip_gzip_bomb(256)
    server.route(
        "/bomb",
        Reply(body=wire, content_type="text/html", headers={"Content-Encoding": "gzip, gzip"}),
    )
    async with safe_client(allow=["127.0.0.1"]) as client:
        tracemalloc.start()
        try:
            async with client.stream("GET", server.url("/bomb")) as response:
                body, truncated = await read_capped(response, MIB)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert truncated and body == bytes(MIB)
    assert peak < 8 * MIB, f"peak {peak / MIB:.1f} MiB while reading a 256 MiB bomb"


async def test_read_capped_names_an_encoding_it_cannot_undo(server: LocalServer) -> None:
    server.route("/br", Reply(body=b"\x8b\x02\x80", headers={"Content-Encoding": "br"}))
    async with (
        safe_client(allow=["127.0.0.1"]) as client,
        client.stream("GET", server.url("/br")) as response,
    ):
        with pytest.raises(httpx.DecodingError, match="unsupported content-encoding br"):
            await read_capped(response, MIB)


async def test_the_guarded_client_asks_only_for_what_it_can_inflate(server: LocalServer) -> None:
    server.route("/plain", Reply(body="hi"))
    async with (
        safe_client(allow=["127.0.0.1"]) as client,
        client.stream("GET", server.url("/plain")) as response,
    ):
        await read_capped(response)
    assert server.requests[-1].headers["accept-encoding"] == "gzip, deflate"
