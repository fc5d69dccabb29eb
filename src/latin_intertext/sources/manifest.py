"""Pinned upstream source files: where they come from, and proof that a local copy is the right one.

A source root is either a local mirror laid out like ``../shared/sources``
(``--sources DIR`` or ``LATIN_INTERTEXT_SOURCES``) or the download cache that
``latin-intertext fetch`` fills from GitHub at the pinned commit. Either way,
every file is checked against its sha256 before anything reads it.
"""

from __future__ import annotations

import csv
import hashlib
import os
import tempfile
import urllib.request
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Callable, Iterable

from latin_intertext.errors import SourceError
from latin_intertext.outputs import check_output_dir
from latin_intertext.paths import sources_cache_dir

SOURCES_ENV = "LATIN_INTERTEXT_SOURCES"
RAW_URL = "https://raw.githubusercontent.com/{repository}/{commit}/{upstream_path}"
MANIFESTS = {"naacl2021": "manifest.tsv", "tesserae-la": "manifest-tesserae-la.tsv"}


@dataclass(frozen=True)
class SourceFile:
    local_path: str
    bytes: int
    sha256: str
    repository: str
    commit: str
    upstream_path: str

    @property
    def url(self) -> str:
        return RAW_URL.format(**self.__dict__)


def load_manifest(name: str = "naacl2021") -> list[SourceFile]:
    """The pinned files of one source collection (``naacl2021`` or ``tesserae-la``)."""
    if name not in MANIFESTS:
        raise SourceError(f"Unknown source collection {name!r}; choose one of {', '.join(MANIFESTS)} (or all, with `fetch`).")
    text = resources.files("latin_intertext.sources").joinpath(MANIFESTS[name]).read_text("utf-8")
    rows = csv.DictReader(text.splitlines(), delimiter="\t")
    return [SourceFile(**{**row, "bytes": int(row["bytes"])}) for row in rows]


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def mirror_from_env(sources: Path | str | None = None) -> Path | None:
    """The local mirror named by ``--sources`` or ``$LATIN_INTERTEXT_SOURCES``, if any."""
    chosen = sources or os.environ.get(SOURCES_ENV)
    if not chosen:
        return None
    root = Path(chosen).expanduser()
    if not root.is_dir():
        origin = "--sources" if sources else f"${SOURCES_ENV}"
        raise SourceError(f"{origin} points to {root}, which is not a directory. Give the folder that holds naacl2021/ and tesserae-la/.")
    return root


def verify(root: Path, files: Iterable[SourceFile], *, mirror: bool = False) -> None:
    """Raise :class:`SourceError` naming every missing or altered file; read nothing unverified.

    ``mirror``: ``root`` is the user's local mirror, which nothing downloads into, so the fix is to mend it or
    stop using it; the download cache is mended by ``fetch``."""
    problems = []
    for entry in files:
        path = root / entry.local_path
        if not path.is_file():
            problems.append(f"{path}: missing (expected sha256 {entry.sha256})")
            continue
        actual = sha256_of(path)
        if actual != entry.sha256:
            problems.append(f"{path}: sha256 mismatch: expected {entry.sha256}, actual {actual}")
    if problems:
        if mirror:
            fix = (
                f"\n{root} is a local mirror (--sources or ${SOURCES_ENV}), which `latin-intertext fetch` only verifies. Restore these files in it "
                f"from the pinned upstream commits (MANIFEST.tsv gives repository, commit and path), point --sources at an intact mirror, "
                f"or drop --sources and unset {SOURCES_ENV} to download them into the cache with `latin-intertext fetch`."
            )
        else:
            fix = "\nRun `latin-intertext fetch` to download them again from the pinned upstream commits (altered files are replaced), or point --sources at an intact mirror."
        raise SourceError("Source files failed verification:\n  " + "\n  ".join(problems) + fix)


def fetch(files: list[SourceFile], dest: Path, on_file: Callable[[SourceFile], None] | None = None) -> Path:
    """Download every file missing or altered under ``dest``, verifying each before it is moved into place."""
    dest = check_output_dir(dest, None, "downloaded sources", option="--dest")  # a folder added to, never replaced
    for entry in files:
        target = dest / entry.local_path
        if target.is_file() and sha256_of(target) == entry.sha256:
            if on_file:
                on_file(entry)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".partial-")
        os.close(fd)
        try:
            try:
                with urllib.request.urlopen(entry.url, timeout=60) as response, open(tmp, "wb") as out:
                    out.write(response.read())
            except OSError as exc:
                raise SourceError(f"Could not download {entry.url} ({exc}). Use a local mirror with --sources DIR or ${SOURCES_ENV}.") from exc
            actual = sha256_of(Path(tmp))
            if actual != entry.sha256:
                raise SourceError(f"{entry.url}: sha256 mismatch: expected {entry.sha256}, actual {actual}")
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        if on_file:
            on_file(entry)
    return dest


def resolve_sources(sources: Path | str | None = None, collection: str = "naacl2021") -> Path:
    """A verified source root: the mirror if one is given (no network), else the download cache."""
    files = load_manifest(collection)
    mirror = mirror_from_env(sources)
    root = mirror if mirror is not None else sources_cache_dir()
    if mirror is None and not all((root / f.local_path).is_file() for f in files):
        fetch(files, root)
    verify(root, files, mirror=mirror is not None)
    return root
