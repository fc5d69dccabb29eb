"""Time the evidence ranker: cross-validated evaluation, scoring all queries, one query; beside BM25.

    .venv/bin/python bench/bench_ranker.py [--sources DIR] [--background tesserae-la|none] [--vectors default|none|PATH] [--queries 50]

- (a) cross-validated evaluation with training: 5 grouped folds, index + features + 5 x n_models bagged fits (the members of a fold side by side) + search
  + metrics, as `evaluate --retriever evidence-ranker --cv 5` does. Target <= 120 s.
- (b) all 482 queries with a trained model: fit on every query (features cached), then empty the
  feature cache and time a fresh search of every query text. Target <= 15 s.
- (c) one query against the 39,675 lines, empty cache each time: median and p95 over --queries
  different query texts (k=10). Target median <= 100 ms.
- (d) each figure's ratio to BM25 (`make_retriever('bm25')`) timed in this process: index + search of
  all queries for (a) and (b), a single query's median for (c).
- For (a), the CPU time it took (user + system, all threads): the work done, which time stolen by a busy host does not
  inflate, and how far the two CPUs were kept busy.
- Peak RSS of the process after each stage (getrusage), and tracemalloc's peak of Python + numpy
  allocations while scoring one query (an untimed extra pass: tracemalloc slows everything it traces).
The background lemma rarity (tesserae-la) is loaded, from its cache, before the clock starts; word vectors
(`--vectors default`: the ranker with word-vector themes, `evidence-ranker-themes`) are read inside the clock,
as the index reads them.
Benchmark built in memory from the source mirror. Prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

TARGET_CV_S = 120.0
TARGET_ALL_S = 15.0
TARGET_ONE_MS = 100.0
DEFAULT_SOURCES = Path(os.environ.get("LATIN_INTERTEXT_SOURCES", Path(__file__).resolve().parents[1].parent / "shared" / "sources"))


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def cpu_seconds() -> float:
    """User + system CPU time of this process and its threads so far: the work done, which a busy host (time stolen by
    other virtual machines) does not inflate as it inflates wall time."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def verdict(value: float, target: float, unit: str) -> str:
    return f"target <= {target:g} {unit}: {'ok' if value <= target else 'OVER TARGET'}"


def single_query_latencies(retriever, texts: list[str], clear=lambda: None) -> list[float]:
    """Wall time of ``search({q: text}, k=10)`` per text, after ``clear()`` (not timed)."""
    out = []
    for i, text in enumerate(texts):
        clear()
        start = time.perf_counter()
        retriever.search({f"q{i}": text}, 10)
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=Path, default=DEFAULT_SOURCES)
    parser.add_argument("--background", choices=("tesserae-la", "none"), default="none")
    parser.add_argument("--vectors", default="none", help="word vectors for the theme features: default, none or a path")
    parser.add_argument("--queries", type=int, default=50, help="different query texts for the one-query latency")
    args = parser.parse_args()
    if not (args.sources / "MANIFEST.tsv").is_file():
        sys.exit(f"no source mirror at {args.sources}; pass --sources or set LATIN_INTERTEXT_SOURCES")
    os.environ.setdefault("LATIN_INTERTEXT_SOURCES", str(args.sources))
    background = None if args.background == "none" else args.background
    vectors = None if args.vectors == "none" else args.vectors

    from latin_intertext.build.dataset import build_benchmark
    from latin_intertext.evaluate.cv import cross_validate, grouped_folds
    from latin_intertext.evaluate.metrics import evaluate_run
    from latin_intertext.retrieve import make_retriever
    from latin_intertext.retrieve.ranker import EvidenceRanker

    bench, _ = build_benchmark(args.sources)
    texts = bench.query_texts
    step = max(1, len(bench.queries) // args.queries)
    sample = list(dict.fromkeys(q.text for q in bench.queries[::step]))[: args.queries]
    print(f"benchmark: {len(bench.queries)} queries, {len(bench.corpus):,} lines, {sum(map(len, bench.qrels.values()))} qrels; "
          f"background {args.background}; vectors {args.vectors}; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")

    # BM25 reference, same process
    bm25_all, bm25 = timed(lambda: make_retriever("bm25").index(bench.corpus))
    bm25_search, bm25_run = timed(lambda: bm25.search(texts, 1000))
    bm25_all += bm25_search
    bm25_one = statistics.median(single_query_latencies(bm25, sample))
    print(f"bm25 reference: index + search all {bm25_all:.2f} s (search alone {bm25_search:.2f} s), "
          f"one query median {bm25_one * 1000:.1f} ms, nDCG@10 {evaluate_run(bm25_run, bench.qrels).means['ndcg_at_10']:.4f}")

    if background:
        from latin_intertext.sources.tesserae_la import lemma_frequencies

        seconds, _ = timed(lemma_frequencies)
        print(f"background rarity ({background}) loaded in {seconds:.1f} s (not counted below); peak RSS {peak_rss_mib():,.0f} MiB")

    # (a) cross-validated evaluation with training
    made: list[EvidenceRanker] = []
    marks: list[float] = []

    def make() -> EvidenceRanker:
        made.append(EvidenceRanker(background=background, vectors=vectors))
        return made[-1]

    start, cpu_start = time.perf_counter(), cpu_seconds()
    folds = grouped_folds(bench.queries, 5)
    run = cross_validate(make, bench, folds, 1000, on_fold=lambda _f: marks.append(time.perf_counter()))
    ndcg = evaluate_run(run, bench.qrels).means["ndcg_at_10"]
    cv_s, cv_cpu = time.perf_counter() - start, cpu_seconds() - cpu_start
    per_fold = ", ".join(f"{b - a:.1f}" for a, b in zip([start] + marks, marks))
    print(f"(a) 5-fold cross-validated evaluation: {cv_s:.1f} s ({verdict(cv_s, TARGET_CV_S, 's')}); "
          f"index + features + fold 0, then folds 1-4 (fit + search, features cached): {per_fold} s; "
          f"nDCG@10 {ndcg:.4f}; ratio to bm25 index + search {cv_s / bm25_all:.0f}x; CPU {cv_cpu:.1f} s on {os.cpu_count()} CPUs "
          f"(wall x CPUs / CPU: {cv_s * (os.cpu_count() or 1) / cv_cpu:.2f}, 1 when every CPU works throughout); peak RSS {peak_rss_mib():,.0f} MiB")

    # (b) every query with a model trained on every query, empty feature cache
    ranker = made[0]
    fit_s, _ = timed(lambda: ranker.fit(bench))
    ranker.clear_cache()
    all_s, _ = timed(lambda: ranker.search(texts, 1000))
    print(f"(b) search all {len(texts)} queries, trained model, empty cache: {all_s:.1f} s ({verdict(all_s, TARGET_ALL_S, 's')}; "
          f"fit on all queries beforehand {fit_s:.1f} s); ratio to bm25 index + search {all_s / bm25_all:.0f}x, "
          f"to bm25 search {all_s / bm25_search:.0f}x; peak RSS {peak_rss_mib():,.0f} MiB")

    # (c) one query, empty cache each time
    one = single_query_latencies(ranker, sample, ranker.clear_cache)
    med = statistics.median(one) * 1000
    print(f"(c) one query over {len(bench.corpus):,} lines ({len(one)} texts, k=10, empty cache): median {med:.1f} ms, "
          f"p95 {p95(one) * 1000:.1f} ms ({verdict(med, TARGET_ONE_MS, 'ms')}); ratio to bm25 one query {med / 1000 / bm25_one:.0f}x")

    tracemalloc.start()
    peaks = []
    for text in sample[:5]:
        ranker.clear_cache()
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        ranker.search({"q": text}, 10)
        peaks.append(tracemalloc.get_traced_memory()[1] - base)
    tracemalloc.stop()
    print(f"memory: peak RSS {peak_rss_mib():,.0f} MiB; tracemalloc peak of one query's allocations "
          f"median {statistics.median(peaks) / 2**20:.1f} MiB (max {max(peaks) / 2**20:.1f} MiB over {len(peaks)} queries)")


if __name__ == "__main__":
    main()
