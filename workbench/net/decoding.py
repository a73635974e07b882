"""Decompress HTTP bodies in bounded pieces, so a cap counts decoded bytes before they pile up.

``Content-Encoding: gzip, gzip`` turns 1,827 bytes on the wire into 1 GiB. httpx decodes each
received chunk in one call with no output limit, so a cap that counts what ``aiter_bytes()``
yields sees the gigabyte only after it is in memory. :class:`BodyDecoder` inflates with
``zlib``'s ``max_length`` instead: no step yields more than :data:`PIECE_BYTES`, and a reader
that stops at its cap stops the inflating too.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator, Sequence

PIECE_BYTES = 256 * 1024
"""The most one decoding step produces: the memory a cap can overshoot by, per layer."""
MAX_LAYERS = 5
SUPPORTED = ("gzip", "x-gzip", "deflate")
ACCEPT_ENCODING = "gzip, deflate"
"""What a capped client asks for: only what :class:`BodyDecoder` can inflate in pieces."""


class UndecodableBody(ValueError):
    """The body's encoding is unknown, chained too deep, or the compressed data is corrupt."""


class _Inflater:
    """One gzip or deflate layer."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        # "deflate" is zlib-wrapped on most servers and raw DEFLATE on some: until the zlib
        # header has been checked, keep what was fed so a raw inflater can start over.
        self._head: bytes | None = b"" if encoding == "deflate" else None
        wbits = zlib.MAX_WBITS | 16 if encoding in ("gzip", "x-gzip") else zlib.MAX_WBITS
        self._inflate = zlib.decompressobj(wbits)

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self._head is not None:
            self._head += data
        while data and not self._inflate.eof:
            try:
                piece = self._inflate.decompress(data, PIECE_BYTES)
            except zlib.error as error:
                if self._head is not None:
                    data, self._head = self._head, None
                    self._inflate = zlib.decompressobj(-zlib.MAX_WBITS)
                    continue
                raise UndecodableBody(f"corrupt {self.encoding} data: {error}") from None
            if self._head is not None and len(self._head) >= 2:
                self._head = None  # The two header bytes passed the check.
            data = self._inflate.unconsumed_tail
            if piece:
                yield piece

    def flush(self) -> Iterator[bytes]:
        try:
            rest = self._inflate.flush()
        except zlib.error as error:
            raise UndecodableBody(f"corrupt {self.encoding} data: {error}") from None
        # What flush() returns is what zlib already held: at most its window, not a bomb.
        for start in range(0, len(rest), PIECE_BYTES):
            yield rest[start : start + PIECE_BYTES]


class BodyDecoder:
    """Undo a ``Content-Encoding`` chain lazily, one bounded piece at a time."""

    def __init__(self, encodings: Sequence[str]) -> None:
        names = [name.strip().lower() for name in encodings]
        names = [name for name in names if name and name != "identity"]
        unknown = [name for name in names if name not in SUPPORTED]
        if unknown:
            raise UndecodableBody(
                f"unsupported content-encoding {', '.join(unknown)!s} (asked for {ACCEPT_ENCODING})"
            )
        if len(names) > MAX_LAYERS:
            raise UndecodableBody(f"content-encoding chains {len(names)} layers (at most 5)")
        # Encodings are listed in the order they were applied: undo the last one first.
        self._layers = [_Inflater(name) for name in reversed(names)]

    @classmethod
    def from_header_values(cls, values: Iterable[str]) -> BodyDecoder:
        """From every ``Content-Encoding`` header value (each may list several, comma separated)."""
        return cls([part for value in values for part in value.split(",")])

    @property
    def is_identity(self) -> bool:
        return not self._layers

    def _through(self, pieces: Iterable[bytes], depth: int) -> Iterator[bytes]:
        if depth == len(self._layers):
            yield from pieces
            return
        layer = self._layers[depth]
        for piece in pieces:
            yield from self._through(layer.feed(piece), depth + 1)

    def feed(self, data: bytes) -> Iterator[bytes]:
        """The decoded pieces of ``data`` (each at most :data:`PIECE_BYTES` per layer)."""
        if not self._layers:
            if data:
                yield data
            return
        yield from self._through([data], 0)

    def flush(self) -> Iterator[bytes]:
        """What the layers still hold once the body has ended."""
        for depth, layer in enumerate(self._layers):
            yield from self._through(layer.flush(), depth + 1)
