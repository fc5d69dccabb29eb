"""The Tesserae Latin corpus (``tesserae-la``, 613 texts and a test fixture left out): read leniently, lemmatised once, cached.

It is the training text for word vectors, the basis of corpus-wide lemma
frequencies (both without :data:`HELD_OUT`, the benchmark's queries' own text) and
(through ``serve.corpora``) the search index. The texts are messy
(byte-order marks, blank lines, odd loci, duplicate citations, some malformed lines).
:func:`read_tess` is the one reader of them: :func:`sources.tess.parse_tess` is strict,
so each file is read with it and, where it reports malformed lines, read again without
them; every malformed, blank, duplicate and empty line is returned in a :class:`TessRead`
and counted in the caller's report (:class:`CorpusReport` here, ``IndexReport`` in
``serve.corpora``), never silently dropped. :func:`source_files` checks files against the
pinned manifest before reading; :func:`pinned_files` lists them and the mirror's unpinned extras.

The lemmatised corpus (lemma ids per line, via :func:`latin.lemmas`) is cached
as one ``.npz`` under ``paths.data_home()/tesserae-la`` keyed by the manifest
hashes, the file limit and :data:`CACHE_VERSION`, so it is computed once.
"""

from __future__ import annotations

import hashlib
import json
import logging
import zipfile
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from latin_intertext import QUERY_FILE_STEM, latin, word_analyses
from latin_intertext.errors import InputError
from latin_intertext.outputs import atomic_files
from latin_intertext.paths import data_home
from latin_intertext.sources.manifest import SourceFile, load_manifest, mirror_from_env, resolve_sources, verify
from latin_intertext.sources.tess import BLANK, DUPLICATE, NO_TEXT, Skipped, TessLine, TessText, parse_tess

COLLECTION = "tesserae-la"
CACHE_VERSION = 4  # bump when the cache's format or the lines read change (latin.LEMMATISER_VERSION covers the lemmas); 3: a duplicate citation is one whose section repeats too; 4: HELD_OUT left out, lines run together read as two


@dataclass
class TessRead:
    """One ``.tess`` file as read: its cited lines and everything left out of them, line by line.

    ``text.skipped`` holds the blank lines and citations without text; duplicate citations (which
    ``parse_tess`` skips, keeping the first) are in ``duplicates`` as lines with a
    ``file:line: duplicate citation ...`` note, for callers that keep them; malformed lines are in
    ``malformed`` as ``file:line: reason``.
    """

    text: TessText
    duplicates: list[tuple[TessLine, str]] = field(default_factory=list)
    malformed: list[str] = field(default_factory=list)

    @property
    def blank_lines(self) -> list[Skipped]:
        return [s for s in self.text.skipped if s.kind == BLANK]

    @property
    def without_text(self) -> list[Skipped]:
        return [s for s in self.text.skipped if s.kind == NO_TEXT]


def read_tess(path: Path, display: str | None = None, lenient: bool = True) -> TessRead:
    """Parse a ``.tess`` file with :func:`parse_tess`, separating its duplicate citations and malformed lines.

    Lenient mode (for Tesserae-la) leaves malformed lines out and returns them; strict mode (for
    users' own files) raises :class:`InputError` naming every malformed ``file:line``.
    """
    name = display or str(path)
    malformed: list[str] = []
    text = parse_tess(path, display=name, split_run_together=lenient, malformed=malformed if lenient else None)
    run_together = [] if lenient else [f"{name}:{t.lineno}: a citation {c} inside the verse: a line break lost?" for t in text.lines if (c := t.inner_citation())]
    if run_together:
        raise InputError(f"{name}: {len(run_together)} line(s) holding two cited lines", run_together, "Break each such line in two at its second citation.")
    text.skipped = [s for s in text.skipped if s.kind != DUPLICATE]  # returned in ``duplicates`` instead
    duplicates = [(d.line, f"{d.line.path}:{d.line.lineno}: duplicate citation {d.line.tess_index} (first at line {d.first_lineno})") for d in text.duplicates]
    return TessRead(text, duplicates, malformed)


# Pinned files that are not Latin texts: left out of everything built from the collection, and reported.
NOT_TEXTS = {f"{COLLECTION}/test.tester.tess": "Tesserae's own test fixture (the first line of the Aeneid), not a text"}
# Pinned texts that nothing is learned from (word vectors, corpus-wide lemma frequencies), though they are searched:
# the benchmark's queries are lines of this text, so statistics drawn from it would have read the queries.
HELD_OUT = {
    f"{COLLECTION}/{QUERY_FILE_STEM}.tess": "the text of the benchmark's queries, left out of the word vectors and lemma "
    "frequencies so that no benchmark figure rests on statistics of its queries' own lines (it is still searched)"
}
# Texts of the upstream collection that the snapshot behind the manifest left out: neither pinned nor searched, and said so.
NOT_IN_SNAPSHOT = {
    f"{COLLECTION}/jerome.vulgate.tess": "Jerome's Vulgate, in tesserae/tesserae at the pinned commit but left out of the "
    "snapshot the sources come from (over the size it keeps): not pinned, so not read, indexed or searched"
}


def not_in_snapshot_notes() -> list[str]:
    """One line per upstream text the collection lacks, for every report of what was read."""
    return [f"{name}: {why}" for name, why in NOT_IN_SNAPSHOT.items()]


def pinned_files(sources: Path | str | None = None) -> tuple[list[Path], list[Path]]:
    """The verified files the manifest pins, and the other ``.tess`` files of the ``tesserae-la/`` folder,
    which nothing reads (their sha256 is not pinned, or they are :data:`NOT_TEXTS`) and callers report as ignored."""
    root, files = source_files(sources)
    pinned = [root / f.local_path for f in files]
    known = set(pinned)
    return pinned, [p for p in sorted((root / COLLECTION).glob("*.tess")) if p not in known]


def ignored_note(path: Path) -> str:
    """Why an unread ``.tess`` file of the collection was left out, for the reports."""
    name = f"{COLLECTION}/{path.name}"
    return f"{name}: {NOT_TEXTS[name]}; ignored" if name in NOT_TEXTS else f"{name}: not in the manifest (its sha256 is not pinned); ignored"


@dataclass
class CorpusReport:
    """What reading the corpus found: counts, and every line left out as ``file:line: reason``."""

    files: int = 0
    lines: int = 0
    words: int = 0
    blank: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # duplicate citations and citations without text
    run_together: list[str] = field(default_factory=list)  # lines holding several citations, read as the lines they hold
    malformed: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # pinned files that are not texts (NOT_TEXTS)
    absent: list[str] = field(default_factory=list)  # upstream texts the snapshot lacks (NOT_IN_SNAPSHOT)
    held_out: list[str] = field(default_factory=list)  # texts not learned from (HELD_OUT)

    def add(self, read: TessRead) -> None:
        """Count one file as read by :func:`read_tess`."""
        self.files += 1
        self.lines += len(read.text.lines)
        self.blank.extend(map(str, read.blank_lines))
        self.skipped.extend([note for _, note in read.duplicates] + [str(s) for s in read.without_text])
        self.malformed.extend(read.malformed)
        self.run_together.extend(read.text.run_together)

    def summary(self) -> str:
        return (
            f"{self.files} files, {self.lines:,} lines, {self.words:,} words; "
            f"{len(self.malformed)} malformed and {len(self.skipped)} skipped lines left out, {len(self.blank)} blank lines"
            + (f", {len(self.run_together)} lines holding several citations read as the lines they hold" if self.run_together else "")
            + (f"; {len(self.ignored)} file(s) ignored" if self.ignored else "")
            + (f"; not in the snapshot: {', '.join(n.split(':')[0] for n in self.absent)}" if self.absent else "")
            + (f"; held out: {', '.join(n.split(':')[0] for n in self.held_out)}" if self.held_out else "")
        )

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class LemmaCorpus:
    """Lemma ids per line: ``ids[offsets[i]:offsets[i + 1]]`` are line ``i``'s lemmas in ``vocab``."""

    vocab: list[str]
    ids: np.ndarray  # int32
    offsets: np.ndarray  # int64, len = n_lines + 1
    report: CorpusReport
    path: Path | None = None  # where it is cached (see :func:`lemmatised_corpus`)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def line(self, i: int) -> list[str]:
        return [self.vocab[j] for j in self.ids[self.offsets[i] : self.offsets[i + 1]]]

    def __iter__(self) -> Iterator[list[str]]:
        for i in range(len(self)):
            yield self.line(i)


@dataclass(frozen=True)
class LemmaFrequencies:
    """Corpus-wide lemma statistics: lines containing a lemma (document frequency) and its token count."""

    doc_freq: dict[str, int]
    token_freq: dict[str, int]
    n_lines: int
    n_tokens: int

    def idf(self, lemma: str) -> float:
        """Smoothed inverse document frequency, ``ln((N + 1) / (df + 1)) + 1``."""
        return float(np.log((self.n_lines + 1) / (self.doc_freq.get(lemma, 0) + 1)) + 1)


def texts_in_manifest(*, learning: bool = False) -> list[SourceFile]:
    """The manifest's files that are texts (not :data:`NOT_TEXTS`), in manifest order; ``learning``: the texts that
    statistics are learned from (word vectors, lemma frequencies), which leave out :data:`HELD_OUT` too."""
    left_out = NOT_TEXTS | HELD_OUT if learning else NOT_TEXTS
    return [f for f in load_manifest(COLLECTION) if f.local_path not in left_out]


def source_files(sources: Path | str | None = None, limit_files: int | None = None, *, learning: bool = False) -> tuple[Path, list[SourceFile]]:
    """The verified source root and the pinned files to read (the first ``limit_files`` in manifest order)."""
    files = texts_in_manifest(learning=learning)
    if limit_files is not None:
        files = files[: max(0, limit_files)]
    mirror = mirror_from_env(sources)
    if mirror is None:
        root = resolve_sources(None, collection=COLLECTION)
    else:
        root = mirror
        verify(root, files, mirror=True)
    return root, files


def read_lines(path: Path, report: CorpusReport, display: str | None = None) -> list[TessLine]:
    """The cited lines of one file (first of each duplicate citation); what was left out is counted in ``report``."""
    read = read_tess(path, display, lenient=True)
    report.add(read)
    return read.text.lines


def _lemma_lines(root: Path, files: list[SourceFile], report: CorpusReport, on_file: Callable[[str], None] | None) -> Iterator[list[str]]:
    report.ignored = [ignored_note(Path(name)) for name in NOT_TEXTS]
    report.absent = not_in_snapshot_notes()
    report.held_out = [f"{name}: {why}" for name, why in HELD_OUT.items()]
    for entry in files:
        for line in read_lines(root / entry.local_path, report, entry.local_path):
            lemmas = latin.lemmas(line.text)
            report.words += len(lemmas)
            if lemmas:
                yield lemmas
        if on_file:
            on_file(entry.local_path)


def _cache_prefix() -> str:
    """The name every lemma cache of this code and lemmatiser starts with; a cache named otherwise is stale."""
    return f"lemmas-v{CACHE_VERSION}-l{latin.LEMMATISER_VERSION}-"


def _cache_path(files: list[SourceFile], limit_files: int | None) -> Path:
    digest = hashlib.sha256()
    digest.update(f"v{CACHE_VERSION}|lemmatiser {latin.LEMMATISER_VERSION}|{limit_files}|".encode())
    for f in files:
        digest.update(f.sha256.encode())
    return data_home() / COLLECTION / f"{_cache_prefix()}{digest.hexdigest()[:16]}.npz"


def drop_stale_caches(folder: Path) -> list[Path]:
    """Remove the lemma caches (and the word-vector text beside each) of other lemmatisers or cache versions: about
    100 MB each, never read again once the lemmatiser has moved on. Returns what was removed."""
    stale = [p for p in folder.glob("lemmas-*") if p.suffix in (".npz", ".txt") and not p.name.startswith(_cache_prefix())]
    for path in stale:
        path.unlink(missing_ok=True)
    return stale


def lemmatised_corpus(
    sources: Path | str | None = None,
    limit_files: int | None = None,
    on_file: Callable[[str], None] | None = None,
) -> LemmaCorpus:
    """The lemmatised corpus, computed once and cached (``on_file`` is called per file when computing)."""
    root, files = source_files(sources, limit_files, learning=True)  # verified once, for the cache key and the reading
    path = _cache_path(files, limit_files)
    if path.is_file():
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                return LemmaCorpus(z["vocab"].tolist(), z["ids"], z["offsets"], CorpusReport(**meta), path)
        except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as exc:  # a damaged cache is ours: made again
            logging.getLogger(__name__).warning(f"{path}: damaged lemma cache ({type(exc).__name__}: {exc}); lemmatising the corpus again")
            path.unlink()
    report = CorpusReport()
    vocab: dict[str, int] = {}
    ids: list[int] = []
    offsets = [0]
    with word_analyses.not_kept():  # this file is the cache of these lines' lemmas
        for lemmas in _lemma_lines(root, files, report, on_file):
            ids.extend(vocab.setdefault(lemma, len(vocab)) for lemma in lemmas)
            offsets.append(len(ids))
    corpus = LemmaCorpus(
        list(vocab), np.asarray(ids, dtype=np.int32), np.asarray(offsets, dtype=np.int64), report, path
    )
    with atomic_files(path) as (tmp,), open(tmp, "wb") as fh:  # a file handle: numpy would add .npz to the name
        np.savez_compressed(
            fh, vocab=np.asarray(corpus.vocab, dtype=str), ids=corpus.ids, offsets=corpus.offsets,
            meta=np.asarray(json.dumps(report.to_dict())),
        )
    drop_stale_caches(path.parent)
    return corpus


@lru_cache(maxsize=4)
def lemma_frequencies(sources: str | None = None, limit_files: int | None = None) -> LemmaFrequencies:
    """Document (line) and token frequencies of every lemma in the (cached) lemmatised corpus."""
    corpus = lemmatised_corpus(sources, limit_files)
    token_counts = np.bincount(corpus.ids, minlength=len(corpus.vocab))
    line_of = np.repeat(np.arange(len(corpus), dtype=np.int64), np.diff(corpus.offsets))
    pairs = np.unique(line_of * len(corpus.vocab) + corpus.ids)
    doc_counts = np.bincount((pairs % len(corpus.vocab)).astype(np.int64), minlength=len(corpus.vocab))
    vocab = corpus.vocab
    return LemmaFrequencies(
        {vocab[i]: int(c) for i, c in enumerate(doc_counts) if c},
        {vocab[i]: int(c) for i, c in enumerate(token_counts) if c},
        len(corpus),
        int(corpus.ids.size),
    )
