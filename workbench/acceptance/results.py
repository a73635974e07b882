"""A shard's drawings as a file, and the shards' files read back as one set of pictures.

``workbench review --check --shard K/N --results FILE`` (or ``workbench snapshot ... --results
FILE``) writes what it drew: per case its id, picture hash, text and SVG. A case that draws
exactly as its committed snapshot keeps only a digest of those files: the merging job has the
same checkout and reads them from there (the digest proves they are the ones the shard saw).
``workbench review --merge FILE...`` reads every file back and builds the board of the whole
matrix from them, as if it had drawn every case itself: one gate, one JUnit file, one report.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.core.file_writes import write_atomically
from workbench.core.sanitize import safe_json
from workbench.review.board import Picture
from workbench.review.cases import CaseAddress
from workbench.review.shards import Shard, ShardSpecError
from workbench.review.store import SnapshotStore

FORMAT = "workbench-shard-results"
VERSION = 1


class ResultsError(Exception):
    """A results file that cannot be merged; the message names the file and what is wrong."""


@dataclass(frozen=True)
class DrawnCase:
    """One case as a shard drew it, with the committed files it was compared with."""

    case_id: str
    fresh: Picture
    committed_text: str | None
    committed_svg: str | None


@dataclass(frozen=True)
class ShardResults:
    """What one results file holds."""

    path: Path
    shard: Shard | None
    select: str | None
    pictures: dict[str, Picture]


def committed_digest(text: str, svg: str) -> str:
    return hashlib.sha256(f"{text}\0{svg}".encode()).hexdigest()


def write_results(
    path: Path, drawn: Iterable[DrawnCase], *, shard: Shard | None, select: str | None
) -> int:
    """Write the results file; how many cases it holds."""
    entries: list[dict[str, Any]] = []
    for case in drawn:
        entry: dict[str, Any] = {"id": case.case_id, "hash": case.fresh.hash}
        if case.committed_text == case.fresh.text and case.committed_svg == case.fresh.svg:
            entry["committed"] = committed_digest(case.fresh.text, case.fresh.svg)
        else:
            entry["text"] = case.fresh.text
            entry["svg"] = case.fresh.svg
        entries.append(entry)
    document = {
        "format": FORMAT,
        "version": VERSION,
        "shard": str(shard) if shard is not None else None,
        "select": select,
        "cases": entries,
    }
    write_atomically(path, safe_json(document) + "\n")
    return len(entries)


def read_results(path: Path, store: SnapshotStore) -> ShardResults:
    """One results file, its unchanged cases' pictures read from ``store``."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultsError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ResultsError(f"{path}: not a results file ({error})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ResultsError(f"{path}: not a results file (format is not {FORMAT!r})")
    if document.get("version") != VERSION:
        raise ResultsError(
            f"{path}: results version {document.get('version')!r}; this Workbench reads {VERSION}"
        )
    try:
        shard = Shard.parse(document["shard"]) if document.get("shard") is not None else None
    except (ShardSpecError, TypeError) as error:
        raise ResultsError(f"{path}: shard: {error}") from None
    select = document.get("select")
    cases = document.get("cases")
    if not isinstance(cases, list) or not (select is None or isinstance(select, str)):
        raise ResultsError(f"{path}: 'cases' must be a list and 'select' text or null")
    pictures: dict[str, Picture] = {}
    for index, entry in enumerate(cases):
        where = f"{path}: cases[{index}]"
        if not isinstance(entry, dict):
            raise ResultsError(f"{where}: not an object")
        case_id, picture_hash = entry.get("id"), entry.get("hash")
        if not isinstance(case_id, str) or not isinstance(picture_hash, str):
            raise ResultsError(f"{where}: 'id' and 'hash' must be text")
        address = CaseAddress.parse(case_id)
        if address is None:
            raise ResultsError(f"{where}: {case_id!r} is not a case id")
        if case_id in pictures:
            raise ResultsError(f"{where}: {case_id} is in this file twice")
        pictures[case_id] = _picture(where, entry, address, picture_hash, store)
    return ShardResults(path, shard, select, pictures)


def _picture(
    where: str, entry: dict[str, Any], address: CaseAddress, picture_hash: str, store: SnapshotStore
) -> Picture:
    if "committed" in entry:
        committed = store.read(address)
        if (
            committed.text is None
            or committed.svg is None
            or committed_digest(committed.text, committed.svg) != entry["committed"]
        ):
            raise ResultsError(
                f"{where}: {address.id} was drawn as its committed snapshot, but "
                f"{store.path(address, '.txt').parent} holds other files (results of another "
                "commit?)"
            )
        return Picture(committed.text, committed.svg, picture_hash)
    text, svg = entry.get("text"), entry.get("svg")
    if not isinstance(text, str) or not isinstance(svg, str):
        raise ResultsError(f"{where}: 'text' and 'svg' must be text")
    return Picture(text, svg, picture_hash)


def merge_results(
    paths: Sequence[Path], store: SnapshotStore
) -> tuple[str | None, dict[str, Picture]]:
    """Every file's pictures as one mapping, and the ``-k`` text the shards ran with.

    The files must come from one run: the same ``-k``, the same number of shards, no shard
    twice and no case in two files. Whether they cover the whole matrix is the board's to
    check (it knows the matrix).
    """
    results = [read_results(path, store) for path in paths]
    selects = {item.select for item in results}
    if len(selects) > 1:
        raise ResultsError(
            "the results were drawn with different -k texts: "
            + ", ".join(f"{item.path}: {item.select!r}" for item in results)
        )
    counts = {item.shard.count if item.shard else 1 for item in results}
    if len(counts) > 1:
        raise ResultsError(
            "the results come from splits into different numbers of shards: "
            + ", ".join(f"{item.path}: {item.shard or 'unsharded'}" for item in results)
        )
    seen: dict[str, int] = {}
    shards: dict[str, int] = {}
    pictures: dict[str, Picture] = {}
    for number, item in enumerate(results):
        if item.shard is not None:
            earlier = shards.setdefault(str(item.shard), number)
            if earlier != number:
                raise ResultsError(
                    f"{item.path} and {results[earlier].path} are both shard {item.shard}"
                )
        for case_id, picture in item.pictures.items():
            other = seen.setdefault(case_id, number)
            if other != number:
                raise ResultsError(f"{case_id} is in both {results[other].path} and {item.path}")
            pictures[case_id] = picture
    return selects.pop() if selects else None, pictures
