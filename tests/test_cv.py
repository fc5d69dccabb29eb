"""Grouped cross-validation: folds on the real benchmark are contiguous, separated blocks of VF lines,
and ``cross_validate`` never lets a test fold's ids or qrels reach ``fit``."""

from __future__ import annotations

import itertools
from typing import Mapping

import pytest

from latin_intertext.benchmark import Benchmark, Query
from latin_intertext.evaluate.cv import cross_validate, grouped_folds, sample_groups, span_group_ids, span_groups, training_ids
from latin_intertext.retrieve.base import LearnedRetriever, Retriever

MIN_GAP = 3


@pytest.fixture(scope="module")
def folds(benchmark):
    return grouped_folds(benchmark.queries, 5)


def span_distance(a: Query, b: Query) -> int:
    """Lines between two spans: 0 when they overlap, 1 when b starts on the line after a ends."""
    return max(a.line_start, b.line_start) - min(a.line_end, b.line_end)


def test_five_folds_cover_every_query_exactly_once(benchmark, folds):
    assert len(folds) == 5
    assert [f.index for f in folds] == list(range(5))
    ids = [q for f in folds for q in f.test_ids]
    assert len(ids) == len(set(ids)) == len(benchmark.queries) == 482
    assert set(ids) == {q.id for q in benchmark.queries}
    assert all(f.test_ids for f in folds)


def test_folds_are_contiguous_blocks_of_vf_lines(benchmark, folds):
    by_id = {q.id: q for q in benchmark.queries}
    assert {q.vf_book for q in benchmark.queries} == {1}  # line numbers are comparable across queries
    for fold in folds:
        spans = [by_id[q] for q in fold.test_ids]
        assert fold.line_start == min(q.line_start for q in spans)
        assert fold.line_end == max(q.line_end for q in spans)
        outsiders = [q.id for q in benchmark.queries if q.id not in fold.test_ids and fold.line_start <= q.line_start <= fold.line_end]
        assert not outsiders, f"{fold.describe()} has queries of other folds inside its block: {outsiders[:5]}"
    for before, after in zip(folds, folds[1:]):
        assert before.line_end < after.line_start, f"{before.describe()} / {after.describe()}"


def test_no_neighbouring_vf_lines_on_both_sides_of_a_split(benchmark, folds):
    fold_of = {q: f.index for f in folds for q in f.test_ids}
    ordered = sorted(benchmark.queries, key=lambda q: q.line_start)
    close = [
        (a.id, b.id)
        for a, b in itertools.combinations(ordered, 2)
        if fold_of[a.id] != fold_of[b.id] and span_distance(a, b) <= MIN_GAP
    ]
    assert not close, f"spans within {MIN_GAP} lines in different folds: {close[:5]}"


def test_span_groups_chain_near_spans_and_separate_far_ones():
    def q(i, start, end):
        return Query(f"q{i}", "text", 1, start, end, "[]", 1)

    queries = [q(1, 1, 2), q(2, 5, 5), q(3, 9, 12), q(4, 10, 10), q(5, 16, 16)]
    groups = span_groups(queries, MIN_GAP)
    # 2 -> 5 is 3 lines (chained), 5 -> 9 is 4 (split), 12 -> 16 is 4 (split)
    assert [[x.id for x in g] for g in groups] == [["q1", "q2"], ["q3", "q4"], ["q5"]]
    with pytest.raises(ValueError):
        grouped_folds(queries, 4)
    # a long span reaches past the short one nested in it: 10 -> 12 is 2 lines from its end, not 9 from the short one's
    nested = span_groups([q(1, 1, 10), q(2, 2, 3), q(3, 12, 12), q(4, 17, 17)], MIN_GAP)
    assert [[x.id for x in g] for g in nested] == [["q1", "q2", "q3"], ["q4"]]
    # the statistics' clusters: a group id per asked id, in the order asked; an unknown id is a group of its own
    assert span_group_ids(queries, ["q5", "q2", "q1", "x", "y"], MIN_GAP) == [2, 0, 0, -4, -5]


def test_span_groups_never_chain_lines_of_different_books():
    """Line numbers restart in each book: book 2's line 3 is no neighbour of book 1's line 2, and a fold's range
    names its books."""

    def q(i, book, start, end):
        return Query(f"q{i}", "text", book, start, end, "[]", 1)

    queries = [q(1, 2, 3, 3), q(2, 1, 1, 2), q(3, 1, 30, 30), q(4, 2, 40, 41)]
    assert [[x.id for x in g] for g in span_groups(queries, MIN_GAP)] == [["q2"], ["q3"], ["q1"], ["q4"]]
    folds = grouped_folds(queries, 2)
    assert [f.describe() for f in folds] == ["fold 0: VF 1.1-30 (2 queries)", "fold 1: VF 2.3-41 (2 queries)"]
    across = grouped_folds(queries, 1)[0]
    assert across.describe() == "fold 0: VF 1.1-2.41 (4 queries)"
    assert (across.book_start, across.line_start, across.book_end, across.line_end) == (1, 1, 2, 41)


def test_folds_are_of_near_equal_size(benchmark, folds):
    """A fold closes before a span group that would overshoot its share by more than stopping short would fall short:
    on the benchmark, the folds the README lists (without that rule the second would hold 130 queries)."""
    assert [len(f.test_ids) for f in folds] == [98, 79, 104, 108, 93]
    assert folds[1].describe() == "fold 1: VF 1.120-295 (79 queries)"


class Recorder(LearnedRetriever):
    """A learned retriever that records what it is given and returns a fixed run."""

    name = "recorder"

    def __init__(self):
        super().__init__()
        self.calls: list[tuple] = []

    def _index(self, corpus):
        self.calls.append(("index", len(corpus)))

    def fit(self, train: Benchmark):
        self.calls.append(("fit", frozenset(q.id for q in train.queries), frozenset(train.qrels), train))
        return self

    def search(self, queries: Mapping[str, str], k: int = 100, progress=None):
        self.calls.append(("search", dict(queries), k))
        return {qid: {self.doc_ids[0]: 1.0} for qid in queries}


def test_cross_validate_fits_on_training_folds_only(benchmark, folds):
    made: list[Recorder] = []

    def make():
        made.append(Recorder())
        return made[-1]

    seen = []
    run = cross_validate(make, benchmark, folds, k=7, on_fold=lambda f: seen.append(f.index))
    assert seen == [f.index for f in folds]
    assert set(run) == {q.id for q in benchmark.queries}

    calls = [c for r in made for c in r.calls]
    assert calls[0] == ("index", len(benchmark.corpus))
    fits = [c for c in calls if c[0] == "fit"]
    searches = [c for c in calls if c[0] == "search"]
    assert len(fits) == len(searches) == len(folds)
    # each fold: fit, then search, in that order
    assert [c[0] for c in calls[1:]] == ["fit", "search"] * len(folds)

    all_ids = {q.id for q in benchmark.queries}
    texts = benchmark.query_texts
    for fold, (_, fit_ids, fit_qrels, train), (_, searched, k) in zip(folds, fits, searches):
        test = set(fold.test_ids)
        assert fit_ids == all_ids - test, f"fit for {fold.describe()} was given the wrong queries"
        assert not fit_qrels & test, f"test qrels of {fold.describe()} reached fit"
        assert fit_qrels == {q for q in benchmark.qrels if q not in test}
        assert train.corpus is benchmark.corpus
        # search gets the test fold's ids and texts: plain strings, nothing else
        assert searched == {q: texts[q] for q in fold.test_ids}
        assert all(type(v) is str for v in searched.values())
        assert k == 7


def test_cross_validate_never_fits_a_retriever_that_does_not_learn(benchmark, folds):
    class Plain(Retriever):
        name = "plain"

        def _index(self, corpus):
            pass

        def search(self, queries, k=100, progress=None):
            return {q: {} for q in queries}

        def fit(self, train):  # pragma: no cover - must never run
            raise AssertionError("fit called on a retriever that does not learn")

    run = cross_validate(Plain, benchmark, folds)
    assert set(run) == {q.id for q in benchmark.queries}


@pytest.mark.parametrize("fraction", [0.25, 0.5, 0.75])
def test_a_share_of_the_training_folds_is_whole_span_groups_and_no_test_query(benchmark, folds, fraction):
    """The learning curve's smaller training sets: about ``fraction`` of the other folds' queries, drawn as whole
    span groups (neighbouring VF lines stay together), the same for the same seed and never a test query."""
    for fold in folds:
        train = [q for q in benchmark.queries if q.id not in set(fold.test_ids)]
        ids = training_ids(benchmark, fold, fraction, seed=1)
        assert not set(ids) & set(fold.test_ids)
        assert fraction * len(train) <= len(ids) < fraction * len(train) + max(len(g) for g in span_groups(train))
        for group in span_groups(train):
            assert len({q.id for q in group} & set(ids)) in (0, len(group))
        assert ids == training_ids(benchmark, fold, fraction, seed=1)
        assert set(ids) != set(training_ids(benchmark, fold, fraction, seed=2))
    assert training_ids(benchmark, folds[0]) == [q.id for q in benchmark.queries if q.id not in set(folds[0].test_ids)]


@pytest.mark.parametrize("fraction", [0, -0.5, 1.5])
def test_a_share_outside_zero_to_one_is_refused(benchmark, fraction):
    with pytest.raises(ValueError, match="fraction must be in"):
        sample_groups(benchmark.queries, fraction)


def test_121_queries_share_a_vf_line_with_another(benchmark):
    """The README's reason for the span-group interval: queries overlap (a figure it quotes)."""
    from collections import Counter

    lines = Counter(n for q in benchmark.queries for n in range(q.line_start, q.line_end + 1))
    assert sum(any(lines[n] > 1 for n in range(q.line_start, q.line_end + 1)) for q in benchmark.queries) == 121
    assert len(span_groups(benchmark.queries, MIN_GAP)) == 44


def test_the_span_groups_weigh_as_about_15_equal_ones(benchmark):
    """The README's reason why the span-group interval runs narrow: 44 groups of very unequal size."""
    sizes = [len(g) for g in span_groups(benchmark.queries, MIN_GAP)]
    assert max(sizes) == 69 and round(sum(sizes) ** 2 / sum(n * n for n in sizes)) == 15  # Kish's effective number
