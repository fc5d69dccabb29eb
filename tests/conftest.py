"""Shared fixtures: the real sources in ../shared/sources, the in-memory benchmark and a built folder."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SOURCES = Path(os.environ.get("LATIN_INTERTEXT_SOURCES", REPO.parent / "shared" / "sources"))  # the real sources
FIXTURES = Path(__file__).parent / "fixtures"


def squash(text: str) -> str:
    """Rich wraps long lines on a non-terminal; compare text with whitespace removed."""
    return re.sub(r"\s+", "", text)


def skip_or_fail(message: str):
    """Skip a test whose requirement is missing, but fail under CI (the env var CI set): CI must run every test, never skip one."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message, allow_module_level=True)


def importorskip_unless_ci(name: str):
    """``pytest.importorskip(name)``, except that under CI a missing module fails the test (see :func:`skip_or_fail`)."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError as exc:
        skip_or_fail(f"{name} is not installed ({exc}); install the extra that provides it")


@pytest.fixture(scope="session")
def sources_dir() -> Path:
    root = SOURCES
    if not (root / "MANIFEST.tsv").is_file():
        pytest.fail(f"real sources not found at {root}; set LATIN_INTERTEXT_SOURCES")
    return root


@pytest.fixture(scope="session")
def benchmark(sources_dir):
    """The benchmark built in memory from the real sources."""
    from latin_intertext.build.dataset import build_benchmark

    bench, _report = build_benchmark(sources_dir)
    return bench


@pytest.fixture(scope="session")
def dataset_dir(sources_dir, tmp_path_factory) -> Path:
    """A folder written by the real build (parquet, BEIR, card, checksums)."""
    from latin_intertext.publish.writer import build_dataset

    out = tmp_path_factory.mktemp("published") / "LatinEpicIntertextualityRetrieval"
    build_dataset(sources_dir, out)
    return out


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """Keep caches (models, indexes, datasets' cache) out of the user's home during tests."""
    home = tmp_path_factory.getbasetemp() / "home"
    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(home))
    monkeypatch.setenv("HF_DATASETS_CACHE", str(home / "hf-datasets"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


# Each output option of the commands that read the dataset, written under the folder ``{dir}``.
WRITERS = [
    ["evaluate", "--retriever", "bm25", "--save-json", "{dir}/x.json"],
    ["evaluate", "--retriever", "bm25", "--save-run", "{dir}/x.run"],
    ["compare", "{a}", "{b}", "--save-json", "{dir}/x.json"],
    ["leaderboard", "--out", "{dir}/lb.md"],
    ["ranker-report", "--save-run", "{dir}/x.run"],
    ["transfer-report", "--save-run", "{dir}/x.run"],
    ["train-ranker", "--out", "{dir}/m.txt"],
]


def synonym_vectors(texts, path) -> str:
    """Random 16-d lemma vectors for the lemmas of ``texts``, where nauis/ratis, aequor/unda and ueho/duco are synonyms."""
    import numpy as np
    from gensim.models import KeyedVectors

    from latin_intertext import latin
    from latin_intertext.vectors import save_vectors

    lemmas = sorted({l for t in texts for l in latin.lemmas(t)})
    vectors = np.random.default_rng(0).normal(size=(len(lemmas), 16)).astype(np.float32)
    for word, synonym in (("nauis", "ratis"), ("aequor", "unda"), ("ueho", "duco")):
        vectors[lemmas.index(word)] = vectors[lemmas.index(synonym)]
    kv = KeyedVectors(16)
    kv.add_vectors(lemmas, vectors)
    return str(save_vectors(kv, path))


@pytest.fixture(scope="session")
def trained_model(benchmark, tmp_path_factory) -> Path:
    """The search model, trained on the whole benchmark as `train-ranker` does, in a home of its own
    (``path.parents[1]``): a test that wants `search` to find it points LATIN_INTERTEXT_HOME there, so the
    default retriever of every other test does not depend on the order tests run in."""
    from latin_intertext.retrieve.ranker import EvidenceRanker

    path = tmp_path_factory.mktemp("model-home") / "models" / "evidence_ranker.txt"
    EvidenceRanker().index(benchmark.corpus).fit(benchmark).save(path)
    return path
