"""Lemma word vectors: gensim Word2Vec trained on the lemmatised Tesserae Latin corpus.

``train_vectors`` trains and saves :class:`gensim.models.KeyedVectors` under
``paths.models_dir()`` (outside the repository); ``load_vectors`` reads them back
and tells the user to run ``latin-intertext train-vectors`` when they are missing, or
were trained on lemmas of another version of the lemmatiser (recorded in a JSON sidecar).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from latin_intertext.errors import LatinIntertextError
from latin_intertext.latin import LEMMATISER_VERSION, require_lemmatiser
from latin_intertext.outputs import atomic_files, check_outputs
from latin_intertext.paths import models_dir

DEFAULT_NAME = "word2vec-lemmas.kv"


def default_vectors_path() -> Path:
    return models_dir() / DEFAULT_NAME


@dataclass
class TrainingResult:
    path: Path
    vocabulary: int
    lines: int
    words: int
    seconds_lemmatise: float
    seconds_train: float
    corpus_summary: str
    report_path: Path  # the sidecar, which lists every corpus line left out


def _corpus_text_file(corpus) -> Path:
    """The lemmatised corpus as gensim's LineSentence text (one line of space-separated lemmas), cached beside it."""
    path = corpus.path.with_suffix(".txt")
    if not path.is_file():
        with atomic_files(path) as (tmp,), open(tmp, "w", encoding="utf-8") as fh:
            for lemmas in corpus:
                fh.write(" ".join(lemmas))
                fh.write("\n")
    return path


def train_vectors(
    sources: Path | str | None = None,
    *,
    limit_files: int | None = None,
    dim: int = 100,
    epochs: int = 5,
    window: int = 5,
    min_count: int = 3,
    workers: int = 1,
    seed: int = 13,
    out: Path | str | None = None,
    on_file: Callable[[str], None] | None = None,
    on_epoch: Callable[[int], None] | None = None,
) -> TrainingResult:
    """Lemmatise (cached) the corpus, train skip-gram Word2Vec on lemmas and save its KeyedVectors.

    One worker and a fixed string hash make the vectors the same on every run (gensim seeds each word's
    vector from Python's ``hash``, which differs between processes, and threads race): figures built on
    them can be reproduced. More workers train faster but never twice alike.
    """
    from gensim.models import Word2Vec
    from gensim.models.callbacks import CallbackAny2Vec

    from latin_intertext.sources.tesserae_la import lemmatised_corpus

    path = Path(out) if out else default_vectors_path()
    check_outputs(path, _sidecar(path), option="vectors file (--out)")  # before the long run, not after it
    t0 = time.perf_counter()
    corpus = lemmatised_corpus(sources, limit_files, on_file=on_file)
    t1 = time.perf_counter()

    class _Progress(CallbackAny2Vec):
        def __init__(self):
            self.epoch = 0

        def on_epoch_end(self, model):
            self.epoch += 1
            if on_epoch:
                on_epoch(self.epoch)

    # gensim's corpus_file mode reads the text in C, without the GIL-bound Python iterator; with one worker (the
    # default) it gives the same vectors on every run, more workers are faster but not reproducible.
    text_path = _corpus_text_file(corpus)
    model = Word2Vec(
        corpus_file=str(text_path),
        vector_size=dim,
        window=window,
        min_count=min_count,
        sg=1,
        epochs=epochs,
        workers=workers,
        seed=seed,
        hashfxn=stable_hash,
        callbacks=[_Progress()],
    )
    t2 = time.perf_counter()
    save_vectors(model.wv, path, corpus.report.to_dict())
    return TrainingResult(path, len(model.wv), len(corpus), int(corpus.ids.size), t1 - t0, t2 - t1, corpus.report.summary(), _sidecar(path))


def stable_hash(text: str) -> int:
    """The same hash in every process, unlike ``hash`` (salted per process unless PYTHONHASHSEED is set)."""
    return zlib.crc32(text.encode("utf-8"))


def save_vectors(kv, path: Path | str, corpus_report: dict | None = None) -> Path:
    """Save lemma vectors with a sidecar naming the lemmatiser whose lemmas they are keyed by (and, if given, what
    reading their training corpus counted and left out): all files land, or none."""
    path, sidecar = check_outputs(Path(path), _sidecar(Path(path)), option="vectors file")
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{path.name}.partial-{os.getpid()}-", dir=path.parent))  # same filesystem: parts are renamed, not copied
    try:
        kv.save(str(scratch / path.name))  # gensim puts large arrays in files named after it (NAME.vectors.npy)
        parts = sorted(scratch.iterdir())
        with atomic_files(*(path.with_name(part.name) for part in parts), sidecar) as tmps:
            for part, tmp in zip(parts, tmps):
                shutil.move(part, tmp)  # a rename (a copy only if a symlinked target lies on another filesystem)
            tmps[-1].write_text(_provenance(corpus_report), encoding="utf-8")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return path


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".json")


def _provenance(corpus_report: dict | None = None) -> str:
    """The sidecar's text: which lemmatiser's lemmas the vectors are keyed by, and the training corpus's report."""
    return json.dumps({"lemmatiser": LEMMATISER_VERSION} | ({"corpus": corpus_report} if corpus_report else {}), indent=1) + "\n"


def load_vectors(path: Path | str | None = None):
    """The saved lemma vectors (gensim KeyedVectors); a LatinIntertextError says how to make them if missing or stale."""
    path = Path(path) if path else default_vectors_path()
    how = "(add --limit-files N for a quick small model)"
    if not path.is_file():
        raise LatinIntertextError(f"No word vectors at {path}. Train them first: `latin-intertext train-vectors` {how}.")
    sidecar = _sidecar(path)
    retrain = f"`latin-intertext train-vectors` {how}"
    try:
        made_by = json.loads(sidecar.read_text(encoding="utf-8")).get("lemmatiser") if sidecar.is_file() else None
    except (ValueError, AttributeError) as exc:
        raise LatinIntertextError(f"{sidecar} (the provenance of {path.name}) is damaged ({exc}); retrain the vectors with {retrain}.") from exc
    require_lemmatiser(made_by, f"The word vectors at {path} (as {sidecar.name} records)", "some lemmas would find no vector", retrain)
    from gensim.models import KeyedVectors

    try:
        return KeyedVectors.load(str(path), mmap="r")
    except Exception as exc:  # a truncated pickle or array file: gensim raises whatever its reader met
        raise LatinIntertextError(f"The word vectors at {path} are damaged ({type(exc).__name__}: {exc}); retrain them with {retrain}.") from exc


def unit_vectors(kv, words: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """L2-normalised vectors of the ``words`` the model knows, and a mask of which it knows."""
    known = np.array([w in kv.key_to_index for w in words], dtype=bool)
    vectors = np.zeros((len(words), kv.vector_size), dtype=np.float32)
    if known.any():
        vectors[known] = normalised_rows(kv[[w for w, k in zip(words, known) if k]])
    return vectors, known


def normalised_rows(rows: np.ndarray) -> np.ndarray:
    """Each row scaled to unit length; all-zero rows stay zero."""
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms == 0, 1, norms)
