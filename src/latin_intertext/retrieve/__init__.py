"""Retrievers: baselines and the learned ranker, all behind one interface (see base.py)."""

from __future__ import annotations

import importlib

from latin_intertext.retrieve.base import REGISTRY, Retriever, make_retriever, register, resolve_name, top_k

# Modules that register retrievers; each owns one retriever family.
MODULES = ("bm25", "charngram", "tesserae", "word2vec", "dense", "ranker")


def load_all() -> dict:
    """Import every retriever module so that each registers itself; the registry is then complete."""
    for module in MODULES:
        importlib.import_module(f"latin_intertext.retrieve.{module}")
    return REGISTRY


__all__ = ["REGISTRY", "Retriever", "load_all", "make_retriever", "register", "resolve_name", "top_k"]
