"""Retrieval metrics computed by pytrec_eval with trec_eval semantics, named and averaged as MTEB does.

MTEB (``mteb._evaluators.retrieval_metrics.calculate_retrieval_scores``) asks pytrec_eval for
``ndcg_cut.k``, ``map_cut.k``, ``recall.k`` and ``P.k`` and averages each over the queries pytrec_eval
scored; its ``mrr_at_k`` is its own code's reciprocal rank within the top ``k`` after sorting by (score, doc id)
descending, in double precision (trec_eval holds scores as 32-bit floats: where a run's scores differ only beyond
that, trec_eval's order, and so MTEB's nDCG, differ from it, and ``runs.read_run_file`` warns of such a run).
We do the same, with one deliberate difference: a query in the
qrels that the run leaves out scores 0 instead of vanishing from the mean (a retriever must not gain by
abstaining). When the run covers every query, as an MTEB search always does, the two agree exactly.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from functools import cached_property
from typing import Mapping

import numpy as np
import pytrec_eval

from latin_intertext.benchmark import Qrels, Run


@dataclass(frozen=True)
class Metric:
    """One reported number: its MTEB key, the trec_eval measure behind it and its cutoff."""

    name: str
    measure: str  # pytrec_eval measure family: ndcg_cut, map_cut, map, recall, P, recip_rank
    k: int | None = None
    cut_run: bool = False  # computed here on the run's top k, as MTEB's own code does (trec_eval has no recip_rank cutoff)
    label: str = ""

    @property
    def request(self) -> str:
        """The measure string handed to pytrec_eval."""
        return f"{self.measure}.{self.k}" if self.k and not self.cut_run else self.measure

    @property
    def trec_key(self) -> str:
        """The key pytrec_eval uses for this value in its per-query output."""
        return f"{self.measure}_{self.k}" if self.k and not self.cut_run else self.measure


def _table() -> dict[str, Metric]:
    rows: list[Metric] = [Metric(f"ndcg_at_{k}", "ndcg_cut", k, label=f"nDCG@{k}") for k in (1, 3, 5, 10, 100)]
    rows += [Metric(f"map_at_{k}", "map_cut", k, label=f"MAP@{k}") for k in (10, 100)]
    rows += [Metric("map", "map", label="MAP")]
    rows += [Metric(f"recall_at_{k}", "recall", k, label=f"Recall@{k}") for k in (1, 5, 10, 100, 1000)]
    rows += [Metric(f"precision_at_{k}", "P", k, label=f"P@{k}") for k in (1, 10)]
    rows += [Metric("mrr_at_10", "recip_rank", 10, cut_run=True, label="MRR@10")]
    return {m.name: m for m in rows}


METRICS: dict[str, Metric] = _table()
MAIN_SCORE = "ndcg_at_10"
# The numbers a summary shows, in order (the full table is in METRICS).
HEADLINE = ("ndcg_at_10", "map", "map_at_10", "mrr_at_10", "recall_at_10", "recall_at_100", "recall_at_1000")
# How deep MTEB's runs go: its uncut MAP is a MAP over 1,000 documents a query.
MTEB_DEPTH = 1000


def deeper_than(depth: int, metrics: Mapping[str, Metric] = METRICS) -> list[str]:
    """The metrics whose cutoff lies deeper than ``depth`` documents a query: on a run that shallow they are the
    figures at its depth (Recall@1000 of a 10-deep run is its Recall@10), not what their names say."""
    return [m.name for m in metrics.values() if (m.k or MTEB_DEPTH) > depth]


def reciprocal_rank(top: list[tuple[str, float]], relevance: Mapping[str, int]) -> float:
    """1 / the rank of the first relevant document in ``top`` (0 if none), as ``mteb``'s ``mrr`` computes it."""
    return next((1.0 / rank for rank, (doc, _) in enumerate(top, start=1) if relevance.get(doc, 0) > 0), 0.0)


def ranked(docs: Mapping[str, float], depth: int | None = None) -> list[tuple[str, float]]:
    """Documents in trec_eval's order: score descending, ties by doc id descending."""
    key = lambda item: (item[1], item[0])  # noqa: E731
    if depth is None:
        return sorted(docs.items(), key=key, reverse=True)
    return heapq.nlargest(depth, docs.items(), key=key)


@dataclass(frozen=True)
class Evaluation:
    """Per-query values of every metric, over a fixed, sorted list of query ids."""

    query_ids: tuple[str, ...]
    per_query: dict[str, np.ndarray]  # metric name -> values aligned with query_ids
    missing: tuple[str, ...] = ()  # queries with qrels the run did not answer (scored 0)
    depth: int | None = None  # the most documents the run lists for a query

    @property
    def n_missing(self) -> int:
        return len(self.missing)

    @property
    def deeper_than_run(self) -> list[str]:
        """The metrics this run is too shallow for (:func:`deeper_than`); none where its depth is not known."""
        return deeper_than(self.depth) if self.depth is not None else []

    @cached_property
    def means(self) -> dict[str, float]:
        return {name: float(v.mean()) if len(v) else 0.0 for name, v in self.per_query.items()}

    @property
    def main_score(self) -> float:
        return self.means[MAIN_SCORE]

    def matrix(self, names: tuple[str, ...] | list[str]) -> np.ndarray:
        """Per-query values as a (queries x metrics) array, for resampling all metrics at once."""
        return np.column_stack([self.per_query[n] for n in names]) if names else np.empty((len(self.query_ids), 0))

    def query_rows(self) -> dict[str, dict[str, float]]:
        return {q: {n: float(v[i]) for n, v in self.per_query.items()} for i, q in enumerate(self.query_ids)}


def evaluate_run(run: Run, qrels: Qrels, metrics: Mapping[str, Metric] = METRICS) -> Evaluation:
    """Score ``run`` against ``qrels`` over every query that has a relevant document."""
    qrels = {q: {d: int(r) for d, r in docs.items()} for q, docs in qrels.items() if any(r > 0 for r in docs.values())}
    query_ids = tuple(sorted(qrels))
    full = {q: {d: float(s) for d, s in run.get(q, {}).items()} for q in query_ids}
    missing = tuple(q for q in query_ids if q not in run)
    per_query: dict[str, np.ndarray] = {}
    plain = [m for m in metrics.values() if not m.cut_run]
    if plain:
        scores = pytrec_eval.RelevanceEvaluator(qrels, {m.request for m in plain}).evaluate(full)
        for m in plain:
            per_query[m.name] = np.array([scores[q][m.trec_key] for q in query_ids])
    for m in metrics.values():
        if m.cut_run:
            per_query[m.name] = np.array([reciprocal_rank(ranked(full[q], m.k), qrels[q]) for q in query_ids])
    depth = max((len(docs) for docs in run.values()), default=0)
    return Evaluation(query_ids, {name: per_query[name] for name in metrics}, missing, depth)
