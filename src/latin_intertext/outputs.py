"""Writing results safely: every output path is checked before the work starts, and written whole or not at all."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator

from latin_intertext.errors import LatinIntertextError


class OutputError(LatinIntertextError):
    """An output path that cannot be written, or that two outputs would share."""


def _nearest_existing(path: Path) -> Path:
    for parent in path.parents:
        if parent.exists():
            return parent
    return Path(path.anchor or ".")


def check_outputs(*paths: Path | None, option: str = "output", inputs: Iterable[Path | None] = (), kept: Iterable[Path] = ()) -> list[Path]:
    """Refuse, before any work is done, paths that are folders, lie under a file, cannot be written, clash,
    or are among the ``inputs`` the command reads or inside an input folder (it would destroy what it reads), or
    inside a ``kept`` folder. Return the paths, ``~`` expanded.

    ``None`` stands for an output (or input) that was not asked for and is skipped."""
    given = [Path(p).expanduser() for p in paths if p is not None]
    read = {Path(p).expanduser().resolve() for p in inputs if p is not None}
    kept = {Path(p).expanduser().resolve() for p in kept}
    seen: dict[Path, Path] = {}
    for path in given:
        resolved = path.resolve()
        if resolved in read:
            raise OutputError(f"{path} is read by this command; write the {option} elsewhere.")
        if folder := next((r for r in sorted(read) if r in resolved.parents), None):
            raise OutputError(f"{path} lies in {folder}, which this command reads; write the {option} outside it.")
        if folder := next((r for r in sorted(kept) if r == resolved or r in resolved.parents), None):
            raise OutputError(f"{path} lies in {folder}, where the cache keeps the built data, models and indexes that the commands read; write the {option} outside it.")
        if resolved in seen:
            raise OutputError(f"{path}: two outputs would be written to this one file; give each output its own name.")
        seen[resolved] = path
        if resolved.is_dir():
            raise OutputError(f"{path} is a folder; give the {option} a file name, e.g. {path / 'out'}.")
        if resolved.exists() and not resolved.is_file():
            raise OutputError(f"{path} is not a regular file (a device, a pipe or a socket): the {option} is written whole beside it and then replaces it, which would destroy it; give a file name.")
        if resolved.exists() and not os.access(resolved, os.W_OK):
            raise OutputError(f"{path} is not writable; make it writable (chmod u+w) or choose another place for the {option}.")
        _check_creatable(path, resolved, option)
    return given


def check_command_outputs(*paths: Path | None, option: str = "output", inputs: Iterable[Path | None] = ()) -> list[Path]:
    """``check_outputs`` for what a command writes where its user says: never among the cache's built data, models
    and indexes (`search --csv HOME/models/evidence_ranker.txt` once replaced the search model), which only the
    commands that make them write, through ``check_outputs``."""
    from latin_intertext.paths import artifact_dirs

    return check_outputs(*paths, option=option, inputs=inputs, kept=artifact_dirs())


def _check_creatable(path: Path, resolved: Path, option: str) -> None:
    """Refuse ``path`` unless its nearest existing folder (itself, if it is one) lets a file be created in it."""
    base = resolved if resolved.is_dir() else _nearest_existing(resolved)
    if not base.is_dir():
        raise OutputError(f"{path}: {base} is a file, not a folder; choose another place for the {option}.")
    if not _can_create_in(base):
        raise OutputError(f"{path}: the folder {base} is not writable; choose another place for the {option}.")


def _can_create_in(folder: Path) -> bool:
    """Whether a file can be created in ``folder``, tried rather than asked (``os.access`` says yes to root even on
    /proc or a read-only mount)."""
    try:
        fd, probe = tempfile.mkstemp(prefix=".write-probe-", dir=folder)
    except OSError:
        return False
    os.close(fd)
    os.unlink(probe)
    return True


def _mode(target: Path, new: int) -> int:
    """The mode ``target`` keeps (a private 0600 file stays private); ``new`` less the umask if it does not exist yet."""
    if target.exists():
        return stat.S_IMODE(target.stat().st_mode)
    umask = os.umask(0)
    os.umask(umask)
    return new & ~umask


def _sibling(target: Path, kind: str) -> Path:
    """A new empty file beside ``target`` named ``.NAME.KIND-PID-*``: what a killed process left can be told apart."""
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{kind}-{os.getpid()}-", dir=target.parent)
    os.close(fd)
    return Path(tmp)


@contextmanager
def atomic_files(*paths: Path) -> Iterator[list[Path]]:
    """Yield one temporary sibling per path; they replace their targets only if the block succeeds, so a failure
    (a full disk, an error half-way) leaves neither a truncated file nor half of a set. The targets are replaced
    one after another, each old file kept aside until all are in place and put back if one fails: all land, or
    none does (unless the process is killed during the renames). A symlinked output keeps its link (the file it
    points to is replaced), an existing file its mode. What killed runs left beside a target is removed first."""
    targets = [path.resolve() for path in check_outputs(*paths)]
    tmps: list[Path] = []
    olds: list[Path] = []
    replaced: list[tuple[Path, Path | None]] = []  # (target, its old file kept aside or None), in the order replaced
    try:
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            _remove_stale(target, numbered_only=True)  # a name without a PID may be another writer's scratch
            tmps.append(_sibling(target, "partial"))
            olds.append(_sibling(target, "old"))
        yield tmps
        for tmp, old, target in zip(tmps, olds, targets):
            tmp.chmod(_mode(target, 0o666))
            if target.exists():
                os.replace(target, old)
                replaced.append((target, old))
            else:
                replaced.append((target, None))
            os.replace(tmp, target)
    except BaseException:
        for target, old in reversed(replaced):
            if old is None:
                target.unlink(missing_ok=True)
            else:
                os.replace(old, target)
        raise
    finally:
        for tmp in tmps + olds:
            tmp.unlink(missing_ok=True)


def check_output_dir(out: Path, is_ours: Callable[[Path], bool] | None, what: str, option: str = "") -> Path:
    """Refuse to replace a folder that holds something other than an earlier output of the same kind
    (``is_ours``; None for a folder that is added to, never replaced, such as a download cache)."""
    out = Path(out).expanduser()
    if out.exists() and not out.is_dir():
        because = " (it would replace the file)" if is_ours else ""
        raise OutputError(f"{out} is a file; give {option + ' ' if option else ''}a folder for the {what}{because}.")
    if is_ours is not None and out.is_dir() and any(out.iterdir()) and not is_ours(out):
        raise OutputError(f"{out} is not empty and does not hold a {what}; give a new or empty folder, so nothing of yours is replaced.")
    _check_creatable(out, out.resolve(), what)
    return out


def _running(pid: str) -> bool:
    try:
        os.kill(int(pid), 0)
    except (ValueError, OverflowError, ProcessLookupError):
        return False  # not a number (named by an older version) or no such process
    except PermissionError:
        pass  # another user's process
    return True


def _remove_stale(out: Path, numbered_only: bool = False) -> None:
    """Remove the ``.NAME.partial-PID-*`` and ``.NAME.old-PID-*`` left beside ``out`` by killed runs (PID no longer runs);
    without ``numbered_only``, also those an older version named without a PID."""
    for sibling in out.parent.iterdir():
        kind, _, rest = sibling.name.removeprefix(f".{out.name}.").partition("-")
        pid = rest.partition("-")[0]
        if numbered_only and not pid.isdigit():
            continue
        if sibling.name.startswith(f".{out.name}.") and kind in ("partial", "old") and not _running(pid):
            if sibling.is_dir() and not sibling.is_symlink():
                shutil.rmtree(sibling, ignore_errors=True)
            else:
                sibling.unlink(missing_ok=True)


@contextmanager
def atomic_dir(out: Path) -> Iterator[Path]:
    """Yield a temporary folder beside ``out``; on success it replaces ``out``, on failure it vanishes and the old
    ``out`` stays. What killed runs left beside ``out`` is removed first."""
    out = Path(out).expanduser().resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(out)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-{os.getpid()}-", dir=out.parent))
    tmp.chmod(_mode(out, 0o777))
    try:
        yield tmp
        if out.exists():
            trash = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-{os.getpid()}-", dir=out.parent))
            os.replace(out, trash / out.name)
            try:
                os.replace(tmp, out)
            except BaseException:
                os.replace(trash / out.name, out)  # the old folder back in place, not stranded in the trash
                trash.rmdir()
                raise
            shutil.rmtree(trash)
        else:
            os.replace(tmp, out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)


def beside(path: Path | None, suffix: str, what: str) -> Path | None:
    """Where the ``what`` written beside ``path`` goes (its suffix swapped for ``suffix``); refused if that is ``path`` itself."""
    if path is None:
        return None
    if path.suffix.lower() == suffix:
        raise OutputError(f"{path}: the {what} is written beside it as {path.with_suffix(suffix).name}, which would overwrite it; give it another suffix than {suffix}.")
    return path.with_suffix(suffix)


def write_json(data: dict, path: Path) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=float) + "\n", encoding="utf-8")


def write_outputs(*outputs: tuple[Path | None, Callable[[Path], object]]) -> list[Path]:
    """Call each ``write`` on a temporary beside its path (None: not asked for); all land together at the end, or none does.
    Return the paths written, for the caller to report."""
    wanted = [(path, write) for path, write in outputs if path is not None]
    with atomic_files(*(path for path, _ in wanted)) as tmps:
        for tmp, (_, write) in zip(tmps, wanted):
            write(tmp)
    return [path for path, _ in wanted]


def splice(readme: str, name: str, body: str) -> str:
    """``readme`` with ``body`` between its ``<!-- figures:NAME -->`` markers: how generated figures enter a page."""
    pattern = re.compile(rf"(<!-- figures:{re.escape(name)} -->\n).*?(<!-- /figures:{re.escape(name)} -->)", re.S)
    if not pattern.search(readme):
        raise LatinIntertextError(f"README has no <!-- figures:{name} --> ... <!-- /figures:{name} --> block to fill.")
    return pattern.sub(lambda m: m.group(1) + body.rstrip() + "\n" + m.group(2), readme)
