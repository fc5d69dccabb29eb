"""The evidence ranker: a LightGBM lambdarank model that learns how to weigh scholarly evidence.

Stage 1 takes the union of the top candidates of several cheap channels (lemma
sets and stems counted per query word, exact forms, character trigrams and, with word vectors, themes) and the neighbours of the best ones. Stage 2
scores each candidate from the features in :mod:`latin_intertext.retrieve.features`,
averaging ``n_models`` LightGBM rankers that differ only in their random samples of negative
candidates and features (a bag: the average ranks more steadily than any one member).
``fit`` sees only the training queries' texts and qrels; ``search`` sees query texts only.
Without ``fit``, the model that ``latin-intertext train-ranker`` trains on all 482 queries
(at ``paths.trained_model_path()``) is used: fine for searching, never for benchmark figures.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import ClassVar, Mapping, Sequence

import numpy as np

from latin_intertext.benchmark import Benchmark, CorpusLine, Run
from latin_intertext.errors import LatinIntertextError
from latin_intertext.latin import LEMMATISER_VERSION, require_lemmatiser
from latin_intertext.outputs import atomic_files
from latin_intertext.paths import trained_model_path
from latin_intertext.retrieve.base import LearnedRetriever, best_first, register, top_indices, untied
from latin_intertext.retrieve.features import DENSE_FEATURES, FEATURES, LineIndex, Unit, dense_features, window_char_cos
from latin_intertext.retrieve.pair_evidence import pair_feature_matrix

FAMILIES = {
    "lemmas": [f for f in FEATURES if f.startswith(("lemma_", "lemmaset_", "form_", "word_"))],
    "stems": [f for f in FEATURES if f.startswith("stem_")],
    "lemma pairs": [f for f in FEATURES if f.startswith("bigram_")] + ["ordered_pairs"],
    "tesserae": ["tess_score", "tess_dist_line", "tess_dist_query", "matched_tokens", "rarest_match_freq"],
    "rarity": ["idf_rarest", "idf_second", "rare_shared", "shares_query_rarest"],
    "phrases": ["phrase_idf", "phrase_gap", "phrase_pairs"],
    "background rarity": ["bg_idf_rarest", "bg_idf_second"],
    "position": ["edge_match", "same_sedes", "query_pos_mean", "query_center_dist"],
    "sound": ["char_cos", "window_char_cos"],
    "neighbours": [f for f in FEATURES if f.startswith(("nb_", "window_"))] + ["open_end", "open_start"],
    "scene": ["scene_lemmaset_idf"],
    "word-vector themes": ["theme_cos", "scene_theme_cos"],
    "lengths": ["line_words", "query_words"],
    "query-relative": None,  # filled below: each key feature's rank among the query's candidates
}
RELATIVE_OF = (
    "lemmaset_idf_sum", "stem_idf_sum", "char_cos", "tess_score", "bigram_idf_sum", "window_lemmaset_idf",
    "phrase_idf", "idf_rarest", "idf_second", "window_char_cos", "lemmaset_idf_max", "form_idf_sum", "matched_tokens", "nb_lemmaset_idf",
)
RELATIVE = [f"rank_{f}" for f in RELATIVE_OF] + [f"gap_{f}" for f in RELATIVE_OF]
FAMILIES["query-relative"] = RELATIVE
ALL_FEATURES = FEATURES + ["window_char_cos"] + RELATIVE
# families that need data beyond the searched corpus, and the parameter that supplies it: left out while it is unset
OPTIONAL_FAMILIES = {"background rarity": "background", "word-vector themes": "vectors"}
AUTHOR_FEATURE = "author_prior"


def verified_model_text(path: Path, feature_names: Sequence[str] | None = None) -> str:
    """The saved model at ``path``, once its sidecar vouches for it: present, intact (sha256), from this lemmatiser
    and, when ``feature_names`` is given, trained on those features. Checked before LightGBM reads it: LightGBM
    aborts the whole process on a damaged model."""
    if not path.is_file():
        raise LatinIntertextError(f"No trained ranker at {path}: run `latin-intertext train-ranker` first (in Python, or fit() the retriever).")
    retrain = "retrain it with `latin-intertext train-ranker`"
    sidecar = path.with_suffix(".json")
    if not sidecar.is_file():
        raise LatinIntertextError(f"{sidecar} (the feature list of {path}) is missing; {retrain}.")
    try:
        meta = json.loads(sidecar.read_text(encoding="utf-8"))
        features, recorded = list(meta["features"]), meta.get("sha256")
    except (ValueError, KeyError, TypeError) as exc:
        raise LatinIntertextError(f"{sidecar} (the feature list of {path}) is damaged ({exc}); {retrain}.") from exc
    if feature_names is not None and features != list(feature_names):
        raise LatinIntertextError(f"{path} was trained on features {features}, not {list(feature_names)}; {retrain}.")
    require_lemmatiser(meta.get("lemmatiser"), f"The model at {path} (as {sidecar.name} records)", "its features would not be those it learned from", "`latin-intertext train-ranker`")
    text = path.read_text(encoding="utf-8", errors="replace")
    if _sha256(text) != recorded:
        raise LatinIntertextError(f"{path} is damaged (its sha256 is not the one {sidecar.name} records); {retrain}.")
    return text


@register(
    "evidence-ranker",
    "Learned (LightGBM lambdarank) fusion of lemma, stem, pair, Tesserae, position, sound and neighbour evidence",
    learned=True,
    baseline=False,
    cache_index=True,
    aliases=("best",),
)
class EvidenceRanker(LearnedRetriever):
    extra_features: ClassVar[tuple[str, ...]] = ()  # features a subclass adds after the author prior

    def __init__(
        self,
        n_candidates: int = 300,
        n_char_candidates: int = 100,
        n_neighbour_seeds: int = 60,
        n_theme_candidates: int = 100,
        n_estimators: int = 150,
        learning_rate: float = 0.05,
        num_leaves: int = 31,
        min_child_samples: int = 20,
        author_prior: bool = False,
        drop_families: tuple[str, ...] = (),
        seed: int = 0,
        n_models: int = 3,
        negative_fraction: float = 0.8,
        truncation_level: int = 20,
        n_jobs: int | None = None,
        monotone: bool = True,
        model_path: str | None = None,
        background: str | None = None,
        vectors: str | None = None,
    ):
        super().__init__()
        self.n_candidates = n_candidates
        self.n_char_candidates = n_char_candidates
        self.n_neighbour_seeds = n_neighbour_seeds
        self.n_theme_candidates = n_theme_candidates
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.num_leaves = num_leaves
        self.min_child_samples = min_child_samples
        self.author_prior = author_prior
        self.drop_families = tuple(drop_families)
        self.seed = seed
        self.n_models = n_models
        self.negative_fraction = negative_fraction
        self.truncation_level = truncation_level
        self.n_jobs = n_jobs
        self.monotone = monotone
        self.model_path = model_path
        self.background = background
        self.vectors = vectors
        self._boosters: list = []  # the bagged LightGBM models, averaged at search time
        self._trained_features: list[str] = []

    # -- corpus ---------------------------------------------------------------
    def _index(self, corpus: Sequence[CorpusLine]) -> None:
        self._use_index(LineIndex.build(corpus, background_idf=self._background_idf(), vectors=self._vectors()))

    def _use_index(self, lines: LineIndex) -> None:
        """Search ``lines`` from now on, with empty per-query caches."""
        self._lines = lines
        # per passage: candidates, their features, and the other lines by stage 1's score (to fill runs deeper than the
        # candidates); the most recent CACHED_TEXTS passages, so a long-running server stays bounded
        self._cache: OrderedDict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = OrderedDict()
        self._last_first: tuple[str | None, np.ndarray | None] = (None, None)
        authors = sorted({d.author for d in lines.lines})
        self._author_code = np.array([authors.index(d.author) for d in lines.lines], dtype=np.float32)

    def index_like(self, other: "EvidenceRanker") -> "EvidenceRanker":
        """Share ``other``'s corpus index instead of building it again (it holds no labels), with caches of its
        own, since this ranker's features may differ; both must read the same background rarity and vectors."""
        if (self.background, self.vectors) != (other.background, other.vectors):
            raise LatinIntertextError(
                f"Cannot share an index built with background={other.background!r}, vectors={other.vectors!r} "
                f"for a ranker with background={self.background!r}, vectors={self.vectors!r}; index the corpus instead."
            )
        self.corpus, self.doc_ids = other.corpus, other.doc_ids
        self._use_index(other._lines)
        return self

    def use_model_of(self, other: "EvidenceRanker") -> "EvidenceRanker":
        """Score with ``other``'s fitted members: a model fitted on one corpus searching another, as `search` does
        with the shipped model (`transfer-report` so tests it)."""
        if other.feature_names != self.feature_names:
            raise LatinIntertextError(f"Cannot use a model of features {other.feature_names} for features {self.feature_names}.")
        self._boosters, self._trained_features = other._boosters, other._trained_features
        self.clear_cache()
        return self

    def _background_idf(self):
        """Lemma rarity in the Tesserae Latin corpus (612 texts: all but the queries' own): rare in all of Latin, not just in this corpus."""
        if self.background is None:
            return None
        from latin_intertext.sources.tesserae_la import lemma_frequencies

        return lemma_frequencies().idf

    def _vectors(self):
        """Lemma vectors for the theme features: ``"default"`` is where ``latin-intertext train-vectors`` saves them."""
        if self.vectors is None:
            return None
        from latin_intertext.vectors import load_vectors

        return load_vectors(None if self.vectors == "default" else self.vectors)

    @property
    def feature_names(self) -> list[str]:
        families = self.drop_families + tuple(family for family, param in OPTIONAL_FAMILIES.items() if not getattr(self, param))
        dropped = {f for fam in families for f in FAMILIES[fam]}
        names = [f for f in ALL_FEATURES if f not in dropped]
        return names + ([AUTHOR_FEATURE] if self.author_prior else []) + list(self.extra_features)

    def candidates(self, dense: np.ndarray, first: np.ndarray | None = None) -> np.ndarray:
        """Stage 1: the union of each channel's top lines and the neighbours of the best of them, in the order of a
        checksum of their text (``text_order``). Training sees them in this order (negatives are sampled, and
        lambdarank ranks tied scores, row by row): in corpus order, the first author in the corpus (Vergil, in the
        benchmark) came first in every tie, and the order alone moved a fold's nDCG@10 by up to 0.008."""
        col = {name: dense[:, i] for i, name in enumerate(DENSE_FEATURES)}
        first = first_stage_score(dense) if first is None else first
        order = self.text_order
        picks = [_top(first, self.n_candidates, order), _top(col["char_cos"], self.n_char_candidates, order), _top(col["form_idf_sum"], self.n_char_candidates, order)]
        picks.append(_top(col["theme_cos"], self.n_theme_candidates, order))  # all 0 without vectors: no pick
        best = _top(first, self.n_neighbour_seeds, order)
        picks += [self._lines.prev[best], self._lines.next[best]]
        cand = np.unique(np.concatenate(picks))
        cand = cand[cand >= 0]
        return cand[np.argsort(order[cand], kind="stable")]

    def _features(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """Candidate line indexes and their full feature matrix (cached per query text; no labels involved)."""
        if text in self._cache:
            self._cache.move_to_end(text)
        else:
            query = Unit.of(text)
            dense = dense_features(self._lines, query)
            first = first_stage_score(dense)
            cand = self.candidates(dense, first)
            pairs = pair_feature_matrix(self._lines, query, cand)
            base = np.hstack([dense[cand], pairs, window_char_cos(self._lines, query, cand)[:, None]])
            key = [base[:, ALL_FEATURES.index(f)] for f in RELATIVE_OF]
            ranks = np.column_stack([_rank_fraction(v) for v in key] + [_gap_to_best(v) for v in key]) if len(cand) else np.zeros((0, len(RELATIVE)))
            features = np.hstack([base, ranks, self._author_code[cand, None], self._extra_columns(text, query, cand)])
            self._cache[text] = (cand, features, _tail(first, cand, TAIL_DEPTH, self.text_order))
            while len(self._cache) > CACHED_TEXTS:
                self._cache.popitem(last=False)
            self._last_first = (text, first)
        return self._cache[text][:2]

    def clear_cache(self) -> None:
        self._cache.clear()
        self._last_first = (None, None)

    def _first_stage(self, text: str) -> np.ndarray:
        """Stage 1's score of every line for ``text`` (kept for the last text only: a full-length array per query)."""
        last_text, first = self._last_first
        return first if last_text == text else first_stage_score(dense_features(self._lines, Unit.of(text)))

    def _extra_columns(self, text: str, query: Unit, cand: np.ndarray) -> np.ndarray:
        """Columns named by ``extra_features``, for a subclass's analysis (none here)."""
        return np.zeros((len(cand), len(self.extra_features)), np.float32)

    def _select(self, matrix: np.ndarray) -> np.ndarray:
        all_names = ALL_FEATURES + [AUTHOR_FEATURE] + list(self.extra_features)
        return matrix[:, [all_names.index(f) for f in self.feature_names]]

    # -- learning -------------------------------------------------------------
    def fit(self, train: Benchmark) -> "EvidenceRanker":
        texts = {q.id: q.text for q in train.queries}
        blocks, labels, groups, unlearnable = [], [], [], []
        for qid, text in texts.items():
            cand, matrix = self._features(text)
            relevant = train.qrels.get(qid, {})
            y = np.array([1 if self.doc_ids[i] in relevant else 0 for i in cand], dtype=np.int32)
            if y.sum() == 0:
                unlearnable.append(qid)  # no relevant line among its candidates: lambdarank learns nothing from it
                continue
            blocks.append(self._select(matrix))
            labels.append(y)
            groups.append(len(cand))
        if not blocks:
            raise LatinIntertextError("No training query has a relevant line among its candidates; cannot fit the ranker.")
        members = range(self.n_models)
        # LightGBM releases the GIL while it trains. Every member at once by default, each on one thread: on two cores
        # a bag of four finished about 7% sooner than two pairs in turn, as no core waits for the slower of a pair
        with ThreadPoolExecutor(max_workers=max(self.n_jobs or self.n_models, 1)) as pool:
            self._boosters = list(pool.map(lambda member: self._fit_member(blocks, labels, member), members))
        self._trained_features = list(self.feature_names)
        self.unlearnable_queries_ = unlearnable
        return self

    def _fit_member(self, blocks: list[np.ndarray], labels: list[np.ndarray], member: int):
        """One bagged member: every positive, and a random ``negative_fraction`` of each query's other candidates."""
        import lightgbm as lgb

        rng = np.random.default_rng(self.seed + member)
        keeps = [(y == 1) | (rng.random(len(y)) < self.negative_fraction) for y in labels]
        data = lgb.Dataset(
            np.vstack([x[k] for x, k in zip(blocks, keeps)]),
            np.concatenate([y[k] for y, k in zip(labels, keeps)]),
            group=[int(k.sum()) for k in keeps],
            feature_name=self.feature_names,
            categorical_feature=[self.feature_names.index(AUTHOR_FEATURE)] if self.author_prior else "auto",
            params={"verbose": -1},
        )
        params = {
            "objective": "lambdarank",
            "learning_rate": self.learning_rate,
            "num_leaves": self.num_leaves,
            "min_child_samples": self.min_child_samples,
            "feature_fraction": 0.8,
            "lambdarank_truncation_level": self.truncation_level,  # only pairs with a line in the current top truncation_level count
            "num_threads": 1,  # OpenMP threads spin under contention; members run side by side instead
            "deterministic": True,
            "force_row_wise": True,
            "seed": self.seed + member,
            "verbose": -1,
        }
        if self.monotone:
            params |= {"monotone_constraints": [monotone_direction(f) for f in self.feature_names], "monotone_constraints_method": "intermediate"}
        return lgb.train(params, data, num_boost_round=self.n_estimators)

    def save(self, path: Path) -> None:
        """One text file holding every member's LightGBM model, plus a JSON sidecar with the feature list."""
        if not self._boosters:
            raise LatinIntertextError("Nothing to save: fit() the ranker first (or run `latin-intertext train-ranker`).")
        text = MEMBER_SEPARATOR.join(b.model_to_string() for b in self._boosters)
        meta = {"features": self.feature_names, "params": self.params(), "lemmatiser": LEMMATISER_VERSION, "sha256": _sha256(text)}
        with atomic_files(path, path.with_suffix(".json")) as (model, sidecar):  # both land, or neither
            model.write_text(text, encoding="utf-8")
            sidecar.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")

    def check_search_model(self) -> None:
        if not self._boosters:
            self._saved_model_text()

    def _saved_model_text(self) -> str:
        """The saved model this ranker searches with, verified (:func:`verified_model_text`)."""
        return verified_model_text(Path(self.model_path) if self.model_path else trained_model_path(), self.feature_names)

    def _ensure_model(self) -> None:
        if self._boosters:
            if self._trained_features != self.feature_names:
                raise LatinIntertextError("The ranker's features changed since it was fitted (drop_families / author_prior); fit it again.")
            return
        import lightgbm as lgb

        text = self._saved_model_text()
        self._boosters = [lgb.Booster(model_str=member) for member in text.split(MEMBER_SEPARATOR)]
        self._trained_features = list(self.feature_names)

    # -- search ---------------------------------------------------------------
    def search(self, queries: Mapping[str, str], k: int = 100, progress=None) -> Run:
        self._ensure_model()
        run: Run = {}
        for qid, text in queries.items():
            cand, scores = self.score_candidates(text)
            order = best_first(scores, np.arange(len(cand)), self.text_order[cand])[:k]
            floor = float(scores.min()) if len(scores) else 0.0
            tail = self._cache[text][2][: max(k - len(order), 0)]  # filled by score_candidates just now
            lines = np.concatenate([cand[order], tail])
            values = np.concatenate([scores[order], floor - 1.0 - np.arange(len(tail)) / max(len(tail), 1)])
            run[qid] = dict(zip([self.doc_ids[j] for j in lines], untied(values).tolist()))
            if progress:
                progress(1)
        return run

    def score_all(self, text: str) -> np.ndarray:
        """Every line's score, for the search page: the candidates' by the model, then every other line in which stage 1
        finds any evidence, below all of them in stage 1's order; -inf for lines that share nothing. So a search
        for k lines gets k lines whenever k lines share a word (and an author filter applied after it still finds them)."""
        cand, scores = self.score_candidates(text)
        first = self._first_stage(text).astype(np.float64)
        out = np.where(first > 0, first / max(float(first.max()), 1e-9), -np.inf)
        out += (float(scores.min()) if len(scores) else 0.0) - 2.0  # in (floor - 2, floor - 1]: below every candidate
        out[cand] = scores
        return out

    def score_candidates(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """(line indexes, scores) of the candidates of one passage: the search page's entry point."""
        self._ensure_model()
        cand, matrix = self._features(text)
        if not len(cand):
            return cand, np.array([])
        features = self._select(matrix)
        return cand, np.mean([booster.predict(features) for booster in self._boosters], axis=0)


@register(
    "evidence-ranker-themes",
    "The evidence ranker plus word-vector themes (Word2Vec lemma vectors of Tesserae-la, from `train-vectors`)",
    needs=("word vectors",),
    learned=True,
    baseline=False,
    vectors="default",
)
class ThemedEvidenceRanker(EvidenceRanker):
    """The evidence ranker with theme evidence; for cross-validated figures only, as it has no search model
    (it needs the word vectors of ``train-vectors``, which ``search`` does not assume, so it keeps the plain ranker)."""

    def _saved_model_text(self) -> str:
        if self.model_path is None:
            raise LatinIntertextError(
                f"{self.name} has no search model: evaluate it with `--cv`, or search with `evidence-ranker` (alias `best`)."
            )
        return super()._saved_model_text()


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


TAIL_DEPTH = 1000
CACHED_TEXTS = 1024  # passages whose features are kept (about 160 KB each): every benchmark query, and a bounded server
MEMBER_SEPARATOR = "\n#### next bagged member ####\n"

# Features whose growth may only lower a line's score (ranks, shortfalls, gaps) or only raise it (shared evidence).
LESS_IS_BETTER = ("rank_", "gap_", "phrase_gap")
MORE_IS_BETTER_SUFFIXES = ("_idf_sum", "_count", "_idf_max", "_idf", "_cos")
MORE_IS_BETTER = frozenset(
    {"tess_score", "matched_tokens", "ordered_pairs", "edge_match", "same_sedes", "idf_rarest", "idf_second", "rare_shared", "phrase_pairs", "shares_query_rarest", "bg_idf_rarest", "bg_idf_second"}
)


def monotone_direction(feature: str) -> int:
    """-1, +1 or 0 (free): the constraint that keeps the ranker from learning that more shared evidence is worse.

    Without it the trees may carve non-monotone bumps out of this benchmark's noisy labels (a line with one more
    shared rare word scoring lower); a scholar reading the matched words could not make sense of that, and it need
    not carry over to other texts. Lengths, positions, distances and line-break flags stay free.
    """
    if feature.startswith(LESS_IS_BETTER):
        return -1
    if feature in MORE_IS_BETTER or feature.endswith(MORE_IS_BETTER_SUFFIXES):
        return 1
    return 0


def first_stage_score(dense: np.ndarray) -> np.ndarray:
    """Stage 1's cheap ranking of every line: the rarity of the query words it shares by a candidate lemma (each
    word counted once) and by stem, plus the neighbours' shared words."""
    col = {name: dense[:, i] for i, name in enumerate(DENSE_FEATURES)}
    return col["word_idf_sum"] + 0.5 * col["stem_idf_sum"] + 0.3 * col["nb_word_idf"]


def _tail(first: np.ndarray, cand: np.ndarray, depth: int, text_order: np.ndarray) -> np.ndarray:
    """The best ``depth`` lines by stage 1 that are not candidates, best first. Lines equal by stage 1 come in the
    order of a checksum of their text (``text_order``), which says nothing of who wrote them: in corpus order,
    the first author in the corpus (Vergil, in the benchmark) would come first in every tie."""
    rest = first.copy()
    rest[cand] = 0
    return best_first(rest, _top(rest, depth, text_order), text_order)


def _rank_fraction(values: np.ndarray) -> np.ndarray:
    """Each value's rank among the query's candidates, 0 for the best, 1 for the worst. Equal values share the best of
    their ranks: ranked by their order in the corpus, they scored equal evidence by where a line stands, which
    favoured the corpus's first author (Vergil, in the benchmark) and any file given first."""
    from scipy.stats import rankdata  # here: scipy.stats takes half a second to import, and only the ranker needs it

    return ((rankdata(-values, method="min") - 1) / max(len(values) - 1, 1)).astype(np.float32)


def _gap_to_best(values: np.ndarray) -> np.ndarray:
    """How far each value falls short of the query's best candidate."""
    return (values.max() - values).astype(np.float32)


def _top(values: np.ndarray, n: int, text_order: np.ndarray) -> np.ndarray:
    """The ``n`` lines of highest positive value; at the cut, lines of equal value are taken in the order of
    ``text_order`` (a checksum of their text), never by where they stand in the corpus."""
    return top_indices(values, n, text_order, values > 0)
