"""The evidence ranker's variants, each refitted under the same grouped folds: the author prior on and off, each
feature family dropped, other settings, an oracle upper bound that reads the gold phrases, and the learning curve."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from latin_intertext import latin
from latin_intertext.benchmark import Benchmark
from latin_intertext.evaluate.cv import Fold, out_of_fold, training_ids
from latin_intertext.evaluate.metrics import evaluate_run
from latin_intertext.retrieve.features import Unit, word_idf_sum
from latin_intertext.retrieve.ranker import FAMILIES, OPTIONAL_FAMILIES, EvidenceRanker

REPORTED = ("ndcg_at_10", "recall_at_100", "map", "recall_at_1000")
PAIRED = "ndcg_at_10"  # the metric on which each variant is tested against the full model
# The settings a variant may change on a shared indexed ranker: fitting only (candidates and features are cached per
# index). Every variant starts from the ranker's defaults for all of them, so none inherits the last variant's.
FIT_SETTINGS = ("n_estimators", "learning_rate", "num_leaves", "min_child_samples", "seed", "n_models", "negative_fraction", "truncation_level")
FIXED_SETTINGS = {name: EvidenceRanker().params()[name] for name in FIT_SETTINGS}


@dataclass(frozen=True)
class Variant:
    label: str
    author_prior: bool = False
    drop: tuple[str, ...] = ()
    background: str | None = None
    vectors: str | None = None
    monotone: bool = True
    settings: tuple[tuple[str, int | float], ...] = ()  # LightGBM settings other than the fixed ones
    oracle: bool = False  # told the quoted query words: an upper bound, not a retriever

    def __post_init__(self) -> None:
        if unknown := [name for name, _ in self.settings if name not in FIT_SETTINGS]:
            raise ValueError(f"variant {self.label!r} sets {unknown}, which a shared indexed ranker cannot change; settings must be among {FIT_SETTINGS}")

    @property
    def fit_options(self) -> dict:
        """What fitting depends on, applied to the shared ranker before each variant's folds."""
        return {"author_prior": self.author_prior, "drop_families": self.drop, "monotone": self.monotone, **FIXED_SETTINGS, **dict(self.settings)}

    def configure(self, ranker: EvidenceRanker) -> EvidenceRanker:
        """``ranker`` set to fit as this variant (a shared ranker keeps whatever the last variant set otherwise)."""
        for option, value in self.fit_options.items():
            setattr(ranker, option, value)
        return ranker

    @property
    def index_options(self) -> tuple[str | None, str | None, bool]:
        """What the indexed ranker depends on (its index's background rarity and vectors, and whether it is the
        oracle): variants that share it share one indexed ranker, refitted with each one's ``fit_options``."""
        return self.background, self.vectors, self.oracle

    def ranker(self, bench: Benchmark, plain: EvidenceRanker | None = None) -> EvidenceRanker:
        """A ranker indexed for this variant; the oracle shares ``plain``'s index when given (same corpus index)."""
        if self.oracle:
            oracle = QuotedWordsOracle(quoted_words(bench), background=self.background, vectors=self.vectors)
            return oracle.index_like(plain) if plain is not None else oracle.index(bench.corpus)
        return EvidenceRanker(background=self.background, vectors=self.vectors).index(bench.corpus)


def variants() -> list[Variant]:
    trees, members, level = (FIXED_SETTINGS[name] for name in ("n_estimators", "n_models", "truncation_level"))
    return (
        [Variant("full model (no author prior)"), Variant("full model + learned author prior", author_prior=True)]
        + [Variant(f"without {family}", drop=(family,)) for family in FAMILIES if family not in OPTIONAL_FAMILIES]
        + [Variant("full model without monotone constraints", monotone=False)]
        + [Variant("full model + lemma rarity in Tesserae-la (612 texts: not the queries' own)", background="tesserae-la")]
        + [Variant("full model + word-vector themes (Word2Vec on Tesserae-la)", vectors="default")]
        + [Variant(f"settings: {n} trees instead of {trees}", settings=(("n_estimators", n),)) for n in (trees // 2, trees * 2)]
        + [Variant(f"settings: another bag (random seeds {members}-{2 * members - 1} instead of 0-{members - 1})", settings=(("seed", members),))]
        # the bag the figures came from until 877c9fa, when these two settings changed for speed
        + [Variant(f"settings: 4 members and truncation level 50 instead of {members} and {level}", settings=(("n_models", 4), ("truncation_level", 50)))]
        + [Variant(ORACLE_LABEL, oracle=True)]
    )


# shares of the training folds' queries the learning curve fits on, each drawn by these seeds (the full share is the model's own row)
LEARNING_FRACTIONS = (0.25, 0.5, 0.75)
LEARNING_SEEDS = (0, 1, 2)


@dataclass(frozen=True)
class CurvePoint:
    """One point of the learning curve: the out-of-fold figures of models fitted on a share of the training queries."""

    fraction: float  # the share aimed at
    training_queries: float  # drawn per fold, on average (whole span groups overshoot the aim)
    share: float  # training_queries over the full folds' mean: what the figures were learned from
    metrics: dict[str, float]  # REPORTED, the mean over the draws
    range: dict[str, tuple[float, float]] | None = None  # REPORTED, lowest and highest of the draws; None for the full model's own point

    def to_json(self) -> dict:
        out = {"fraction": self.fraction, "training_queries": self.training_queries, "share": self.share, **self.metrics}
        return out if self.range is None else out | {"range": {m: list(r) for m, r in self.range.items()}}


def learning_curve(
    ranker: EvidenceRanker, bench: Benchmark, folds: list[Fold], full: Mapping[str, float], fractions: tuple[float, ...] = LEARNING_FRACTIONS,
) -> list[CurvePoint]:
    """How the out-of-fold figures grow with the gold the ranker learns from: each fold's model fitted on a share
    of the training folds' queries (whole span groups, each share drawn once per seed of ``LEARNING_SEEDS``, which the
    report's text counts; means reported), the test folds unchanged; ``full`` (the model's own figures) is the last
    point. Would more gold like this reach the targets?

    Each point keeps the target ``fraction`` and the ``share`` drawn: whole groups overshoot the target."""
    whole = float(np.mean([len(training_ids(bench, fold)) for fold in folds]))
    points = []
    for fraction in fractions:
        draws = [evaluate_run(out_of_fold(ranker, bench, folds, train_fraction=fraction, seed=seed), bench.qrels).means for seed in LEARNING_SEEDS]
        size = float(np.mean([len(training_ids(bench, fold, fraction, seed)) for seed in LEARNING_SEEDS for fold in folds]))
        points.append(CurvePoint(
            fraction, size, size / whole, {m: float(np.mean([d[m] for d in draws])) for m in REPORTED},
            {m: (min(d[m] for d in draws), max(d[m] for d in draws)) for m in REPORTED},
        ))
    return points + [CurvePoint(1.0, whole, 1.0, {m: full[m] for m in REPORTED})]


ORACLE_LABEL = "oracle, not a retriever: full model + which query words the gold phrases quote"


def quoted_words(bench: Benchmark) -> dict[str, frozenset[int]]:
    """For each query text, the positions of its words that its gold ``query_phrases`` quote (folded forms)."""
    quoted = {}
    for q in bench.queries:
        phrase_words = {w for phrase in json.loads(q.query_phrases) for w in latin.forms(phrase)}
        quoted[q.text] = frozenset(i for i, w in enumerate(Unit.of(q.text).words) if w in phrase_words)
    return quoted


class QuotedWordsOracle(EvidenceRanker):
    """The ranker plus one feature it could never have at search time: the rarity of the query words the
    commentators quote that a line shares (``word_idf_sum`` over the quoted words). It reads ``query_phrases``,
    so it is an analysis, never registered as a retriever: its figures bound what any way of telling the
    alluded words of a query from the others could add to this ranker, with the same candidates."""

    extra_features = ("quoted_word_idf",)

    def __init__(self, quoted: Mapping[str, frozenset[int]], **params):
        super().__init__(**params)
        self._quoted = quoted

    def _extra_columns(self, text: str, query: Unit, cand: np.ndarray) -> np.ndarray:
        return word_idf_sum(self._lines, query, self._quoted.get(text, frozenset()))[cand, None]
