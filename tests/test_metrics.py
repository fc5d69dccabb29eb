"""Metric values on a hand-computed toy run, the registry of metrics, and the breakdowns on real data."""

from __future__ import annotations

from math import log2

import numpy as np
import pytest
import pytrec_eval

from latin_intertext.evaluate.breakdown import doc_author, per_author, per_span_length, qrels_for_author, run_for_author, span_bucket
from latin_intertext.evaluate.metrics import METRICS, evaluate_run, ranked
from latin_intertext.evaluate.runs import read_trec_run

from conftest import FIXTURES

RUNS = FIXTURES / "runs"


def toy_qrels() -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    for line in (RUNS / "toy.qrels").read_text().splitlines():
        q, _, d, r = line.split()
        qrels.setdefault(q, {})[d] = int(r)
    return qrels


@pytest.fixture(scope="module")
def toy():
    return evaluate_run(read_trec_run(RUNS / "toy.run"), toy_qrels())


# Hand computation (ranks in trec_eval order: score descending, ties by doc id descending):
# q1: d9 d1 d5 d2 with d1, d2 relevant -> hits at ranks 2 and 4
# q2: d4 d3 (tied at 2.0; d4 > d3 so d4 first) with d3 relevant -> hit at rank 2
# q3: not in the run -> every metric 0
# q4: d10..d19 then d20 relevant -> hit at rank 11
NDCG10 = {"q1": (1 / log2(3) + 1 / log2(5)) / (1 + 1 / log2(3)), "q2": 1 / log2(3), "q3": 0.0, "q4": 0.0}
NDCG100 = {**NDCG10, "q4": 1 / log2(12)}
AP = {"q1": (1 / 2 + 2 / 4) / 2, "q2": 1 / 2, "q3": 0.0, "q4": 1 / 11}
MRR10 = {"q1": 1 / 2, "q2": 1 / 2, "q3": 0.0, "q4": 0.0}
RECALL = {1: {"q1": 0, "q2": 0, "q3": 0, "q4": 0}, 5: {"q1": 1, "q2": 1, "q3": 0, "q4": 0}, 10: {"q1": 1, "q2": 1, "q3": 0, "q4": 0}, 100: {"q1": 1, "q2": 1, "q3": 0, "q4": 1}}
P10 = {"q1": 2 / 10, "q2": 1 / 10, "q3": 0.0, "q4": 0.0}


def test_per_query_values_match_hand_computation(toy):
    rows = toy.query_rows()
    assert toy.query_ids == ("q1", "q2", "q3", "q4")
    for q in toy.query_ids:
        assert rows[q]["ndcg_at_10"] == pytest.approx(NDCG10[q])
        assert rows[q]["ndcg_at_100"] == pytest.approx(NDCG100[q])
        assert rows[q]["map"] == pytest.approx(AP[q])
        assert rows[q]["mrr_at_10"] == pytest.approx(MRR10[q])
        assert rows[q]["precision_at_10"] == pytest.approx(P10[q])
        for k, values in RECALL.items():
            assert rows[q][f"recall_at_{k}"] == pytest.approx(values[q]), (q, k)
    # map_cut_10 divides by the number of relevant documents; q4's hit at rank 11 is cut off
    assert rows["q4"]["map_at_10"] == 0.0 and rows["q4"]["map_at_100"] == pytest.approx(1 / 11)


def test_means_average_over_every_query_with_qrels(toy):
    assert toy.n_missing == 1
    assert toy.means["ndcg_at_10"] == pytest.approx(sum(NDCG10.values()) / 4)
    assert toy.means["map"] == pytest.approx(sum(AP.values()) / 4)
    assert toy.means["mrr_at_10"] == pytest.approx(0.25)
    assert toy.means["recall_at_100"] == pytest.approx(0.75)
    # the main score is nDCG@10 averaged over all 4 queries with qrels (q3, missing from the run, scores 0):
    # (q1 (1/log2 3 + 1/log2 5) / (1 + 1/log2 3) = 0.6510 + q2 1/log2 3 = 0.6309 + 0 + 0) / 4
    assert toy.main_score == pytest.approx(0.320462670844, abs=1e-9)
    assert toy.main_score == pytest.approx(((1 / log2(3) + 1 / log2(5)) / (1 + 1 / log2(3)) + 1 / log2(3)) / 4)


def test_a_query_whose_lines_are_all_judged_irrelevant_is_not_averaged():
    """As trec_eval and MTEB: a query with no relevant line has no nDCG to average (and is not a 0)."""
    run = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"c": 1.0}}
    both = evaluate_run(run, {"q1": {"a": 1}, "q2": {"c": 0, "d": 0}})
    assert both.query_ids == ("q1",) and both.means["ndcg_at_10"] == pytest.approx(1.0)


def test_registry_names_mteb_keys_and_trec_measures():
    expected = {f"ndcg_at_{k}" for k in (1, 3, 5, 10, 100)} | {"map_at_10", "map_at_100", "map"}
    expected |= {f"recall_at_{k}" for k in (1, 5, 10, 100, 1000)} | {"precision_at_1", "precision_at_10", "mrr_at_10"}
    assert set(METRICS) == expected
    assert METRICS["map_at_10"].request == "map_cut.10" and METRICS["map_at_10"].trec_key == "map_cut_10"
    assert METRICS["map"].request == "map" and METRICS["precision_at_1"].trec_key == "P_1"


def test_ranked_breaks_ties_by_doc_id_descending():
    assert [d for d, _ in ranked({"a": 1.0, "c": 1.0, "b": 2.0})] == ["b", "c", "a"]
    assert ranked({"a": 1.0, "b": 2.0}, 1) == [("b", 2.0)]


def test_span_buckets():
    assert [span_bucket(n) for n in (1, 2, 3, 7)] == ["1", "2", "3+", "3+"]


def test_per_author_keeps_only_that_authors_lines(benchmark):
    some_q = next(q for q, docs in benchmark.qrels.items() if len({doc_author(d) for d in docs}) > 1)
    for author in {doc_author(d) for d in benchmark.qrels[some_q]}:
        kept = qrels_for_author(benchmark.qrels, author)
        assert all(doc_author(d) == author for docs in kept.values() for d in docs)
        assert set(kept[some_q]) == {d for d in benchmark.qrels[some_q] if doc_author(d) == author}
    # another author's relevant lines ranked above cost nothing: a perfect run is perfect for every author
    perfect = {q: {d: 1.0 for d in docs} for q, docs in benchmark.qrels.items()}  # ties: vergil > statius > ovid > lucan
    scores = {a: e.main_score for a, e in per_author(perfect, benchmark.qrels).items()}
    assert scores == pytest.approx({"lucan": 1.0, "ovid": 1.0, "statius": 1.0, "vergil": 1.0})
    for author in scores:
        only = {q: {d: 1.0 for d in docs if doc_author(d) == author} for q, docs in benchmark.qrels.items()}
        by_author = per_author(only, benchmark.qrels)
        assert by_author[author].main_score == pytest.approx(1.0)
        assert all(e.main_score == 0.0 for a, e in by_author.items() if a != author)
        assert len(by_author[author].query_ids) == sum(1 for docs in benchmark.qrels.values() if any(doc_author(d) == author for d in docs))


def test_per_author_treats_other_authors_relevant_lines_as_unjudged():
    """q1 finds its Vergil line first and its Lucan line second: under Lucan, the Vergil line is taken out of q1's
    run (found, not wrong), while a line relevant to no query (statius-1-1) still counts against Lucan in q2."""
    qrels = {"q1": {"vergil-1-1": 1, "lucan-1-1": 1}, "q2": {"lucan-1-2": 1}}
    run = {"q1": {"vergil-1-1": 3.0, "lucan-1-1": 2.0, "ovid-1-1": 1.0}, "q2": {"statius-1-1": 2.0, "vergil-1-1": 1.5, "lucan-1-2": 1.0}}
    assert run_for_author(run, qrels, "lucan") == {"q1": {"lucan-1-1": 2.0, "ovid-1-1": 1.0}, "q2": run["q2"]}  # vergil-1-1 is not q2's
    by_author = per_author(run, qrels)
    assert set(by_author) == {"lucan", "vergil"}  # a query counts under each author holding one of its relevant lines
    assert by_author["lucan"].query_ids == ("q1", "q2") and by_author["vergil"].query_ids == ("q1",)
    lucan = by_author["lucan"].query_rows()
    assert lucan["q1"]["ndcg_at_10"] == pytest.approx(1.0)  # 1 / log2(3) when the Vergil hit counted against it
    assert lucan["q2"]["ndcg_at_10"] == pytest.approx(1 / log2(4))  # two non-relevant lines above: rank 3
    assert by_author["vergil"].main_score == pytest.approx(1.0)


def test_per_span_length_partitions_the_queries(benchmark):
    perfect = {q: {d: 1.0 for d in docs} for q, docs in benchmark.qrels.items()}
    half = {q: docs for i, (q, docs) in enumerate(sorted(perfect.items())) if i % 2 == 0}
    ev = evaluate_run(half, benchmark.qrels)
    groups = per_span_length(ev, benchmark.queries)
    assert sum(len(g.query_ids) for g in groups.values()) == len(benchmark.queries) == 482
    lengths = {q.id: q.span_length for q in benchmark.queries}
    assert all(lengths[q] == 1 for q in groups["1"].query_ids) and all(lengths[q] >= 3 for q in groups["3+"].query_ids)
    weighted = sum(len(g.query_ids) * g.means["ndcg_at_10"] for g in groups.values()) / len(ev.query_ids)
    assert weighted == pytest.approx(ev.means["ndcg_at_10"])
    assert ev.n_missing == 241 and np.count_nonzero(ev.per_query["ndcg_at_10"]) == 241


def test_mrr_is_mteb_s_own_even_where_trec_eval_s_32_bit_scores_tie():
    """Scores apart as doubles but one 32-bit float: trec_eval orders them by doc id, MTEB's mrr (and ours) by score."""
    from mteb._evaluators.retrieval_metrics import mrr

    qrels = {"q1": {"d3": 1}, "q2": {"d1": 1}}
    run = {"q1": {f"d{i}": 100 - i * 1e-9 for i in range(1, 13)}, "q2": {"d1": 2.0, "d2": 1.0}}
    ours = evaluate_run(run, qrels)
    assert ours.per_query["mrr_at_10"].tolist() == mrr(qrels, run, [10])["MRR@10"] == [1 / 3, 1.0]
    # trec_eval's own recip_rank sees twelve ties, ordered by doc id descending: d9, d8, ..., d3 is seventh
    assert pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(run)["q1"]["recip_rank"] == pytest.approx(1 / 7)


def test_metrics_deeper_than_a_run_are_named_and_the_run_s_depth_is_recorded():
    from latin_intertext.evaluate.metrics import deeper_than

    assert deeper_than(1000) == [] and deeper_than(5000) == []
    assert deeper_than(100) == ["map", "recall_at_1000"]  # the uncut MAP is MTEB's MAP over 1,000
    assert deeper_than(10) == ["ndcg_at_100", "map_at_100", "map", "recall_at_100", "recall_at_1000"]
    shallow = evaluate_run({"q1": {"d1": 1.0, "d2": 0.5}, "q2": {"d3": 1.0}}, {"q1": {"d2": 1}, "q2": {"d9": 1}})
    assert shallow.depth == 2
    assert shallow.means["recall_at_1000"] == shallow.means["recall_at_5"] == 0.5  # why such figures are named
