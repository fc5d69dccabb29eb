"""Bootstrap intervals and paired tests: against scipy, on known cases, reproducible."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sp

from latin_intertext.evaluate.stats import Interval, bootstrap_ci, format_p, holm, paired_bootstrap_p, paired_test, randomization_test


def test_bootstrap_ci_matches_scipy_percentile_interval():
    values = np.random.default_rng(1).beta(0.5, 2.0, size=482)
    ours = bootstrap_ci(values, 10_000)[0]
    ref = sp.bootstrap((values,), np.mean, n_resamples=10_000, method="percentile", rng=np.random.default_rng(2)).confidence_interval
    assert ours.low == pytest.approx(ref.low, abs=0.004) and ours.high == pytest.approx(ref.high, abs=0.004)
    assert ours.low < values.mean() < ours.high


def test_bootstrap_ci_is_the_2_5_and_97_5_percentiles_of_the_resampled_means():
    """The level is exact: the same draws, recomputed by hand, give the 95% bounds, and 90% is strictly narrower."""
    from latin_intertext.evaluate.stats import SEED

    values = np.random.default_rng(1).beta(0.5, 2.0, size=200)
    draws = np.random.default_rng(SEED).integers(0, len(values), size=(2000, len(values)))
    means = values[draws].mean(axis=1)
    ours = bootstrap_ci(values, 2000)[0]
    assert (ours.low, ours.high) == (pytest.approx(np.quantile(means, 0.025), abs=1e-12), pytest.approx(np.quantile(means, 0.975), abs=1e-12))
    narrow = bootstrap_ci(values, 2000, level=0.90)[0]
    assert ours.low < narrow.low < narrow.high < ours.high


def test_cluster_bootstrap_resamples_whole_clusters():
    from latin_intertext.evaluate.stats import cluster_bootstrap_ci

    values = np.random.default_rng(5).random(120)
    one_each, plain_ci = cluster_bootstrap_ci(values, range(120), 2000)[0], bootstrap_ci(values, 2000)[0]
    assert (one_each.low, one_each.high) == (pytest.approx(plain_ci.low, abs=1e-12), pytest.approx(plain_ci.high, abs=1e-12))  # the plain bootstrap
    copies = np.repeat(values[:24], 5)  # 24 independent values, each counted five times
    clusters = np.repeat(np.arange(24), 5)
    plain, clustered = bootstrap_ci(copies, 2000)[0], cluster_bootstrap_ci(copies, clusters, 2000)[0]
    independent = bootstrap_ci(values[:24], 2000)[0]
    assert clustered.high - clustered.low > 1.8 * (plain.high - plain.low)  # copies are no new evidence: about sqrt(5) wider
    assert clustered.high - clustered.low == pytest.approx(independent.high - independent.low, rel=0.15)


def test_cluster_bootstrap_of_unequal_clusters_averages_over_the_queries_drawn():
    """Clusters of 1 to 12 queries (the benchmark's span groups are unequal): each resample's mean is over the
    queries its drawn clusters hold, recomputed here draw by draw; dividing by the number of queries instead would
    shift every resample by how many queries its clusters happened to hold."""
    from latin_intertext.evaluate.stats import SEED, cluster_bootstrap_ci

    sizes = [1, 12, 2, 7, 1, 3, 9, 1, 5, 4]
    clusters = np.repeat(np.arange(len(sizes)) * 10 + 3, sizes)[::-1]  # ids need not be 0..k-1, nor rows in cluster order
    values = np.random.default_rng(8).random((len(clusters), 2))
    draws = np.random.default_rng(SEED).integers(0, len(sizes), size=(500, len(sizes)))  # the same draws, by cluster
    ids = np.unique(clusters)
    means = []
    for drawn in draws:
        rows = [i for c in drawn for i in range(len(clusters)) if clusters[i] == ids[c]]
        means.append(values[rows].mean(axis=0))
    ours = cluster_bootstrap_ci(values, clusters, 500)
    for column, interval in enumerate(ours):
        low, high = np.quantile(np.array(means)[:, column], [0.025, 0.975])
        assert (interval.low, interval.high) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))

def test_cluster_randomization_flips_whole_clusters():
    from latin_intertext.evaluate.stats import cluster_randomization_test

    diff = np.random.default_rng(6).normal(0.05, 0.2, size=120)
    assert cluster_randomization_test(diff, range(120), 2000) == randomization_test(diff, 2000)  # one query a cluster: the plain test
    # clusters go with their queries: any order of the pairs gives the same p; clusters shuffled apart from them do not
    clusters = np.repeat(np.arange(12), 10)
    grouped, order = cluster_randomization_test(diff, clusters, 2000), np.random.default_rng(7).permutation(120)
    assert cluster_randomization_test(diff[order], clusters[order], 2000) == grouped
    assert cluster_randomization_test(diff, clusters[order], 2000) != grouped
    # 6 independent gains, each copied 20 times: 120 "queries" look overwhelming one by one, but 6 signs allow only
    # 2^6 = 64 sign patterns, of which 2 are as extreme as observed: p about 2/64
    copies, clusters = np.repeat([0.3, 0.2, 0.25, 0.1, 0.15, 0.2], 20), np.repeat(np.arange(6), 20)
    assert randomization_test(copies, 4000) == pytest.approx(1 / 4001)
    assert cluster_randomization_test(copies, clusters, 4000) == pytest.approx(2 / 64, abs=0.01)


def test_paired_test_with_clusters_adds_span_group_figures_and_checks_their_length():
    a = np.repeat([0.5, 0.4, 0.6, 0.3], 10)
    b = a - np.repeat([0.1, -0.05, 0.2, 0.0], 10)
    plain = paired_test("m", a, b, 1000)
    grouped = paired_test("m", a, b, 1000, clusters=np.repeat(np.arange(4), 10))
    assert plain.ci95_clusters is None and plain.p_randomization_clusters is None
    assert (grouped.diff, grouped.ci95, grouped.p_randomization) == (plain.diff, plain.ci95, plain.p_randomization)
    assert grouped.ci95_clusters.high - grouped.ci95_clusters.low > grouped.ci95.high - grouped.ci95.low
    assert grouped.p_randomization_clusters > 0.1 > plain.p_randomization
    from latin_intertext.evaluate.comparison import test_json

    stored = test_json(grouped)
    assert (stored["ci95_span_groups"], stored["p_randomization_span_groups"]) == (grouped.ci95_clusters.as_list(), grouped.p_randomization_clusters)
    assert stored["ci95"] == grouped.ci95.as_list() and stored["mean_a"] == pytest.approx(a.mean())
    with pytest.raises(ValueError, match="3 cluster ids for 40"):
        paired_test("m", a, b, 100, clusters=[0, 1, 2])


def test_bootstrap_ci_is_per_column_and_reproducible():
    rng = np.random.default_rng(3)
    matrix = np.column_stack([np.full(100, 0.5), rng.random(100), rng.random(100) * 0.1])
    first, second = bootstrap_ci(matrix, 2000), bootstrap_ci(matrix, 2000)
    assert first == second
    assert first[0].low == first[0].high == 0.5
    assert first[2].high - first[2].low < first[1].high - first[1].low
    assert bootstrap_ci(matrix, 2000, seed=4) != first


def test_randomization_test_known_cases():
    rng = np.random.default_rng(5)
    assert randomization_test(np.zeros(50)) == 1.0
    shifted = rng.normal(0.2, 0.1, size=200)
    assert randomization_test(shifted, 5000) == pytest.approx(1 / 5001)
    noise = rng.normal(0.0, 1.0, size=200)
    exact_t = sp.ttest_1samp(noise, 0.0).pvalue
    assert randomization_test(noise, 20_000) == pytest.approx(exact_t, abs=0.03)
    assert paired_bootstrap_p(noise, 20_000) == pytest.approx(exact_t, abs=0.05)


def test_paired_test_reports_difference_and_interval():
    a = np.array([1.0, 0.5, 0.0, 1.0] * 30)
    b = np.array([0.0, 0.5, 0.0, 1.0] * 30)
    t = paired_test("ndcg_at_10", a, b, 5000)
    assert (t.mean_a, t.mean_b, t.diff) == pytest.approx((0.625, 0.375, 0.25))
    assert 0.0 < t.ci95.low < 0.25 < t.ci95.high
    assert t.p_randomization < 0.001 and t.p_bootstrap < 0.001
    with pytest.raises(ValueError):
        paired_test("map", a, b[:-1])


def test_holm_adjusts_by_rank_and_keeps_the_order():
    # sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> 0.06 (never below a smaller p's)
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])  # capped at 1
    assert holm([0.02]) == pytest.approx([0.02]) and holm([]) == []


def test_p_at_the_resampling_floor_is_printed_as_a_bound():
    assert format_p(1 / 10_001) == "≤ 0.0001"  # no resample as extreme: p can only be bounded
    assert format_p(2 / 10_001) == "0.0002" and format_p(0.0329) == "0.0329"
    assert format_p(1 / 1001, 1000) == "≤ 0.0010" and format_p(1 / 1001) == "0.0010"  # the floor depends on the resamples
    assert format_p(20 / 10_001, raw=1 / 10_001) == "≤ 0.0020"  # adjusted from a bound, still a bound (rounded up)
    p = randomization_test(np.random.default_rng(5).normal(0.2, 0.1, size=200), 5000)
    assert format_p(p, 5000) == "≤ 0.0002"


def test_an_interval_prints_both_ends_in_the_format_given():
    assert f"{Interval(-0.01, 0.03):+.4f}" == "[-0.0100, +0.0300]" and f"{Interval(0.34981, 0.41652):.4f}" == "[0.3498, 0.4165]"
