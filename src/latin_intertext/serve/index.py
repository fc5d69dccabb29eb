"""A lemma BM25 of all Tesserae-la, cached on disk: bm25s's index, whose documents x lemmas matrix already holds each
BM25 weight, so a search adds up the columns of the query's distinct lemmas and costs time in proportion to how
many lines hold them, not to the corpus size.
"""

from __future__ import annotations

import json
import pickle
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Callable, Iterator, Sequence

import bm25s
import numpy as np

from latin_intertext import latin
from latin_intertext.benchmark import CorpusLine
from latin_intertext.errors import LatinIntertextError
from latin_intertext.outputs import atomic_dir
from latin_intertext.paths import indexes_dir
from latin_intertext.retrieve.bm25 import BM25
from latin_intertext.serve.corpora import Corpus

INDEX_VERSION = 11  # 2: pinned files only; blank lines listed, unpinned files reported; 3: names read at line openings; 4: long lines searched as their phrases; 5: phrases of over 40 words cut after commas, none cut inside brackets; 6: a duplicate citation is one whose section repeats too, and a file of several works cites by section; 7: lemmatiser 8, lines run together read as two; 8: a line's length counted in words, not in tokens between spaces; 9: bm25s's own index files; 10: no empty section (`-x-`) in the ids of a file of several work tags; 11: a repeated citation's locus says which of its lines it is ("1.5 (2nd so cited)")
SPARSE_RETRIEVER = "bm25-lemma-sparse"
FORM_BONUS = 0.25  # how much more a line scores per query word it writes in the query's own form, times the lemma's idf
FORM_BONUS_DEPTH = 2000  # how many of a search's best lines are checked for the query's own forms
TESSERAE_INDEX = "tesserae-la"


def bm25_idf(n_docs: int, df: np.ndarray) -> np.ndarray:
    """Lucene's BM25 idf, never negative: log(1 + (N - df + 0.5) / (df + 0.5))."""
    return np.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))


def _told(corpus: Sequence[CorpusLine], progress: Callable[[int], None] | None, every: int = 5000) -> Iterator[CorpusLine]:
    """The lines of ``corpus``, telling ``progress`` of each ``every`` lines taken, and of the rest at the end."""
    for i, line in enumerate(corpus):
        yield line
        if progress and i % every == every - 1:
            progress(every)
    if progress:
        progress(len(corpus) % every)


class SparseLemmaBM25(BM25):
    """bm25s's lemma BM25 (as ``bm25-lemma``), cached on disk and read as a search of all Tesserae-la's 480,000 lines needs.

    Where it differs from ``bm25-lemma``: the scores keep Robertson's numerator (k1 + 1), which bm25s's Lucene
    variant leaves out, so that the form bonus below keeps its weight against them; each query lemma counts once
    however often the passage repeats it; and the passage's lemmas are read as filed (:func:`latin.filed_lemmas`).
    It is ranked against no gold, so it is on no leaderboard.

    Lines are read one by one, so a capital opening a line says nothing of a name; the forms the corpus
    capitalises inside its sentences (``names``, :func:`latin.name_forms`) are read as names there too, in
    the lines and in the passages searched (*Aeneas* opening either is *aeneas*, *Inde* stays *inde*).

    A line that writes a query word in the query's own form scores ``form_bonus`` times that lemma's idf more
    (among its ``FORM_BONUS_DEPTH`` best lines): the same form is the stronger evidence, as the evidence ranker
    weighs it (its exact-form channel; Tesserae v3's score has no form term), so *media nocte* comes before *nox media*. ``form_bonus=0`` is plain lemma BM25.
    """

    name = SPARSE_RETRIEVER

    def __init__(self, k1: float = 1.2, b: float = 0.75, form_bonus: float = FORM_BONUS):
        super().__init__(k1, b)
        self.form_bonus = form_bonus
        self.names: frozenset[str] = frozenset()
        self._idf: np.ndarray | None = None

    def _terms(self, text: str) -> list[str]:
        return latin.lemmas(text, self.names)

    def _index(self, corpus: Sequence[CorpusLine], progress: Callable[[int], None] | None = None) -> None:
        self.names = latin.name_forms(d.text for d in corpus)
        self._idf = None  # of the corpus indexed before, if any
        super()._index(_told(corpus, progress))

    def index(self, corpus: Sequence[CorpusLine], progress: Callable[[int], None] | None = None) -> "SparseLemmaBM25":
        self.corpus = corpus
        self.doc_ids = [d.id for d in corpus]
        self._index(corpus, progress)
        return self

    def _query_terms(self, text: str) -> list[int]:
        return sorted({self._vocab[t] for t in latin.filed_lemmas(text, self.names) if t in self._vocab})

    def score_all(self, text: str) -> np.ndarray:
        terms = self._query_terms(text)
        if not terms:
            return np.zeros(len(self.doc_ids))
        scores = self._model.get_scores(terms).astype(np.float64) * (self.k1 + 1.0)
        if self.form_bonus:
            self._add_form_bonus(text, scores)
        return scores

    def _add_form_bonus(self, text: str, scores: np.ndarray) -> None:
        """Raise, in place, the best lines that write query words in the query's own forms (see the class)."""
        idf = self._lemma_idf()
        weight_of_form: dict[str, float] = {}
        for t in latin.tokenize(text, self.names):
            if (c := self._vocab.get(t.lemma)) is not None:
                weight_of_form[t.norm] = max(weight_of_form.get(t.norm, 0.0), float(idf[c]))
        best = np.flatnonzero(scores > 0)
        if len(best) > FORM_BONUS_DEPTH:
            best = best[np.argpartition(-scores[best], FORM_BONUS_DEPTH)[:FORM_BONUS_DEPTH]]
        for i in best:
            scores[i] += self.form_bonus * sum(weight_of_form.get(form, 0.0) for form in set(latin.forms(self.corpus[i].text)))

    def _lemma_idf(self) -> np.ndarray:
        """Each lemma's BM25 idf, from how many lines hold it (the lines bm25s scores for it)."""
        if self._idf is None:
            df = np.diff(self._model.scores["indptr"]).astype(np.float64)
            self._idf = bm25_idf(len(self.doc_ids), df)
        return self._idf

    # --- cache -----------------------------------------------------------------------------------------
    def save(self, folder: Path) -> None:
        self._model.save(folder)  # bm25s's own files: its score matrix as .npy, its parameters and the vocabulary as JSON
        (folder / "names.json").write_text(json.dumps(sorted(self.names), ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, folder: Path, corpus: Corpus, k1: float, b: float) -> "SparseLemmaBM25":
        self = cls(k1, b)
        self._model = bm25s.BM25.load(folder)
        self._vocab = self._model.vocab_dict
        self.names = frozenset(json.loads((folder / "names.json").read_text(encoding="utf-8")))
        self.corpus = corpus.lines
        self.doc_ids = [d.id for d in corpus.lines]
        return self


def index_dir(name: str = TESSERAE_INDEX) -> Path:
    return indexes_dir() / name


@dataclass(frozen=True)
class IndexMeta:
    """An index's ``meta.json``: what it holds, what built it and how (its lemmatiser and format are checked on loading)."""

    files: int
    fingerprint: str  # of the indexed files' names and sizes
    build_seconds: float
    lines: int  # lines searched, whole or as their phrases
    units: int  # what is searched: the lines, long ones cut into their phrases
    names: int  # forms read as names wherever they stand (SparseLemmaBM25.names)
    counts: dict[str, int]  # the corpus report's counts: lines, blank, malformed, ...
    built: str
    k1: float
    b: float
    version: int = INDEX_VERSION
    lemmatiser: int = latin.LEMMATISER_VERSION
    retriever: str = SPARSE_RETRIEVER


def save_index(folder: Path, corpus: Corpus, retriever: SparseLemmaBM25, *, fingerprint: str, files: int, build_seconds: float) -> IndexMeta:
    """Write an index atomically: into a sibling folder, renamed into place only when complete."""
    meta = IndexMeta(files, fingerprint, build_seconds, corpus.report.lines, len(corpus), len(retriever.names), corpus.report.counts(), time.strftime("%Y-%m-%dT%H:%M:%S"), retriever.k1, retriever.b)
    with atomic_dir(folder) as tmp:
        retriever.save(tmp)
        with open(tmp / "corpus.pickle", "wb") as fh:
            pickle.dump(corpus, fh, protocol=pickle.HIGHEST_PROTOCOL)
        (tmp / "report.json").write_text(json.dumps(corpus.report.to_dict(), indent=1, ensure_ascii=False), encoding="utf-8")
        (tmp / "meta.json").write_text(json.dumps(asdict(meta), indent=1), encoding="utf-8")
    return meta


def load_index(folder: Path) -> tuple[Corpus, SparseLemmaBM25, IndexMeta]:
    folder = Path(folder).expanduser()
    meta_path = folder / "meta.json"
    if not meta_path.is_file():
        raise LatinIntertextError(f"No Tesserae-la index at {folder}. Build it once with `latin-intertext index-tesserae` (about 8 minutes on two cores), then search again.")
    try:
        raw = json.loads(meta_path.read_text())
        version = raw.get("version")
    except (OSError, ValueError, AttributeError) as exc:
        raise _damaged(folder, exc, meta_path.name) from None
    if version != INDEX_VERSION:
        raise LatinIntertextError(f"The index at {folder} was built by another version (index format {version}, need {INDEX_VERSION}). Rebuild it with `latin-intertext index-tesserae`.")
    latin.require_lemmatiser(raw.get("lemmatiser"), f"The index at {folder}", "some of its lemmas would not meet the query's", "`latin-intertext index-tesserae`")
    try:
        meta = IndexMeta(**{f.name: raw[f.name] for f in fields(IndexMeta)})
        with open(folder / "corpus.pickle", "rb") as fh:
            corpus = pickle.load(fh)
        return corpus, SparseLemmaBM25.load(folder, corpus, meta.k1, meta.b), meta
    except (OSError, EOFError, ValueError, KeyError, TypeError, AttributeError, ImportError, pickle.UnpicklingError) as exc:
        raise _damaged(folder, exc, meta_path.name if isinstance(exc, KeyError) else "") from None


def _damaged(folder: Path, exc: Exception, name: str = "") -> LatinIntertextError:
    """A truncated or corrupt index file: name the folder and the command that rebuilds it."""
    where = f"{name}: " if name else ""
    return LatinIntertextError(
        f"The Tesserae-la index at {folder} is damaged or incomplete ({where}{type(exc).__name__}: {exc}). "
        "Rebuild it with `latin-intertext index-tesserae`, then search again."
    )
