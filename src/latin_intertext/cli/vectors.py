"""``latin-intertext train-vectors``: lemma word vectors for the ``word2vec`` retriever."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from latin_intertext.cli import app, console


@app.command("train-vectors")
def train_vectors_command(
    sources: Optional[Path] = typer.Option(None, "--sources", help="Local mirror holding tesserae-la/ (else $LATIN_INTERTEXT_SOURCES or the download cache)."),
    limit_files: Optional[int] = typer.Option(None, "--limit-files", min=1, help="Train on the first N texts only (a quick, small model)."),
    dim: int = typer.Option(100, "--dim", min=2, help="Vector dimensions."),
    epochs: int = typer.Option(5, "--epochs", min=1, help="Training epochs."),
    out: Optional[Path] = typer.Option(None, "--out", help="Where to save the vectors (default: the models folder, the only place the retrievers look; $LATIN_INTERTEXT_HOME moves it; in Python, Word2VecAlign(vectors_path=PATH) reads another)."),
) -> None:
    """Lemmatise the Tesserae Latin corpus (cached) and train Word2Vec lemma vectors on it."""
    from latin_intertext.sources.tesserae_la import texts_in_manifest
    from latin_intertext.vectors import train_vectors

    n_files = len(texts_in_manifest(learning=True))
    n_files = min(n_files, limit_files) if limit_files else n_files
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        reading = progress.add_task("lemmatising texts", total=n_files)
        training = progress.add_task("training epochs", total=epochs)
        result = train_vectors(
            sources,
            limit_files=limit_files,
            dim=dim,
            epochs=epochs,
            out=out,
            on_file=lambda _name: progress.advance(reading),
            on_epoch=lambda _epoch: progress.advance(training),
        )
        progress.update(reading, completed=n_files)
    console.print(f"corpus: {result.corpus_summary} (every line left out is listed in {result.report_path})")
    console.print(
        f"saved {result.vocabulary:,} lemma vectors to {result.path} "
        f"(lemmatising {result.seconds_lemmatise:.0f}s, training {result.seconds_train:.0f}s)"
    )
