"""Where a retriever succeeds: scores per target author and per length of the query span.

Per author, a query counts under every author that holds one of its relevant lines and is scored on that
author's relevant lines alone. Its relevant lines of other authors are taken out of its run first (unjudged,
as in a condensed list, for those lines only), so a correct hit on another author costs nothing; any other
line ranked above still counts against the author.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from latin_intertext.benchmark import Query, Qrels, Run
from latin_intertext.evaluate.metrics import METRICS, Evaluation, Metric, evaluate_run

SPAN_BUCKETS = ("1", "2", "3+")  # VF lines in the query span


def doc_author(doc_id: str) -> str:
    """The author key of a corpus id (``vergil-1-1`` -> ``vergil``)."""
    return doc_id.split("-", 1)[0]


def span_bucket(length: int) -> str:
    return SPAN_BUCKETS[min(length, len(SPAN_BUCKETS)) - 1]


def qrels_for_author(qrels: Qrels, author: str) -> Qrels:
    kept = {q: {d: r for d, r in docs.items() if doc_author(d) == author} for q, docs in qrels.items()}
    return {q: docs for q, docs in kept.items() if docs}


def authors(qrels: Qrels) -> list[str]:
    return sorted({doc_author(d) for docs in qrels.values() for d in docs})


def run_for_author(run: Run, qrels: Qrels, author: str) -> Run:
    """``run`` without each query's relevant lines of other authors: right answers, which ``author``'s qrels
    alone would count as wrong ones."""
    others = {q: drop for q, docs in qrels.items() if (drop := {d for d, r in docs.items() if r > 0 and doc_author(d) != author})}
    return {q: {d: s for d, s in docs.items() if d not in others[q]} if q in others else docs for q, docs in run.items()}  # most queries: as they were


def per_author(run: Run, qrels: Qrels, metrics: Mapping[str, Metric] = METRICS) -> dict[str, Evaluation]:
    return {a: evaluate_run(run_for_author(run, qrels, a), qrels_for_author(qrels, a), metrics) for a in authors(qrels)}


def span_length_buckets(queries: Iterable[Query]) -> dict[str, set[str]]:
    """Query ids by the length of their VF span (not :func:`evaluate.cv.span_groups`, which chains neighbouring spans)."""
    groups: dict[str, set[str]] = {b: set() for b in SPAN_BUCKETS}
    for q in queries:
        groups[span_bucket(q.span_length)].add(q.id)
    return groups


def per_span_length(evaluation: Evaluation, queries: Iterable[Query]) -> dict[str, Evaluation]:
    """The overall per-query values split by span-length bucket (no re-scoring needed)."""
    index = {q: i for i, q in enumerate(evaluation.query_ids)}
    out = {}
    for bucket, ids in span_length_buckets(queries).items():
        rows = sorted(index[q] for q in ids if q in index)
        if rows:
            out[bucket] = Evaluation(
                tuple(evaluation.query_ids[i] for i in rows),
                {name: values[rows] for name, values in evaluation.per_query.items()},
            )
    return out
