"""Writing results safely: every output path is checked before the work starts, and written whole or not at all."""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from latin_intertext.errors import LatinIntertextError


class OutputError(LatinIntertextError):
    """An output path that cannot be written, or that two outputs would share."""


def _nearest_existing(path: Path) -> Path:
    for parent in path.parents:
        if parent.exists():
            return parent
    return Path(path.anchor or ".")


def check_outputs(*paths: Path | None, option: str = "output") -> list[Path]:
    """Refuse, before any work is done, paths that are folders, lie under a file, cannot be written, or clash.

    ``None`` stands for an output that was not asked for and is skipped."""
    given = [Path(p).expanduser() for p in paths if p is not None]
    seen: dict[Path, Path] = {}
    for path in given:
        resolved = path.resolve()
        if resolved in seen:
            raise OutputError(f"{path}: two outputs would be written to this one file; give each output its own name.")
        seen[resolved] = path
        if resolved.is_dir():
            raise OutputError(f"{path} is a folder; give the {option} a file name, e.g. {path / 'out'}.")
        base = _nearest_existing(resolved)
        if not base.is_dir():
            raise OutputError(f"{path}: {base} is a file, not a folder; choose another place for the {option}.")
        if not os.access(base, os.W_OK):
            raise OutputError(f"{path}: the folder {base} is not writable; choose another place for the {option}.")
    return given


@contextmanager
def atomic_files(*paths: Path) -> Iterator[list[Path]]:
    """Yield one temporary sibling per path; all of them replace their targets only if the block succeeds,
    so a failure (a full disk, an error half-way) leaves neither a truncated file nor half of a set."""
    targets = check_outputs(*paths)
    tmps = []
    try:
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.partial-", dir=target.parent)
            os.close(fd)
            tmps.append(Path(tmp))
        yield tmps
        for tmp, target in zip(tmps, targets):
            tmp.chmod(0o644)
            os.replace(tmp, target)
    finally:
        for tmp in tmps:
            tmp.unlink(missing_ok=True)


@contextmanager
def atomic_file(path: Path) -> Iterator[Path]:
    """One file written whole or not at all (see ``atomic_files``)."""
    with atomic_files(path) as (tmp,):
        yield tmp


def check_output_dir(out: Path, is_ours: Callable[[Path], bool], what: str) -> Path:
    """Refuse to replace a folder that holds something other than an earlier output of the same kind."""
    out = Path(out).expanduser()
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out} is a file; give a folder for the {what} (it would replace the file).")
    if out.is_dir() and any(out.iterdir()) and not is_ours(out):
        raise OutputError(f"{out} is not empty and does not hold a {what}; give a new or empty folder, so nothing of yours is replaced.")
    check_outputs(out / ".probe", option=what)
    return out


@contextmanager
def atomic_dir(out: Path) -> Iterator[Path]:
    """Yield a temporary folder beside ``out``; on success it replaces ``out``, on failure it vanishes."""
    out = Path(out).expanduser().resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    tmp.chmod(0o755)
    try:
        yield tmp
        if out.exists():
            trash = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
            os.replace(out, trash / out.name)
            os.replace(tmp, out)
            shutil.rmtree(trash)
        else:
            os.replace(tmp, out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
