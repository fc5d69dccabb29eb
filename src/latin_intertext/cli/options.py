"""Options several commands share, defined once so that every command names, explains and defaults them alike."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from latin_intertext.errors import LatinIntertextError

DATASET_HELP = "A folder written by `latin-intertext build` (default: the built dataset under $LATIN_INTERTEXT_HOME)."
SOURCES_HELP = "A local mirror laid out like ../shared/sources (default: $LATIN_INTERTEXT_SOURCES, else the verified download cache)."
# Every registered name, for help texts (tests check the list against the registry, so it cannot drift).
RETRIEVER_NAMES = ("bm25", "bm25-lemma", "charngram", "tesserae", "word2vec", "word2vec-tuned", "dense", "evidence-ranker", "evidence-ranker-themes")
RETRIEVERS_HELP = f"{', '.join(RETRIEVER_NAMES)}; `best` is evidence-ranker"
SEARCH_ONLY_NAMES = ("bm25-lemma-sparse",)  # the search layer's own engines (serve.searcher.SEARCH_ONLY), on no leaderboard
# Each resample weighs every query: 100,000 of 482 queries take about a gigabyte; a billion would ask for terabytes.
MAX_RESAMPLES = 100_000

DatasetOpt = Annotated[Optional[Path], typer.Option("--dataset", help=DATASET_HELP, show_default=False)]
DatasetArg = Annotated[Optional[Path], typer.Argument(help="The same as --dataset DIR.", show_default=False)]
SourcesOpt = Annotated[Optional[Path], typer.Option("--sources", help=SOURCES_HELP, show_default=False)]
ResamplesOpt = Annotated[
    int, typer.Option("--resamples", min=100, max=MAX_RESAMPLES, help=f"Bootstrap (and randomization) resamples for 95% CIs and p-values (100 to {MAX_RESAMPLES:,}).")
]


def png_path(path: Optional[Path]) -> Optional[Path]:
    """Charts are drawn as PNG only: a name promising another format (``out.pdf``) is refused, not filled with PNG."""
    if path is not None and path.suffix.lower() != ".png":
        raise typer.BadParameter(f"{path}: the chart is drawn as PNG; give a file name ending in .png.")
    return path


def plot_option(what: str):
    """``--plot FILE``: where a command draws ``what`` (a PNG)."""
    return typer.Option(None, "--plot", help=f"Draw {what} here (a .png file).", callback=png_path)


def flag(*names: str, help: str, **options):
    """A switch, which takes no value: its help shows no type, where typer would print ``<bool>`` as if one followed."""
    return typer.Option(*names, help=help, metavar="", **options)


def save_json_option(what: str):
    """``--save-json FILE``: where a command writes ``what`` as JSON (``--json``, a switch, prints JSON instead)."""
    return typer.Option(None, "--save-json", help=f"Write {what} here as JSON.")


def dataset_folder(dataset: Optional[Path] = None, positional: Optional[Path] = None) -> Path:
    """The dataset folder a command reads: ``--dataset`` or the positional DIR (not two different ones), else the default."""
    from latin_intertext.paths import default_dataset_dir

    if dataset and positional and dataset != positional:
        raise LatinIntertextError(f"Two dataset folders given ({positional} and --dataset {dataset}); give one.")
    return dataset or positional or default_dataset_dir()
