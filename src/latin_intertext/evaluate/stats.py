"""Uncertainty over queries: bootstrap confidence intervals and paired significance tests.

Queries are the sampling unit (482 of them, a sample of what scholars might ask); where queries cluster (overlapping
or neighbouring VF spans, whose results may be correlated), the ``cluster_`` and ``clusters=`` forms resample whole
clusters instead. With few clusters of unequal size (the benchmark's 44 span groups weigh as about 15 equal ones)
the cluster percentile interval runs somewhat narrow; the cluster sign-flip test stays exact. Resampling is done with weight matrices so that all metrics and all resamples are one matrix
product, not a Python loop.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

SEED = 20210601  # fixed so that reported intervals are reproducible
RESAMPLES = 10_000
# Below this many values (queries, or queries that differ) a percentile bootstrap interval is too unstable to read:
# over so few it runs narrow, and can leave out 0 where a difference is no more than chance.
FEW_FOR_BOOTSTRAP = 20


@dataclass(frozen=True)
class Interval:
    low: float
    high: float

    def as_list(self) -> list[float]:
        return [self.low, self.high]

    def __format__(self, spec: str) -> str:
        """``f"{ci:+.4f}"`` is ``[-0.0100, +0.0300]``: both ends in the given format, as every table prints them."""
        return f"[{self.low:{spec}}, {self.high:{spec}}]"


@dataclass(frozen=True)
class PairedTest:
    """A paired comparison of run A against run B on one metric (difference = A - B)."""

    metric: str
    mean_a: float
    mean_b: float
    diff: float
    ci95: Interval
    p_randomization: float
    p_bootstrap: float
    ci95_clusters: Interval | None = None  # resampling whole clusters (span groups), when clusters were given
    p_randomization_clusters: float | None = None  # signs flipped per cluster



def _bootstrap_weights(n: int, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """(resamples x n) counts of how often each query is drawn in each bootstrap sample.

    Drawn as indices and counted with one bincount: several times faster than ``rng.multinomial``.
    """
    draws = rng.integers(0, n, size=(resamples, n)) + (np.arange(resamples) * n)[:, None]
    return np.bincount(draws.ravel(), minlength=resamples * n).reshape(resamples, n).astype(np.float64)


def bootstrap_ci(values: np.ndarray, resamples: int = RESAMPLES, seed: int = SEED, level: float = 0.95) -> list[Interval]:
    """Percentile bootstrap interval of the mean for each column of ``values`` (queries x metrics)."""
    values = _columns(values)
    n = values.shape[0]
    if n == 0:
        return [Interval(0.0, 0.0)] * values.shape[1]
    means = _bootstrap_weights(n, resamples, np.random.default_rng(seed)) @ values / n
    return _percentile_intervals(means, level)


def _columns(values: np.ndarray) -> np.ndarray:
    """``values`` as a (rows x columns) float array: one metric given as a vector is one column."""
    return np.atleast_2d(np.asarray(values, dtype=np.float64).T).T


def _percentile_intervals(means: np.ndarray, level: float) -> list[Interval]:
    """Per column of resampled ``means`` (resamples x columns), the central ``level`` interval."""
    alpha = (1 - level) / 2
    low, high = np.quantile(means, [alpha, 1 - alpha], axis=0)
    return [Interval(float(lo), float(hi)) for lo, hi in zip(low, high)]


def cluster_bootstrap_ci(
    values: np.ndarray, clusters: Sequence[int], resamples: int = RESAMPLES, seed: int = SEED, level: float = 0.95
) -> list[Interval]:
    """Percentile bootstrap interval of the mean per column, resampling whole ``clusters`` (one id per row) instead of
    rows: queries of one cluster (overlapping or neighbouring VF spans) are not independent, and resampling them one
    by one narrows the interval. Each resample's mean is over the queries its clusters hold."""
    values = _columns(values)
    if values.shape[0] == 0:
        return [Interval(0.0, 0.0)] * values.shape[1]
    ids, member = np.unique(np.asarray(clusters), return_inverse=True)
    drawn = _bootstrap_weights(len(ids), resamples, np.random.default_rng(seed))  # (resamples, clusters) counts
    weights = drawn[:, member]  # each query weighs as often as its cluster is drawn
    return _percentile_intervals(weights @ values / weights.sum(axis=1, keepdims=True), level)


def randomization_test(diff: np.ndarray, resamples: int = RESAMPLES, seed: int = SEED) -> float:
    """Two-sided paired randomization (sign-flip) test of mean(diff) = 0; add-one smoothed p-value."""
    diff = np.asarray(diff, dtype=np.float64)
    if not diff.size or not np.any(diff):
        return 1.0
    signs = np.random.default_rng(seed).choice(np.array([-1.0, 1.0]), size=(resamples, diff.size))
    observed = abs(diff.mean())
    null = np.abs(signs @ diff) / diff.size
    return float((1 + np.count_nonzero(null >= observed - 1e-12)) / (resamples + 1))


def cluster_randomization_test(diff: np.ndarray, clusters: Sequence[int], resamples: int = RESAMPLES, seed: int = SEED) -> float:
    """:func:`randomization_test` with one sign per cluster: under the null of no difference, a cluster's queries
    swap systems together (their results may be correlated), so only whole clusters' sums change sign."""
    diff = np.asarray(diff, dtype=np.float64)
    if not diff.size or not np.any(diff):
        return 1.0
    ids, member = np.unique(np.asarray(clusters), return_inverse=True)
    sums = np.bincount(member, weights=diff, minlength=len(ids))
    signs = np.random.default_rng(seed).choice(np.array([-1.0, 1.0]), size=(resamples, len(ids)))
    observed = abs(diff.sum())
    null = np.abs(signs @ sums)
    return float((1 + np.count_nonzero(null >= observed - 1e-9)) / (resamples + 1))


def paired_bootstrap_p(diff: np.ndarray, resamples: int = RESAMPLES, seed: int = SEED) -> float:
    """Two-sided paired bootstrap p-value: how often the centred resampled mean is as extreme as observed."""
    diff = np.asarray(diff, dtype=np.float64)
    if not diff.size or not np.any(diff):
        return 1.0
    means = _bootstrap_weights(diff.size, resamples, np.random.default_rng(seed)) @ diff / diff.size
    observed = diff.mean()
    return float((1 + np.count_nonzero(np.abs(means - observed) >= abs(observed) - 1e-12)) / (resamples + 1))


def paired_test(
    metric: str, a: np.ndarray, b: np.ndarray, resamples: int = RESAMPLES, seed: int = SEED, clusters: Sequence[int] | None = None
) -> PairedTest:
    """Compare per-query values ``a`` and ``b`` (aligned on the same queries); with ``clusters`` (one id per query),
    also by resampling and sign-flipping whole clusters."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"paired values differ in length: {a.shape} vs {b.shape}")
    if clusters is not None and len(clusters) != a.size:
        raise ValueError(f"{len(clusters)} cluster ids for {a.size} paired values")
    diff = a - b
    return PairedTest(
        metric,
        float(a.mean()),
        float(b.mean()),
        float(diff.mean()),
        bootstrap_ci(diff, resamples, seed)[0],
        randomization_test(diff, resamples, seed),
        paired_bootstrap_p(diff, resamples, seed),
        None if clusters is None else cluster_bootstrap_ci(diff, clusters, resamples, seed)[0],
        None if clusters is None else cluster_randomization_test(diff, clusters, resamples, seed),
    )


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the given order: each row of a table of tests can then be read
    against 0.05 whatever the number of rows tested."""
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    adjusted = np.empty_like(p)
    adjusted[order] = np.maximum.accumulate(np.minimum(1.0, (p.size - np.arange(p.size)) * p[order]))
    return adjusted.tolist()


def at_floor(p: float, resamples: int = RESAMPLES) -> bool:
    """Whether no resample was as extreme as observed: the add-one p-value 1/(N+1) then only bounds p."""
    return p <= 1 / (resamples + 1) + 1e-12


def format_p(p: float, resamples: int = RESAMPLES, raw: float | None = None) -> str:
    """A p-value to 4 decimals, or a bound ("≤ 0.0001" for 10,000 resamples, rounded up) at the resampling floor.
    ``raw``: the unadjusted p of an adjusted ``p``, which is a bound too when ``raw`` is at the floor."""
    if at_floor(p if raw is None else raw, resamples):
        return f"≤ {math.ceil(p * 10_000) / 10_000:.4f}"
    return f"{p:.4f}"
