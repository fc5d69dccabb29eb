"""Where the project keeps what it downloads and builds: always outside the repository."""

from __future__ import annotations

import os
from pathlib import Path

from latin_intertext import DATASET_NAME, DATASET_VERSION


def data_home() -> Path:
    """``$LATIN_INTERTEXT_HOME``, else ``$XDG_CACHE_HOME/latin-intertext``, else ``~/.cache/latin-intertext``."""
    if env := os.environ.get("LATIN_INTERTEXT_HOME"):
        return Path(env).expanduser()
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "latin-intertext"


def default_dataset_dir() -> Path:
    return data_home() / "datasets" / f"{DATASET_NAME}-{DATASET_VERSION}"


def sources_cache_dir() -> Path:
    return data_home() / "sources"


def models_dir() -> Path:
    return data_home() / "models"


def indexes_dir() -> Path:
    return data_home() / "indexes"
