"""BM25 over folded word forms or over lemmas, with bm25s.

bm25s precomputes the BM25 weight of every (document, term) pair as a sparse matrix, so scoring
one query is a handful of sparse columns added together. Measured on the benchmark (482 queries,
39,675 lines), that per-query scoring takes ~0.05 s in all; one batched sparse product of a
queries x terms matrix with the weights takes ~0.11 s (and is not bit-identical in float32), so
queries are scored one by one and the time went into ranking and tokenising instead.
"""

from __future__ import annotations

from typing import Sequence

import bm25s
import numpy as np

from latin_intertext import latin
from latin_intertext.benchmark import CorpusLine
from latin_intertext.retrieve.base import Retriever, register


TERMS = {"norm": latin.forms, "lemma": latin.lemmas}  # what a BM25 field indexes of a text


@register("bm25", "BM25 (bm25s, Lucene variant) over folded word forms, enclitics split", cache_index=True)
class BM25(Retriever):
    field = "norm"

    def __init__(self, k1: float = 1.2, b: float = 0.75):
        super().__init__()
        self.k1 = k1
        self.b = b

    def _terms(self, text: str) -> list[str]:
        return TERMS[self.field](text)

    def _index(self, corpus: Sequence[CorpusLine]) -> None:
        self._vocab: dict[str, int] = {}
        ids = [[self._vocab.setdefault(w, len(self._vocab)) for w in self._terms(d.text)] for d in corpus]
        self._model = bm25s.BM25(k1=self.k1, b=self.b)
        self._model.index(bm25s.tokenization.Tokenized(ids=ids, vocab=self._vocab), show_progress=False)

    def score_all(self, text: str) -> np.ndarray:
        terms = self._query_terms(text)
        if not terms:
            return np.zeros(len(self.doc_ids))
        return self._model.get_scores(terms)

    def _query_terms(self, text: str) -> list[int]:
        return [self._vocab[w] for w in self._terms(text) if w in self._vocab]

    def eligible(self, scores: np.ndarray) -> np.ndarray:
        """A score of 0 shares no term: no result."""
        return scores > 0


@register("bm25-lemma", "BM25 (bm25s) over simplemma lemmas", cache_index=True)
class BM25Lemma(BM25):
    field = "lemma"
