"""The bench scripts run to the end (their figures are printed, never asserted: speed is no test's business), so a
renamed function cannot leave a bench broken until someone times the project. Each runs in a cache folder of its
own, as the cold runs remove the kept word analyses."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import REPO


def _bench(script: str, *args: str, home) -> str:
    env = {**os.environ, "LATIN_INTERTEXT_HOME": str(home), "COLUMNS": "200"}
    done = subprocess.run([sys.executable, str(REPO / "bench" / script), *args], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.slow
def test_bench_build_times_cold_and_warm_builds(tmp_path, sources_dir):
    out = _bench("bench_build.py", "--sources", str(sources_dir), "--runs", "1", home=tmp_path)
    assert "1 cold and 1 warm runs in turn" in out
    assert [line.split()[0] for line in out.splitlines()[1:3]] == ["cold", "warm"]


@pytest.mark.slow
def test_bench_evaluate_times_a_retriever_cold_and_warm(tmp_path, dataset_dir):
    out = _bench("bench_evaluate.py", "--dataset", str(dataset_dir), "--retriever", "bm25", "--no-leaderboard", home=tmp_path)
    rows = [line.split() for line in out.splitlines() if line.startswith("evaluate --retriever bm25")]
    assert [row[3] for row in rows] == ["cold", "warm"] and "target <= 5 s:" in out
    assert "failed" not in out and all(row[4] != "-" for row in rows)  # a figure in each row
