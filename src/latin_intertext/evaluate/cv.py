"""Cross-validation over queries, grouped into contiguous blocks of Valerius Flaccus lines.

Queries whose spans overlap or lie within ``min_gap`` lines of each other are
chained into one group, and whole groups are dealt to folds in line order, so
neighbouring VF lines never sit on both sides of a split. Anything learned is
fitted on the training folds only; the out-of-fold run is what gets reported.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from latin_intertext.benchmark import Benchmark, Query, Run
from latin_intertext.retrieve.base import LearnedRetriever, Retriever


@dataclass(frozen=True)
class Fold:
    index: int
    test_ids: tuple[str, ...]
    line_start: int
    line_end: int
    book_start: int = 1
    book_end: int = 1

    def describe(self) -> str:
        end = str(self.line_end) if self.book_end == self.book_start else f"{self.book_end}.{self.line_end}"
        return f"fold {self.index}: VF {self.book_start}.{self.line_start}-{end} ({len(self.test_ids)} queries)"


def span_groups(queries: list[Query], min_gap: int = 3) -> list[list[Query]]:
    """Chain queries whose spans come within ``min_gap`` lines of each other in the same book, in book and line
    order (line 5 of book 2 is no neighbour of line 5 of book 1)."""
    groups: list[list[Query]] = []
    reach = None  # (book, last line) of the current group
    for q in sorted(queries, key=lambda q: (q.vf_book, q.line_start, q.line_end, q.id)):
        if reach is not None and q.vf_book == reach[0] and q.line_start - reach[1] <= min_gap:
            groups[-1].append(q)
            reach = (q.vf_book, max(reach[1], q.line_end))
        else:
            groups.append([q])
            reach = (q.vf_book, q.line_end)
    return groups


def span_group_ids(queries: list[Query], query_ids: list[str], min_gap: int = 3) -> list[int]:
    """The span group of each of ``query_ids`` (a negative id, a group of its own, for an id not among ``queries``):
    the clusters of the statistics that resample or sign-flip span groups instead of queries."""
    group_of = {q.id: g for g, group in enumerate(span_groups(queries, min_gap)) for q in group}
    return [group_of.get(q, -1 - i) for i, q in enumerate(query_ids)]


def sample_groups(queries: list[Query], fraction: float, seed: int = 0, min_gap: int = 3) -> list[str]:
    """Ids of whole span groups drawn at random until they hold ``fraction`` of ``queries`` (at least one group):
    a smaller training set that still never splits neighbouring VF lines, and so holds at least ``fraction``
    (more by up to the last group drawn)."""
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must be in (0, 1], not {fraction}")
    groups = span_groups(queries, min_gap)
    random.Random(seed).shuffle(groups)
    ids: list[str] = []
    for group in groups:
        if ids and len(ids) >= fraction * len(queries):
            break
        ids += [q.id for q in group]
    return ids


def grouped_folds(queries: list[Query], n_folds: int = 5, min_gap: int = 3) -> list[Fold]:
    """Split queries into ``n_folds`` contiguous blocks of VF lines of near-equal query counts."""
    groups = span_groups(queries, min_gap)
    if len(groups) < n_folds:
        raise ValueError(f"only {len(groups)} separable query groups for {n_folds} folds")
    folds, current, remaining = [], [], len(queries)
    for i, group in enumerate(groups):
        folds_left = n_folds - len(folds)
        target = remaining / folds_left
        # close the fold before a group that would overshoot the target by more than stopping short does
        if folds_left > 1 and current and len(current) + len(group) - target > target - len(current):
            folds.append(current)
            remaining -= len(current)
            current = []
        current.extend(group)
        folds_left = n_folds - len(folds)
        groups_left = len(groups) - i - 1
        if folds_left > 1 and (len(current) >= remaining / folds_left or groups_left == folds_left - 1):
            folds.append(current)
            remaining -= len(current)
            current = []
    folds.append(current)
    return [_fold(i, block) for i, block in enumerate(folds)]


def _fold(index: int, block: list[Query]) -> Fold:
    """A fold of a block of span groups in book and line order: its range runs from its first query's start to the
    furthest end in its last book."""
    last_book = block[-1].vf_book
    return Fold(
        index,
        tuple(q.id for q in block),
        block[0].line_start,
        max(q.line_end for q in block if q.vf_book == last_book),
        block[0].vf_book,
        last_book,
    )


def cross_validate(
    make: Callable[[], Retriever],
    benchmark: Benchmark,
    folds: list[Fold],
    k: int = 1000,
    on_fold: Callable[[Fold], None] | None = None,
) -> Run:
    """The out-of-fold run of a fresh retriever; its corpus index is built once (it sees no labels)."""
    return out_of_fold(make().index(benchmark.corpus), benchmark, folds, k, on_fold)


def training_ids(benchmark: Benchmark, fold: Fold, fraction: float = 1.0, seed: int = 0) -> list[str]:
    """The queries ``fold``'s model is fitted on: the other folds', or a ``fraction`` of them (see :func:`sample_groups`)."""
    test = set(fold.test_ids)
    train = [q for q in benchmark.queries if q.id not in test]
    return [q.id for q in train] if fraction == 1 else sample_groups(train, fraction, seed)


def out_of_fold(
    retriever: Retriever,
    benchmark: Benchmark,
    folds: list[Fold],
    k: int = 1000,
    on_fold: Callable[[Fold], None] | None = None,
    train_fraction: float = 1.0,
    seed: int = 0,
) -> Run:
    """Each fold's queries searched by ``retriever`` (already indexed), fitted afresh on the other folds only
    (on a ``train_fraction`` of their queries, whole span groups drawn with ``seed``, for a learning curve)."""
    run: Run = {}
    texts = benchmark.query_texts
    for fold in folds:
        if isinstance(retriever, LearnedRetriever):
            retriever.fit(benchmark.subset(training_ids(benchmark, fold, train_fraction, seed)))
        run.update(retriever.search({q: texts[q] for q in fold.test_ids}, k))
        if on_fold:
            on_fold(fold)
    return run
