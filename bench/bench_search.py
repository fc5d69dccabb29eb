"""Time the search tool: latency of one search over the benchmark and over all of Tesserae-la, index build, memory.

    .venv/bin/python bench/bench_search.py [--sources DIR] [--queries 50] [--retriever NAME] [--reuse-index]

- Benchmark corpus (39,675 lines), the search tool's default retriever (or --retriever): median and p95
  wall time of ``Searcher.search(text, k=10)`` (scoring, top 10, explained matches, context) over the
  texts of the first N benchmark queries. Target: median <= 100 ms.
- Tesserae-la (613 texts, ~481k lines): the cached lemma-BM25 index (bm25s). Build time
  of the full index (target <= 5 min; --reuse-index skips it and loads the cache), then the same latency
  figures (target: median <= 500 ms).
- Peak RSS of this process (target < 6 GiB).
- Reference runs, timed in this process: scoring alone (the retriever's scores for the same texts, no
  explanation) for each latency, and reading + hashing the 613 source texts for the build. The ratios
  say what searching costs over bare scoring, and building over bare I/O, on this machine.
Prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

TARGET_BENCH_MS = 100.0
TARGET_TESSERAE_MS = 500.0
TARGET_BUILD_S = 300.0
TARGET_BYTES = 6 << 30
DEFAULT_SOURCES = Path(os.environ.get("LATIN_INTERTEXT_SOURCES", Path(__file__).resolve().parents[1].parent / "shared" / "sources"))


def latencies(fn, texts: list[str], retriever, warmup: int = 3) -> list[float]:
    """Seconds per text, each searched cold: the retriever forgets every earlier text first (its per-passage cache)."""
    for text in texts[:warmup]:
        fn(text)
    out = []
    for text in texts:
        retriever.clear_cache()
        start = time.perf_counter()
        fn(text)
        out.append(time.perf_counter() - start)
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def report(label: str, searched: list[float], reference: list[float], target_ms: float) -> None:
    med, ref = statistics.median(searched) * 1000, statistics.median(reference) * 1000
    verdict = "ok" if med <= target_ms else "OVER TARGET"
    print(f"{label}: median {med:.1f} ms, p95 {p95(searched) * 1000:.1f} ms (target median <= {target_ms:.0f} ms: {verdict}); "
          f"reference scoring alone median {ref:.1f} ms, ratio {med / max(ref, 1e-9):.2f}x")


def read_and_hash(files: list[Path]) -> float:
    import hashlib

    start = time.perf_counter()
    for path in files:
        hashlib.sha256(path.read_bytes()).hexdigest()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=Path, default=DEFAULT_SOURCES)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--retriever", default=None, help="for the benchmark corpus (default: the search tool's default)")
    parser.add_argument("--reuse-index", action="store_true", help="load the cached Tesserae-la index instead of timing a fresh build")
    args = parser.parse_args()
    if not (args.sources / "MANIFEST.tsv").is_file():
        sys.exit(f"no source mirror at {args.sources}; pass --sources or set LATIN_INTERTEXT_SOURCES")

    from latin_intertext.build.dataset import build_benchmark
    from latin_intertext.sources.tesserae_la import pinned_files
    from latin_intertext.serve.index import index_dir
    from latin_intertext.serve.corpora import describe_lines
    from latin_intertext.serve.searcher import LOOK_PAST_K, Searcher, build_tesserae_index

    bench, _ = build_benchmark(args.sources)
    texts = [q.text for q in bench.queries[: args.queries]]  # query texts only

    start = time.perf_counter()
    searcher = Searcher.from_benchmark(bench, args.retriever)
    print(f"benchmark corpus: {len(searcher.corpus):,} lines, retriever {searcher.retriever_name}, indexed in {time.perf_counter() - start:.1f} s"
          + (f" ({searcher.info.fallback})" if searcher.info.fallback else ""))
    if searcher.info.fallback:
        print("WARNING: these are not the evidence ranker's timings: run `latin-intertext train-ranker` first, or pass --retriever.")
    searched = latencies(lambda t: searcher.search(t, k=10), texts, searcher.retriever)
    scored = latencies(lambda t: searcher.scores(t, 10 + LOOK_PAST_K, None), texts, searcher.retriever)  # as deep as search asks
    report(f"search over the benchmark ({len(texts)} queries)", searched, scored, TARGET_BENCH_MS)

    files, _ = pinned_files(args.sources)
    if args.reuse_index:
        folder, tmp = index_dir(), None
        print(f"Tesserae-la index: reusing {folder}")
    else:
        tmp = tempfile.TemporaryDirectory(prefix="bench-search-")
        folder = Path(tmp.name) / "tesserae-la"
        reference = read_and_hash(files)
        start = time.perf_counter()
        built_index = build_tesserae_index(folder, files=files)
        built = time.perf_counter() - start
        verdict = "ok" if built <= TARGET_BUILD_S else "OVER TARGET"
        print(f"Tesserae-la index build: {built:.1f} s for {built_index.meta.lines:,} lines of {len(files)} files (target <= {TARGET_BUILD_S:.0f} s: {verdict}); "
              f"reference read + sha256 of the files {reference:.2f} s, ratio {built / reference:.0f}x")
    start = time.perf_counter()
    full = Searcher.from_tesserae_la(folder)
    print(f"Tesserae-la index load: {time.perf_counter() - start:.1f} s, {len(full.corpus):,} search units ({describe_lines(full.corpus.report.counts())}), retriever {full.retriever_name}")
    searched = latencies(lambda t: full.search(t, k=10), texts, full.retriever)
    scored = latencies(lambda t: full.scores(t, 10 + LOOK_PAST_K, None), texts, full.retriever)
    report(f"search over Tesserae-la ({len(texts)} queries)", searched, scored, TARGET_TESSERAE_MS)
    if tmp is not None:
        tmp.cleanup()

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(f"peak RSS: {peak / 2**30:.2f} GiB (target < {TARGET_BYTES / 2**30:.0f} GiB: {'ok' if peak < TARGET_BYTES else 'OVER TARGET'})")


if __name__ == "__main__":
    main()
