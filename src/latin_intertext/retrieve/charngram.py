"""TF-IDF over character 3-5-grams of folded text (word-bounded), ranked by cosine similarity.

Character n-grams match inflected forms of one stem (``arma``/``armis``) without a
lemmatiser, which is why this cheap baseline beats form-level BM25.
"""

from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from latin_intertext import latin
from latin_intertext.benchmark import CorpusLine
from latin_intertext.retrieve.base import Retriever, register


@register("charngram", "TF-IDF over character 3-5-grams (char_wb) of folded text, cosine", cache_index=True)
class CharNgram(Retriever):
    def __init__(self, ngram_min: int = 3, ngram_max: int = 5, sublinear_tf: bool = True):
        super().__init__()
        self.ngram_min = ngram_min
        self.ngram_max = ngram_max
        self.sublinear_tf = sublinear_tf

    def _index(self, corpus: Sequence[CorpusLine]) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer  # here: scikit-learn takes a second to import

        self._vectorizer = TfidfVectorizer(
            analyzer="char_wb",
            ngram_range=(self.ngram_min, self.ngram_max),
            sublinear_tf=self.sublinear_tf,
            preprocessor=latin.sound_text,
            dtype=np.float32,
        )
        self._matrix = self._vectorizer.fit_transform([d.text for d in corpus]).tocsr()

    def score_all(self, text: str) -> np.ndarray:
        return next(self.score_batch([text]))

    def score_batch(self, texts: Sequence[str]) -> Iterator[np.ndarray]:
        """One sparse product for all texts, instead of one per text; -inf where a line shares no n-gram."""
        if not texts:
            return
        scores = (self._vectorizer.transform(list(texts)) @ self._matrix.T).tocsr()
        for row in range(len(texts)):
            dense = np.full(len(self.doc_ids), -np.inf)
            lo, hi = scores.indptr[row], scores.indptr[row + 1]
            dense[scores.indices[lo:hi]] = scores.data[lo:hi]
            yield dense
