"""The command reference, docs/cli.md: every subcommand with all its options, written from the commands themselves
(Typer's own Markdown), so it cannot drift from ``--help``. Regenerate with
``python -m latin_intertext.cli.reference > docs/cli.md``; a test checks that it is current."""

from __future__ import annotations

import click
import typer.cli
import typer.main

from latin_intertext.cli import _load_commands, app
from latin_intertext.paths import data_home

TITLE = "latin-intertext command reference"


def reference() -> str:
    """The Markdown of every command, with this machine's data folder written ``$LATIN_INTERTEXT_HOME``."""
    _load_commands()
    command = typer.main.get_command(app)
    text = typer.cli.get_docs_for_click(obj=command, ctx=click.Context(command, info_name=app.info.name), name=app.info.name, title=TITLE)
    return text.replace(str(data_home()), "$LATIN_INTERTEXT_HOME").rstrip() + "\n"


if __name__ == "__main__":
    print(reference(), end="")
