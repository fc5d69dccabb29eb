"""Where the lexical ceiling lies: what stage 1 puts among the candidates, and the relevant lines grouped by the
evidence they share with their query, with the share of each a run finds."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from latin_intertext.benchmark import Benchmark, Run
from latin_intertext.evaluate.metrics import ranked
from latin_intertext.retrieve.features import Unit, shared_lemmas, shared_query_words
from latin_intertext.retrieve.ranker import EvidenceRanker

EVIDENCE_DEPTH = 100  # the run's top lines the rows count as found: Recall@100's cut


def candidate_recall(ranker: EvidenceRanker, bench: Benchmark) -> tuple[float, float]:
    """What stage 1 puts among the candidates, the reranker's ceiling: the share of all relevant lines, and the mean
    over queries of each query's share, which bounds Recall@k from the candidates as Recall@k is a mean over queries."""
    found, total = [], []
    for q in bench.queries:
        relevant = [d for d, r in bench.qrels.get(q.id, {}).items() if r > 0]
        if relevant:
            ids = {ranker.doc_ids[i] for i in ranker._features(q.text)[0]}
            found.append(sum(d in ids for d in relevant))
            total.append(len(relevant))
    if not total:
        return 0.0, 0.0
    return sum(found) / sum(total), float(np.mean(np.divide(found, total)))


ONE_WORD_BANDS = (20, 100)  # how many corpus lines hold the one shared word: the line's competitors


def evidence_classes(bands: tuple[int, int] = ONE_WORD_BANDS) -> tuple[str, ...]:
    low, high = bands
    return (
        "shares two or more of the query's words",
        f"shares one of the query's words, held by under {low} lines",
        f"shares one of the query's words, held by {low} to {high - 1} lines",
        f"shares one of the query's words, held by {high} lines or more",
        "only through a neighbouring line",
        "shares no lemma",
    )


EVIDENCE_CLASSES = evidence_classes()
N_LEXICAL = 4  # the classes that share a query word
COMMONEST = 3  # shared words named per one-word class


@dataclass(frozen=True)
class EvidenceClass:
    """The relevant lines of one kind of lexical evidence, and the share of them in a run's top ``depth`` lines."""

    evidence: str  # one of :func:`evidence_classes`
    lines: int
    share: float  # of all relevant lines
    depth: int
    found: float  # the share of these lines in the run's top ``depth``
    commonest_words: list[tuple[str, int]]  # the query's one shared word (folded) and how many lines share it; one-word classes only

    def to_json(self) -> dict:
        """The row as the ranker report's JSON has always held it, the depth in a key (``found_at_100``)."""
        return {"evidence": self.evidence, "lines": self.lines, "share": self.share, f"found_at_{self.depth}": self.found,
                "commonest_words": [list(pair) for pair in self.commonest_words]}


def gold_by_evidence(ranker: EvidenceRanker, bench: Benchmark, run: Run, depth: int = EVIDENCE_DEPTH, bands: tuple[int, int] = ONE_WORD_BANDS) -> list[EvidenceClass]:
    """Relevant lines grouped by the lexical evidence they offer, with the share of each the run finds in its top ``depth``.

    Shows where the lexical ceiling lies: a line sharing one query word competes with every line holding that
    word (counted by its rarest shared lemma, and split into ``bands`` of that count), and a line sharing no
    lemma with its query (nor its neighbours) can only be found by luck or by evidence other than vocabulary.
    Words, not lemmas, are counted: an ambiguous form shares several candidate lemmas but is one piece of evidence.
    """
    lines = ranker._lines
    classes = evidence_classes(bands)
    holding = np.asarray(lines.matrices["lemmaset"].sum(axis=0)).ravel()  # lines holding each candidate lemma
    vocab = lines.vocab["lemmaset"]
    found = {c: [] for c in classes}
    one_words = {c: Counter() for c in classes}  # the query's one shared word (folded form) of each one-word line
    for q in bench.queries:
        unit = Unit.of(q.text)
        top = {d for d, _ in ranked(run.get(q.id, {}), depth)}
        for doc_id in bench.qrels.get(q.id, {}):
            i = bench.doc_index[doc_id]
            words = shared_query_words(lines, unit, i)
            if len(words) >= 2:
                cls = classes[0]
            elif words:
                rivals = min(holding[vocab[lemma]] for lemma in shared_lemmas(lines, unit, i))
                cls = classes[1 + int(np.searchsorted(bands, rivals, side="right"))]
                one_words[cls][unit.words[min(words)]] += 1
            elif shared_lemmas(lines, unit, int(lines.prev[i])) or shared_lemmas(lines, unit, int(lines.next[i])):
                cls = classes[N_LEXICAL]
            else:
                cls = classes[N_LEXICAL + 1]
            found[cls].append(doc_id in top)
    total = sum(len(v) for v in found.values())
    return [
        EvidenceClass(c, len(v), len(v) / total if total else 0.0, depth, sum(v) / len(v) if v else 0.0, one_words[c].most_common(COMMONEST))
        for c, v in found.items()
    ]


def found_depth(rows: list[EvidenceClass]) -> int:
    """The one depth all of ``gold_by_evidence``'s rows counted to."""
    depths = {row.depth for row in rows}
    if len(depths) != 1:
        raise ValueError(f"gold_by_evidence rows must all count to one depth; these give {sorted(depths) or 'none'}")
    return depths.pop()


def lexical_ceiling(rows: list[EvidenceClass]) -> tuple[float, float]:
    """The share of relevant lines in the top lines the rows counted now, and what it would be if every line sharing
    a query word were there while the others stayed as they are (a line share, not the per-query mean of Recall@k)."""
    found_depth(rows)  # refuses rows counted to different depths, whose shares would not add up
    now = sum(r.share * r.found for r in rows)
    return now, sum(r.share * (1.0 if i < N_LEXICAL else r.found) for i, r in enumerate(rows))
