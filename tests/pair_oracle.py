"""The pair evidence defined line by line, in plain Python: the oracle that
:func:`latin_intertext.retrieve.pair_evidence.pair_feature_matrix`, which computes it for many lines at once
with numpy, must equal (``tests/test_ranker.py``). Slow (about 9 ms a query): never used by the package."""

from __future__ import annotations

import math

from latin_intertext.retrieve.features import LineIndex, Unit, shared_lemmas
from latin_intertext.retrieve.pair_evidence import PHRASE_WINDOW, rarest_query_lemmas


def _distance(positions: list[int]) -> int:
    return (max(positions) - min(positions) + 1) if len(positions) > 1 else 1


def pair_features(index: LineIndex, query: Unit, doc: int) -> list[float]:
    """Tesserae-style evidence for one pair: frequencies and distances of the matched words."""
    rarest = rarest_query_lemmas(index, query)
    target = index.units[doc]
    q_terms, t_terms = query.terms["lemmaset"], target.terms["lemmaset"]
    common = shared_lemmas(index, query, doc)
    shared = [l for l in q_terms if l in common]  # in the query's order
    q_lemma_pos = {p: l for l in shared for p in q_terms[l]}  # each matched word position, with one of its lemmas
    t_lemma_pos = {p: l for l in shared for p in t_terms[l]}
    freq = {l: index.lemma_freq.get(l, 1) for l in shared}
    if len(q_lemma_pos) >= 2 and len(t_lemma_pos) >= 2:
        rarest_shared = sorted(shared, key=lambda l: (freq[l], l))[:2]
        d_line = _distance([t_terms[l][0] for l in rarest_shared]) if len(rarest_shared) == 2 else 1
        d_query = _distance([q_terms[l][0] for l in rarest_shared]) if len(rarest_shared) == 2 else 1
        weight = sum(1.0 / freq[l] * (len(t_terms[l]) + len(q_terms[l])) for l in shared)
        tess = math.log(weight / (d_line + d_query))
    else:
        d_line = d_query = 0
        tess = -20.0
    lemma_vocab, lemma_idf = index.vocab["lemmaset"], index.idf["lemmaset"]
    shared_idf = {l: float(lemma_idf[lemma_vocab[l]]) for l in shared}  # shared lemmas stand in a corpus line: all in the vocabulary
    idfs = sorted(shared_idf.values(), reverse=True) + [0.0, 0.0]
    background = index.background_idf
    bg = sorted((background(l) for l in shared), reverse=True) + [0.0, 0.0] if background else [0.0, 0.0]
    phrase = _phrase_evidence(shared, q_terms, t_terms, shared_idf)
    last = target.n_words - 1
    shift = query.n_words - target.n_words  # the same distance from the end of the line on both sides: the same sedes
    edge = sum(1 for l in shared if (0 in t_terms[l] or last in t_terms[l]))
    sedes = sum(1 for l in shared if any(p + shift in q_terms[l] for p in t_terms[l]))
    where = _query_position(shared, q_terms, query.n_words, shared_idf)
    return [
        tess,
        float(d_line),
        float(d_query),
        float(len(t_lemma_pos)),
        float(min(freq.values())) if freq else 0.0,
        float(_ordered_pairs(q_lemma_pos, t_lemma_pos)),
        float(edge),
        float(sedes),
        float(query.n_words),
        idfs[0],
        idfs[1],
        float(sum(1 for v in idfs if v > 6.0)),
        bg[0],
        bg[1],
        *phrase,
        float(sum(1 for l in rarest if l in t_terms)),
        *where,
    ]


def _ordered_pairs(q_lemma_pos: dict[int, str], t_lemma_pos: dict[int, str]) -> int:
    """How many neighbouring matched words of the query come in the same order in the line."""
    q_seq = [q_lemma_pos[p] for p in sorted(q_lemma_pos)]
    t_first: dict[str, int] = {}
    for p in sorted(t_lemma_pos):
        t_first.setdefault(t_lemma_pos[p], len(t_first))
    return sum(1 for a, b in zip(q_seq, q_seq[1:]) if a != b and a in t_first and b in t_first and t_first[a] < t_first[b])


def _query_position(shared: list[str], q_terms: dict, n_words: int, idf: dict[str, float]) -> tuple[float, float]:
    """Where in the query the shared words stand, 0 at its start and 1 at its end (rarity-weighted mean),
    and how far they stand from its middle (-1 when nothing is shared): in a passage of several lines
    the borrowed phrase is often the one that runs over a line break."""
    weights = [(p / max(n_words - 1, 1), idf[l]) for l in shared for p in q_terms[l]]
    total = sum(w for _, w in weights)
    if total <= 0:  # nothing shared, or only lemmas of no rarity
        return -1.0, -1.0
    mean = sum(r * w for r, w in weights) / total
    return mean, sum(abs(r - 0.5) * w for r, w in weights) / total


def _phrase_evidence(shared: list[str], q_terms: dict, t_terms: dict, idf: dict[str, float]) -> tuple[float, float, float]:
    """The best pair of shared lemmas standing close together on both sides: a borrowed phrase.

    Returns the weaker IDF of the best close pair, the smallest combined gap of any pair, and how many close pairs there are.
    """
    best_idf, best_gap, close = 0.0, 99.0, 0
    for i, a in enumerate(shared):
        for b in shared[i + 1 :]:
            q_gap = min((abs(x - y) for x in q_terms[a] for y in q_terms[b] if x != y), default=99)
            t_gap = min((abs(x - y) for x in t_terms[a] for y in t_terms[b] if x != y), default=99)
            best_gap = min(best_gap, float(q_gap + t_gap))
            if q_gap <= PHRASE_WINDOW and t_gap <= PHRASE_WINDOW:
                close += 1
                best_idf = max(best_idf, min(idf[a], idf[b]))
    return best_idf, best_gap, float(close)
