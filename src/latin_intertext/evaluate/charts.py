"""The project's charts are drawn headless (no display on servers or in CI) and saved as PNG beside their tables."""

from __future__ import annotations

from pathlib import Path


def pyplot():
    """matplotlib's pyplot on the Agg backend, imported only when a chart is drawn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig, path: Path | str, dpi: int) -> Path:
    """Write ``fig`` to ``path`` (its folder made if need be) and free it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=dpi, format="png")  # PNG whatever the name: it may be a temporary
    pyplot().close(fig)
    return path
