"""Which lines hold which terms: an inverted index of word positions, and the binary line x term matrix.

The positions are shared by the evidence ranker's pair evidence and the Tesserae v3 baseline, which both need, for a
query's terms, every (line, position) where they occur, as numpy arrays rather than per-line Python loops. The matrix
is scikit-learn's, built from terms the caller has already made (lemmas, forms, pairs of lemmas).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np
import scipy.sparse as sp


@dataclass(frozen=True)
class Postings:
    """Where each term of a channel stands in the corpus: term ``t`` occurs in ``lines[ptr[t]:ptr[t+1]]`` at
    ``positions[ptr[t]:ptr[t+1]]`` (word positions), ordered by line, then position."""

    ptr: np.ndarray
    lines: np.ndarray
    positions: np.ndarray

    @classmethod
    def of(cls, term_positions: Sequence[dict[str, list[int]]], vocab: dict[str, int]) -> "Postings":
        terms, lines, positions = [], [], []
        for line, by_term in enumerate(term_positions):
            for term, where in by_term.items():
                terms += [vocab[term]] * len(where)
                lines += [line] * len(where)
                positions += where
        terms_a, lines_a, positions_a = (np.array(a, dtype=np.int32) for a in (terms, lines, positions))
        order = np.lexsort((positions_a, lines_a, terms_a))
        ptr = np.concatenate([[0], np.cumsum(np.bincount(terms_a, minlength=len(vocab)))]).astype(np.int64)
        return cls(ptr, lines_a[order], positions_a[order])

    def occurrences(self, term_ids: Sequence[int], row_of_line: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(row, k, position) of every occurrence of ``term_ids[k]`` in a line whose ``row_of_line`` is not -1."""
        spans = [np.arange(self.ptr[t], self.ptr[t + 1]) for t in term_ids]
        at = np.concatenate(spans) if spans else np.zeros(0, np.int64)
        which = np.repeat(np.arange(len(term_ids)), [len(s) for s in spans])
        rows = row_of_line[self.lines[at]]
        keep = rows >= 0
        return rows[keep], which[keep], self.positions[at][keep].astype(np.int64)


def presence_matrix(term_sets: Sequence[Iterable[str]]) -> tuple[sp.csc_matrix, dict[str, int]]:
    """The (lines, terms) matrix of 1.0 where a line holds a term, stored by column (a column lists the lines that
    hold its term), and its vocabulary (term -> column): ``CountVectorizer(binary=True)`` over terms already made.
    With no term at all, one empty column, which scikit-learn would refuse as an empty vocabulary."""
    from sklearn.feature_extraction.text import CountVectorizer  # here: scikit-learn takes a second to import

    term_sets = [list(terms) for terms in term_sets]
    if not any(term_sets):
        return sp.csc_matrix((len(term_sets), 1), dtype=np.float32), {}
    vectorizer = CountVectorizer(analyzer=_given_terms, binary=True, dtype=np.float32)
    matrix = vectorizer.fit_transform(term_sets)
    return matrix.tocsc(), {term: int(column) for term, column in vectorizer.vocabulary_.items()}


def _given_terms(terms: Iterable[str]) -> Iterable[str]:
    return terms
