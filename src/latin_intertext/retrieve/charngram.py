"""TF-IDF over character 3-5-grams of folded text (word-bounded), ranked by cosine similarity.

Character n-grams match inflected forms of one stem (``arma``/``armis``) without a
lemmatiser, which is why this cheap baseline beats form-level BM25.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

from latin_intertext import latin
from latin_intertext.benchmark import CorpusLine
from latin_intertext.retrieve.base import Retriever, register, top_k


@register("charngram", "TF-IDF over character 3-5-grams (char_wb) of folded text, cosine", cache_index=True)
class CharNgram(Retriever):
    def __init__(self, ngram_min: int = 3, ngram_max: int = 5, sublinear_tf: bool = True):
        super().__init__()
        self.ngram_min = ngram_min
        self.ngram_max = ngram_max
        self.sublinear_tf = sublinear_tf

    def _index(self, corpus: Sequence[CorpusLine]) -> None:
        self._vectorizer = TfidfVectorizer(
            analyzer="char_wb",
            ngram_range=(self.ngram_min, self.ngram_max),
            sublinear_tf=self.sublinear_tf,
            preprocessor=latin.sound_text,
            dtype=np.float32,
        )
        self._matrix = self._vectorizer.fit_transform([d.text for d in corpus]).tocsr()

    def score_all(self, text: str) -> np.ndarray:
        query = self._vectorizer.transform([text])
        return np.asarray((self._matrix @ query.T).todense()).ravel()

    def search(self, queries, k: int = 100, progress=None):
        # One sparse product for all queries, instead of one per query.
        ids = list(queries)
        if not ids:
            return {}
        scores = (self._vectorizer.transform([queries[q] for q in ids]) @ self._matrix.T).tocsr()
        run = {}
        for row, qid in enumerate(ids):
            dense = np.full(len(self.doc_ids), -np.inf)
            lo, hi = scores.indptr[row], scores.indptr[row + 1]
            dense[scores.indices[lo:hi]] = scores.data[lo:hi]
            run[qid] = top_k(self.doc_ids, dense, k, self.text_order)
            if progress:
                progress(1)
        return run
