"""BM25 over folded word forms or over lemmas, with bm25s."""

from __future__ import annotations

from typing import Mapping, Sequence

import bm25s
import numpy as np

from latin_intertext import latin
from latin_intertext.benchmark import CorpusLine, Run
from latin_intertext.retrieve.base import Retriever, register


@register("bm25", "BM25 (bm25s, Lucene variant) over folded word forms, enclitics split")
class BM25(Retriever):
    field = "norm"

    def __init__(self, k1: float = 1.2, b: float = 0.75):
        super().__init__()
        self.k1 = k1
        self.b = b

    def _terms(self, text: str) -> list[str]:
        return [getattr(t, self.field) for t in latin.tokenize(text)]

    def _index(self, corpus: Sequence[CorpusLine]) -> None:
        self._vocab: dict[str, int] = {}
        ids = [[self._vocab.setdefault(w, len(self._vocab)) for w in self._terms(d.text)] for d in corpus]
        self._model = bm25s.BM25(k1=self.k1, b=self.b)
        self._model.index(bm25s.tokenization.Tokenized(ids=ids, vocab=self._vocab), show_progress=False)

    def score_all(self, text: str) -> np.ndarray:
        terms = [self._vocab[w] for w in self._terms(text) if w in self._vocab]
        if not terms:
            return np.zeros(len(self.doc_ids))
        return self._model.get_scores(terms)

    def search(self, queries: Mapping[str, str], k: int = 100, progress=None) -> Run:
        run = super().search(queries, k, progress)
        return {q: {d: s for d, s in docs.items() if s > 0} for q, docs in run.items()}


@register("bm25-lemma", "BM25 (bm25s) over simplemma lemmas")
class BM25Lemma(BM25):
    field = "lemma"
