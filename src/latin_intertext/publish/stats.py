"""Statistics of a benchmark, computed from the data and compared with the v1.0.0 reference card."""

from __future__ import annotations

from collections import Counter

from latin_intertext.benchmark import Benchmark

# The figures of ../shared/spec/dataset-card.md (v1.0.0) that a faithful build reproduces.
REFERENCE = {
    "corpus": 39675,
    "queries": 482,
    "qrels": 978,
    "avg_relevant_per_query": 2.03,
    "min_relevant_per_query": 1,
    "max_relevant_per_query": 10,
    "gold_parallels": 945,
    "authors": {"Ovid": 11995, "Vergil": 9896, "Statius": 9731, "Lucan": 8053},
    "works": {"Lucan": "Bellum Civile", "Ovid": "Metamorphoses", "Statius": "Thebaid", "Vergil": "Aeneid"},
}


def compute_stats(bench: Benchmark) -> dict:
    per_query = [len(docs) for docs in bench.qrels.values()]
    authors = Counter(d.author for d in bench.corpus)
    works = {d.author: d.work for d in bench.corpus}
    return {
        "corpus": len(bench.corpus),
        "queries": len(bench.queries),
        "qrels": sum(per_query),
        "avg_relevant_per_query": round(sum(per_query) / len(per_query), 2) if per_query else 0.0,
        "min_relevant_per_query": min(per_query, default=0),
        "max_relevant_per_query": max(per_query, default=0),
        "gold_parallels": sum(q.n_parallels for q in bench.queries),
        "authors": dict(sorted(authors.items(), key=lambda kv: (-kv[1], kv[0]))),
        "works": dict(sorted(works.items())),
    }


def relevant_by_author(bench: Benchmark) -> dict[str, tuple[int, int]]:
    """Per corpus author: (qrels pairs naming one of its lines, queries with at least one). Not a card figure: it says
    where the gold lies (Vergil's lines are relevant to most queries), which is why ties must not go by doc id."""
    author_of = {d.id: d.author for d in bench.corpus}
    lines: Counter[str] = Counter()
    queries: Counter[str] = Counter()
    for docs in bench.qrels.values():
        authors = [author_of[doc] for doc, grade in docs.items() if grade > 0 and doc in author_of]
        lines.update(authors)
        queries.update(set(authors))
    return {author: (lines[author], queries[author]) for author in sorted(lines, key=lambda a: (-queries[a], a))}


def compare_with_reference(stats: dict, reference: dict = REFERENCE) -> list[str]:
    """Every figure that differs from the reference card, as a readable line."""
    return [f"{key}: card says {want}, data gives {stats.get(key)}" for key, want in reference.items() if stats.get(key) != want]


def stats_rows(stats: dict) -> list[tuple[str, str]]:
    """The card's headline figures as (item, value) rows, for tables in the terminal and in the card."""
    return [
        ("corpus (lines)", f"{stats['corpus']:,}"),
        ("queries (VF 1 spans)", f"{stats['queries']:,}"),
        ("qrels", f"{stats['qrels']:,}"),
        ("gold parallels", f"{stats['gold_parallels']:,}"),
        (
            "relevant docs / query",
            f"{stats['avg_relevant_per_query']:.2f} (min={stats['min_relevant_per_query']}, max={stats['max_relevant_per_query']})",
        ),
    ]
