"""Where the project keeps what it downloads and builds: always outside the repository."""

from __future__ import annotations

import os
from pathlib import Path

from latin_intertext import DATASET_NAME, DATASET_VERSION
from latin_intertext.errors import LatinIntertextError


def _home() -> tuple[Path, str]:
    """The data folder and the variable that chose it ("" for the default)."""
    if env := os.environ.get("LATIN_INTERTEXT_HOME"):
        return Path(env).expanduser(), "$LATIN_INTERTEXT_HOME"
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "latin-intertext", ""


def data_home() -> Path:
    """``$LATIN_INTERTEXT_HOME``, else ``$XDG_CACHE_HOME/latin-intertext``, else ``~/.cache/latin-intertext``.

    A file in the way (the folder itself, or one of its parents) is refused before anything is created in it."""
    home, variable = _home()
    file = next((p for p in (home, *home.parents) if p.exists() and not p.is_dir()), None)
    if file is not None:
        fix = f"Point {variable} at a folder, or unset it" if variable else f"Move {file}, or set $LATIN_INTERTEXT_HOME to a folder"
        raise LatinIntertextError(f"{variable or 'The cache folder'} is {home}, but {file} is a file: it must be a folder (it holds caches and built data). {fix}.")
    return home


def default_dataset_dir() -> Path:
    # Unchecked: it is the default of `build --out`, computed when the CLI loads; what reads or writes
    # it refuses a file in the way itself (outputs.check_output_dir, benchmark.load_benchmark).
    return _home()[0] / "datasets" / f"{DATASET_NAME}-{DATASET_VERSION}"


def artifact_dirs() -> list[Path]:
    """The folders of what `build`, `train-ranker`, `train-vectors` and `index-tesserae` make and the retrievers read
    (unchecked, like ``default_dataset_dir``): no other command's output may land in them."""
    home = _home()[0]
    return [home / "datasets", home / "models", home / "indexes"]


def sources_cache_dir() -> Path:
    return data_home() / "sources"


def models_dir() -> Path:
    return data_home() / "models"


def indexes_dir() -> Path:
    return data_home() / "indexes"


def trained_model_path() -> Path:
    """Where ``train-ranker`` saves the evidence ranker trained on the whole benchmark, and where ``search`` finds
    it: built from the sources like the dataset, so it lives with the caches, never in the repository."""
    return models_dir() / "evidence_ranker.txt"
