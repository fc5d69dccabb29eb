"""The benchmark's three tables as typed records, and loading them from a published folder.

Every stage after ``build`` (retrieve, evaluate, serve) receives a :class:`Benchmark`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pyarrow.parquet as pq

from latin_intertext.errors import LatinIntertextError

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


def config_path(root: Path, config: str) -> Path:
    return root / config / "test.parquet"


def load_benchmark(root: Path | str) -> Benchmark:
    """Read a folder written by ``latin-intertext build``."""
    root = Path(root)
    missing = [str(config_path(root, c)) for c in CONFIGS if not config_path(root, c).is_file()]
    if missing:
        raise LatinIntertextError(
            f"{root} is not a built dataset folder: missing {', '.join(missing)}. Run `latin-intertext build --out {root}` first."
        )
    corpus = [CorpusLine(**row) for row in pq.read_table(config_path(root, "corpus")).to_pylist()]
    queries = [Query(**row) for row in pq.read_table(config_path(root, "queries")).to_pylist()]
    qrels: Qrels = {}
    for row in pq.read_table(config_path(root, "qrels")).to_pylist():
        qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
    stats_path = root / "stats.json"
    card = json.loads(stats_path.read_text()) if stats_path.is_file() else {}
    return Benchmark(corpus, queries, qrels, root, card)
