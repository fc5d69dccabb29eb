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

EVIDENCE_DEPTHS = (10, 100)  # the run's top lines the rows count as found: nDCG@10's cut and Recall@100's


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
    """The relevant lines of one kind of lexical evidence, and the share of them in a run's top lines at each depth."""

    evidence: str  # one of :func:`evidence_classes`
    lines: int
    share: float  # of all relevant lines
    found: dict[int, float]  # depth -> the share of these lines in the run's top ``depth``, shallowest first
    commonest_words: list[tuple[str, int]]  # the query's one shared word (folded) and how many lines share it; one-word classes only

    def to_json(self) -> dict:
        """The row as the ranker report's JSON holds it, each depth in a key of its own (``found_at_10``, ``found_at_100``)."""
        return {"evidence": self.evidence, "lines": self.lines, "share": self.share,
                **{f"found_at_{depth}": share for depth, share in self.found.items()},
                "commonest_words": [list(pair) for pair in self.commonest_words]}


def gold_by_evidence(ranker: EvidenceRanker, bench: Benchmark, run: Run, depths: tuple[int, ...] = EVIDENCE_DEPTHS, bands: tuple[int, int] = ONE_WORD_BANDS) -> list[EvidenceClass]:
    """Relevant lines grouped by the lexical evidence they offer, with the share of each the run finds in its top
    lines at each of ``depths``: at 10, what nDCG@10 can reach; at 100, what Recall@100 can.

    Shows where the lexical ceiling lies: a line sharing one query word competes with every line holding that
    word (counted by its rarest shared lemma, and split into ``bands`` of that count), and a line sharing no
    lemma with its query (nor its neighbours) can only be found by luck or by evidence other than vocabulary.
    Words, not lemmas, are counted: an ambiguous form shares several candidate lemmas but is one piece of evidence.
    """
    lines = ranker._lines
    classes = evidence_classes(bands)
    holding = np.asarray(lines.matrices["lemmaset"].sum(axis=0)).ravel()  # lines holding each candidate lemma
    vocab = lines.vocab["lemmaset"]
    depths = tuple(sorted(depths))
    found = {c: [] for c in classes}  # per relevant line: its rank in the run (past every depth if it is not there)
    one_words = {c: Counter() for c in classes}  # the query's one shared word (folded form) of each one-word line
    for q in bench.queries:
        unit = Unit.of(q.text)
        rank = {d: r for r, (d, _) in enumerate(ranked(run.get(q.id, {}), depths[-1]))}
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
            found[cls].append(rank.get(doc_id, depths[-1]))
    total = sum(len(v) for v in found.values())
    return [
        EvidenceClass(c, len(v), len(v) / total if total else 0.0, {d: sum(r < d for r in v) / len(v) if v else 0.0 for d in depths},
                      one_words[c].most_common(COMMONEST))
        for c, v in found.items()
    ]


def found_depths(rows: list[EvidenceClass]) -> tuple[int, ...]:
    """The depths all of ``gold_by_evidence``'s rows counted to, shallowest first."""
    depths = {tuple(row.found) for row in rows}
    if len(depths) != 1:
        raise ValueError(f"gold_by_evidence rows must all count to the same depths; these give {sorted(depths) or 'none'}")
    return depths.pop()


def found_share(rows: list[EvidenceClass], depth: int) -> float:
    """The share of all relevant lines in the run's top ``depth`` (a line share, not the per-query mean of Recall@k)."""
    found_depths(rows)  # refuses rows counted to different depths, whose shares would not add up
    return sum(r.share * r.found[depth] for r in rows)


def lexical_ceiling(rows: list[EvidenceClass]) -> tuple[float, float]:
    """:func:`found_share` at the rows' deepest depth, and what it would be if every line sharing a query word were
    there while the others stayed as they are."""
    depth = found_depths(rows)[-1]
    return found_share(rows, depth), sum(r.share * (1.0 if i < N_LEXICAL else r.found[depth]) for i, r in enumerate(rows))
