"""BM25 / BM25Lemma: search gives what bm25s.get_scores + top_k give, and the benchmark figures hold."""

from __future__ import annotations

import numpy as np
import pytest

from latin_intertext import latin
from latin_intertext.retrieve import make_retriever
from latin_intertext.retrieve.base import top_k


def test_forms_and_lemmas_fast_paths_match_tokenize():
    texts = ["Arma virumque cano, Troiae qui primus ab oris", "Ávē Jūlius VIRVMQVE atque uenit", "bellâ€”que mÃ¦stus", "", "123 !"]
    for text in texts:
        tokens = latin.tokenize(text)
        assert latin.forms(text) == [t.norm for t in tokens]
        assert latin.lemmas(text) == [t.lemma for t in tokens]


@pytest.fixture(scope="module", params=["bm25", "bm25-lemma"])
def indexed(request, benchmark):
    return request.param, make_retriever(request.param).index(benchmark.corpus)


def test_search_equals_get_scores_then_top_k(indexed, benchmark):
    """The reference: bm25s.get_scores on each query's term ids, top_k, positive scores only."""
    name, retriever = indexed
    queries = dict(list(benchmark.query_texts.items())[:40])
    queries["nothing"] = "zzqxw 123"
    for k in (10, 1000):
        run = retriever.search(queries, k=k)
        assert list(run) == list(queries)
        for qid, text in queries.items():
            terms = [retriever._vocab[w] for w in retriever._terms(text) if w in retriever._vocab]
            scores = retriever._model.get_scores(terms) if terms else np.zeros(len(retriever.doc_ids))
            expected = top_k(retriever.doc_ids, scores, k, retriever.text_order, scores > 0)
            assert list(run[qid].items()) == list(expected.items()), f"{name} {qid} k={k}"
    assert run["nothing"] == {}


def test_search_reports_progress_per_query(indexed, benchmark):
    _name, retriever = indexed
    queries = dict(list(benchmark.query_texts.items())[:7])
    seen = []
    retriever.search(queries, k=5, progress=seen.append)
    assert sum(seen) == 7


@pytest.mark.parametrize(("name", "expected"), [("bm25", 0.26), ("bm25-lemma", 0.29)])
def test_ndcg_at_10_on_the_benchmark(name, expected, benchmark):
    import pytrec_eval

    run = make_retriever(name).index(benchmark.corpus).search(benchmark.query_texts, k=1000)
    per_query = pytrec_eval.RelevanceEvaluator(benchmark.qrels, {"ndcg_cut.10"}).evaluate(run)
    ndcg = sum(m["ndcg_cut_10"] for m in per_query.values()) / len(benchmark.queries)
    assert abs(ndcg - expected) <= 0.01, f"{name} nDCG@10 {ndcg:.4f}"
