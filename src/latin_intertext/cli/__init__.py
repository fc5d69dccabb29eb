"""The ``latin-intertext`` command. Each pipeline stage adds its subcommands from its own module."""

from __future__ import annotations

import errno
import importlib
import os
import shlex
import sys
from typing import TYPE_CHECKING, Annotated

import typer
import typer.core
from rich.console import Console

from latin_intertext import DATASET_NAME, DATASET_VERSION, word_analyses
from latin_intertext.cli.options import flag
from latin_intertext.errors import LatinIntertextError
from latin_intertext.outputs import write_outputs

if TYPE_CHECKING:
    from latin_intertext.benchmark import Benchmark

class _HelpShowsNoType:
    """``--help`` takes no value, so its help line shows none, like every switch of ours (``options.flag``); typer
    would print ``<bool>`` beside it."""

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None:
            option.metavar = ""
        return option


class _Command(_HelpShowsNoType, typer.core.TyperCommand):
    pass


class _Group(_HelpShowsNoType, typer.core.TyperGroup):
    pass


class _App(typer.Typer):
    """The command and its subcommands, each with the ``--help`` above."""

    def command(self, *args, cls=_Command, **kwargs):
        return super().command(*args, cls=cls, **kwargs)


app = _App(
    cls=_Group,
    name="latin-intertext",
    help=f"Build, evaluate and search Latin intertextuality benchmarks ({DATASET_NAME} v{DATASET_VERSION}).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(asked: bool) -> None:
    if asked:
        from latin_intertext import DATASET_NAME, DATASET_VERSION, __version__
        from latin_intertext.latin import LEMMATISER_VERSION

        typer.echo(f"latin-intertext {__version__} ({DATASET_NAME} v{DATASET_VERSION}, lemmatiser v{LEMMATISER_VERSION})")
        raise typer.Exit()


@app.callback()
def _global_options(
    version: Annotated[bool, flag("--version", callback=_print_version, is_eager=True, help="Print the version and exit.")] = False,
) -> None:
    """Options of the command itself, before any subcommand."""


PIPED_WIDTH = 1000  # columns of a console writing to a file or a pipe (unless $COLUMNS says otherwise)


def make_console(*, stderr: bool = False, **options) -> Console:
    """A rich console that wraps long lines on a terminal only: piped or redirected, each message stays on one line,
    so that a ``file:line: reason`` can be read by a program or grepped whole, and a table keeps every figure (rich
    would otherwise fit it to 80 columns and cut its intervals short: ``[+0.00…``)."""
    piped = not (sys.stderr if stderr else sys.stdout).isatty()
    if piped and "COLUMNS" not in os.environ:
        options.setdefault("width", PIPED_WIDTH)
    return Console(stderr=stderr, soft_wrap=piped, **options)


console = make_console(stderr=True)


def warn(message: str) -> None:
    console.print(f"[yellow]warning:[/] {_escape(message)}", highlight=False)


def load_scored_benchmark(dataset: "os.PathLike | str") -> "Benchmark":
    """The dataset a command scores or trains on, with a warning when its records are not the release's: the
    figures would be of other data than the version its name says."""
    from latin_intertext.benchmark import load_benchmark

    bench = load_benchmark(dataset, release_check=True)
    if changed := bench.changed_configs:
        warn(
            f"{dataset}: its {', '.join(changed)} records are not those of the v{DATASET_VERSION} release, so its figures are "
            f"not v{DATASET_VERSION}'s (--save-json reports say so under dataset_version). `latin-intertext validate {dataset}` "
            "says what differs; `latin-intertext build` rebuilds the release from the pinned sources."
        )
    return bench


def write_and_say(*outputs) -> None:
    """``outputs.write_outputs`` (all land, or none), then say on stderr what was written."""
    for path in write_outputs(*outputs):
        console.print(f"wrote {path}", highlight=False)


# Modules that add subcommands to ``app``, in the pipeline's order.
COMMAND_MODULES = ("data", "vectors", "evaluation", "ranker", "search", "figures")


def _load_commands() -> None:
    for module in COMMAND_MODULES:
        importlib.import_module(f"latin_intertext.cli.{module}")


INTERRUPTED = 130  # the shell's code for a process stopped by Ctrl-C (128 + SIGINT)


def main(argv: list[str] | None = None) -> int:
    try:
        return _run(argv)
    finally:
        word_analyses.save()  # what this run learned about words, for the next run (a cache: it never fails a command)


def _run(argv: list[str] | None) -> int:
    _load_commands()
    try:
        code = app(args=argv, prog_name="latin-intertext", standalone_mode=False)
    except KeyboardInterrupt:  # outside a command's own run (typer turns one inside into exit code 130, below)
        code = INTERRUPTED
    except LatinIntertextError as exc:
        console.print("[bold red]error:[/] " + _escape(str(exc)), highlight=False)
        return exc.exit_code
    except (typer.Exit, SystemExit) as exc:
        code = getattr(exc, "exit_code", getattr(exc, "code", 0))
        return int(code or 0)
    except typer.Abort:
        console.print("aborted")
        return 130
    except _usage_errors() as exc:  # an unknown option, a missing argument, a bad value: click's one-line usage error
        exc.show()
        if hint := _hyphen_passage_hint(exc, sys.argv[1:] if argv is None else argv):
            console.print(hint, highlight=False, soft_wrap=True)
        return exc.exit_code
    except OSError as exc:  # a full disk or a failing device under a write no check could foresee (standard output to /dev/full)
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EIO):
            raise
        where = exc.filename or "writing the output (a file, or standard output)"
        console.print(f"[bold red]error:[/] {_escape(str(where))}: {_escape(exc.strerror or str(exc))}. Free some space, or write elsewhere, and run the command again.", highlight=False)
        _silence_stdout()
        return 1
    if code == INTERRUPTED:  # typer returns a command's exit code without standalone mode: Ctrl-C gives 130
        console.print("interrupted (exit code 130): each output is written whole or not at all, so nothing is half-written")
        return INTERRUPTED
    return code if isinstance(code, int) else 0


def _hyphen_passage_hint(exc: Exception, argv: list[str]) -> str | None:
    """How to pass a passage that opens with a hyphen (*-que arma*), which click reads as short options (``-q``)."""
    name = getattr(exc, "option_name", None) or ""
    if argv[:1] != ["search"] or not name.startswith("-") or name.startswith("--"):
        return None
    passage = next((a for a in argv if a.startswith(name) and len(a) > len(name)), None)
    if passage is None:
        return None
    return f"A passage that begins with a hyphen is read as options: put -- before it, after the options (latin-intertext search -k 5 -- {shlex.quote(passage)})."


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush cannot fail again on exit."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass


def _usage_errors() -> tuple[type[Exception], ...]:
    """click's usage errors, and those of the copy of click that typer (0.29) vendors and raises instead."""
    import click

    errors: list[type[Exception]] = [click.exceptions.ClickException]
    try:
        from typer._click.exceptions import ClickException as vendored
    except ImportError:  # a typer that uses click itself
        return tuple(errors)
    return tuple(errors + [vendored])


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def run() -> None:
    sys.exit(main())
