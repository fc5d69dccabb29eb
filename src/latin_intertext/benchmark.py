"""The benchmark's three tables as typed records, and loading them from a published folder.

Every stage after ``build`` (retrieve, evaluate, serve) receives a :class:`Benchmark`.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from latin_intertext.errors import ValidationError

Run = dict[str, dict[str, float]]  # query id -> doc id -> score
Qrels = dict[str, dict[str, int]]  # query id -> doc id -> relevance


@dataclass(frozen=True)
class CorpusLine:
    id: str
    text: str
    author: str
    work: str
    book: int
    line: int
    tess_index: str


@dataclass(frozen=True)
class Query:
    id: str
    text: str
    vf_book: int
    line_start: int
    line_end: int
    query_phrases: str  # JSON list; for evaluation and display only, never for retrieval
    n_parallels: int

    @property
    def span_length(self) -> int:
        return self.line_end - self.line_start + 1


@dataclass
class Benchmark:
    corpus: list[CorpusLine]
    queries: list[Query]
    qrels: Qrels
    path: Path | None = None
    card: dict = field(default_factory=dict)

    @cached_property
    def doc_index(self) -> dict[str, int]:
        return {d.id: i for i, d in enumerate(self.corpus)}

    @property
    def query_texts(self) -> dict[str, str]:
        """What a retriever may see of the queries: their ids and texts, nothing else."""
        return {q.id: q.text for q in self.queries}

    def subset(self, query_ids) -> "Benchmark":
        keep = set(query_ids)
        return Benchmark(
            self.corpus,
            [q for q in self.queries if q.id in keep],
            {q: r for q, r in self.qrels.items() if q in keep},
            self.path,
            self.card,
        )


CONFIGS = ("corpus", "queries", "qrels")
COLUMNS = {
    "corpus": [f.name for f in fields(CorpusLine)],
    "queries": [f.name for f in fields(Query)],
    "qrels": ["query-id", "corpus-id", "score"],
}
CHECKSUMS = "SHA256SUMS"
_CHECKSUM_LINE = re.compile(r"([0-9a-f]{64})  (\S.*)")


def config_path(root: Path, config: str) -> Path:
    return root / config / "test.parquet"


def _rebuild(root: Path) -> str:
    return f"Rebuild the folder with `latin-intertext build --out {root}` (`latin-intertext validate {root}` lists every problem)."


def parse_checksums(root: Path) -> tuple[dict[str, str], list[str]]:
    """The sha256 recorded in SHA256SUMS by relative path, and a ``SHA256SUMS:LINE: malformed line`` problem for each bad line."""
    entries, malformed = {}, []
    for n, line in enumerate((root / CHECKSUMS).read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
        match = _CHECKSUM_LINE.fullmatch(line)
        if match:
            entries[match[2]] = match[1]
        else:
            malformed.append(f"{CHECKSUMS}:{n}: malformed line {line[:80]!r} (expected '<64 hex digits>  <path>')")
    return entries, malformed


def verify_checksums(root: Path, names: list[str]) -> None:
    """Raise :class:`ValidationError` unless each of ``names`` (relative paths) matches its line in SHA256SUMS."""
    if not (root / CHECKSUMS).is_file():
        raise ValidationError(f"{root / CHECKSUMS}: missing, so the data cannot be checked. {_rebuild(root)}")
    recorded, malformed = parse_checksums(root)
    problems = [f"{root / name}: not listed in {CHECKSUMS}" for name in names if name not in recorded]
    problems += [
        f"{root / name}: sha256 differs from the one recorded in {CHECKSUMS} (the file was altered or damaged)"
        for name in names
        if name in recorded and hashlib.sha256((root / name).read_bytes()).hexdigest() != recorded[name]
    ]
    if problems or malformed:
        raise ValidationError("\n".join(problems + [f"{root / m}" for m in malformed] + [_rebuild(root)]))


def _read_rows(root: Path, config: str) -> list[dict]:
    """The rows of one config, or a :class:`ValidationError` naming the file if it is not the parquet the build writes."""
    path = config_path(root, config)
    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError) as exc:
        raise ValidationError(f"{path}: not a readable parquet file ({exc}). {_rebuild(root)}") from exc
    if table.column_names != COLUMNS[config]:
        raise ValidationError(f"{path}: columns {table.column_names} differ from {COLUMNS[config]}. {_rebuild(root)}")
    return table.to_pylist()


def load_benchmark(root: Path | str, *, verify: bool = True) -> Benchmark:
    """Read a folder written by ``latin-intertext build``; with ``verify``, first check the files read against SHA256SUMS."""
    root = Path(root)
    missing = [str(config_path(root, c)) for c in CONFIGS if not config_path(root, c).is_file()]
    if missing:
        raise ValidationError(
            f"{root} is not a built dataset folder: missing {', '.join(missing)}. Run `latin-intertext build --out {root}` first."
        )
    stats_path = root / "stats.json"
    if verify:
        read = [config_path(Path(), c).as_posix() for c in CONFIGS]
        verify_checksums(root, read + ["stats.json"] if stats_path.is_file() else read)
    rows = {config: _read_rows(root, config) for config in CONFIGS}
    corpus = [CorpusLine(**row) for row in rows["corpus"]]
    queries = [Query(**row) for row in rows["queries"]]
    qrels: Qrels = {}
    for n, row in enumerate(rows["qrels"], start=1):
        if row["score"] is None:
            raise ValidationError(f"{config_path(root, 'qrels')}: row {n} has no score. {_rebuild(root)}")
        qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
    try:
        card = json.loads(stats_path.read_text(encoding="utf-8")) if stats_path.is_file() else {}
    except ValueError as exc:
        raise ValidationError(f"{stats_path}: not valid JSON ({exc}). {_rebuild(root)}") from exc
    return Benchmark(corpus, queries, qrels, root, card)
