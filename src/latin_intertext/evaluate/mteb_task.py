"""The benchmark as an MTEB v2 retrieval task, and every registered retriever as an MTEB search model.

The task reads a folder written by ``latin-intertext build`` instead of downloading from the Hub, so
``mteb.evaluate(search_model("bm25"), LatinEpicIntertextualityRetrieval(folder), cache=None)`` runs
offline and gives the same numbers as ``latin-intertext evaluate`` (tests/test_mteb.py checks it).
Requires the ``mteb`` extra.
"""

from __future__ import annotations

import warnings
from dataclasses import fields
from pathlib import Path
from typing import Any

from datasets import Dataset
from mteb.abstasks.retrieval import AbsTaskRetrieval
from mteb.abstasks.task_metadata import TaskMetadata
from mteb.models.model_meta import ModelMeta

from latin_intertext import DATASET_NAME, HUB_REPO_ID, __version__
from latin_intertext.benchmark import Benchmark, CorpusLine, load_benchmark
from latin_intertext.errors import LatinIntertextError
from latin_intertext.publish.push import VERSION_TAG
from latin_intertext.retrieve.base import REGISTRY, Retriever, make_retriever, resolve_name

BURNS_2021 = r"""@inproceedings{burns-etal-2021-profiling,
  author = {Burns, Patrick J. and Brofos, James A. and Li, Kyle and Chaudhuri, Pramit and Dexter, Joseph P.},
  booktitle = {Proceedings of NAACL-HLT 2021},
  pages = {4900--4907},
  title = {Profiling of Intertextuality in {L}atin Literature Using Word Embeddings},
  url = {https://aclanthology.org/2021.naacl-main.389/},
  year = {2021},
}"""

TASK_METADATA = TaskMetadata(
    name=DATASET_NAME,
    description=(
        "Given a passage from Valerius Flaccus, Argonautica Book 1, retrieve the verse lines in Vergil (Aeneid), "
        "Lucan (Bellum Civile), Ovid (Metamorphoses) or Statius (Thebaid) that scholarship identifies as parallels."
    ),
    reference="https://aclanthology.org/2021.naacl-main.389/",
    dataset={"path": HUB_REPO_ID, "revision": VERSION_TAG},  # the tag `push` puts on the commit it uploads
    type="Retrieval",
    category="t2t",
    modalities=["text"],
    eval_splits=["test"],
    eval_langs=["lat-Latn"],
    main_score="ndcg_at_10",
    # When the texts were written and the parallels collected: the epics of the 1st centuries BC and AD (0001-01-01 is
    # the earliest date an ISO date can give), the gold of commentaries gathered by Burns et al. (NAACL-HLT, June 2021).
    date=("0001-01-01", "2021-06-01"),
    domains=["Poetry", "Written"],
    task_subtypes=[],  # none of MTEB's subtypes fits verse-to-verse allusion retrieval ("Article retrieval" did not)
    license="cc-by-4.0",
    annotations_creators="expert-annotated",
    dialect=[],
    sample_creation="found",
    bibtex_citation=BURNS_2021,
)


MODIFIED_REVISION = f"{VERSION_TAG}-modified"  # the revision of results on a folder whose records are not the release's


def _split_data(bench: Benchmark) -> dict:
    """One RetrievalSplitData: every corpus column is kept so retrievers can read author and citation."""
    corpus = Dataset.from_list([{f.name: getattr(d, f.name) for f in fields(CorpusLine)} for d in bench.corpus])
    queries = Dataset.from_list([{"id": q.id, "text": q.text} for q in bench.queries])
    return {"corpus": corpus, "queries": queries, "relevant_docs": {q: dict(r) for q, r in bench.qrels.items()}, "top_ranked": None}


class LatinEpicIntertextualityRetrieval(AbsTaskRetrieval):
    """Reads ``dataset_dir`` (default: the user's built dataset) instead of the Hub."""

    metadata = TASK_METADATA
    k_values = (1, 3, 5, 10, 20, 100, 1000)

    def __init__(self, dataset_dir: Path | str | None = None, benchmark: Benchmark | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._dataset_dir = dataset_dir
        self._benchmark = benchmark

    def load_data(self, num_proc: int | None = None, **kwargs: Any) -> None:
        if self.data_loaded:
            return
        bench = self._benchmark
        if bench is None:
            from latin_intertext.paths import default_dataset_dir

            bench = load_benchmark(self._dataset_dir or default_dataset_dir(), release_check=True)
        if changed := bench.changed_configs:  # results must not be filed under the release's revision
            self.metadata = TASK_METADATA.model_copy(update={"dataset": {**TASK_METADATA.dataset, "revision": MODIFIED_REVISION}})
            warnings.warn(
                f"{bench.path}: its {', '.join(changed)} records are not those of {VERSION_TAG}, so its results carry the "
                f"dataset revision {MODIFIED_REVISION!r}; `latin-intertext validate {bench.path}` says what differs.",
                stacklevel=2,
            )
        self.dataset = {"default": {"test": _split_data(bench)}}
        self.data_loaded = True


def _corpus_lines(corpus: Dataset) -> list[CorpusLine]:
    defaults = {"author": "", "work": "", "book": 0, "line": 0, "tess_index": ""}
    names = [f.name for f in fields(CorpusLine)]
    return [CorpusLine(**{n: row.get(n, defaults.get(n)) for n in names}) for row in corpus]


class RetrieverSearch:
    """mteb's SearchProtocol over one of our retrievers (index the corpus, then search the queries)."""

    def __init__(self, name: str, retriever: Retriever | None = None) -> None:
        name = resolve_name(name)
        spec = REGISTRY[name]
        if spec.learned and retriever is None:
            raise LatinIntertextError(
                f"{name} is learned: pass an already fitted retriever (fitting on the task's own qrels would leak the answers)."
            )
        self.name = name
        self.retriever = retriever or make_retriever(name)
        self.mteb_model_meta = model_meta(name)

    def index(self, corpus: Dataset, *, task_metadata: TaskMetadata, hf_split: str, hf_subset: str, encode_kwargs: dict, num_proc: int | None = None, **kwargs: Any) -> None:
        self.retriever.index(_corpus_lines(corpus))

    def search(self, queries: Dataset, *, task_metadata: TaskMetadata, hf_split: str, hf_subset: str, top_k: int, encode_kwargs: dict, top_ranked: dict | None = None, num_proc: int | None = None, **kwargs: Any) -> dict[str, dict[str, float]]:
        texts = dict(zip(queries["id"], queries["text"]))
        run = self.retriever.search(texts, top_k)
        if top_ranked:
            allowed = {q: set(top_ranked.get(q, ())) for q in run}
            run = {q: {d: s for d, s in docs.items() if d in allowed[q]} for q, docs in run.items()}
        return {q: run.get(q, {}) for q in texts}


def model_meta(name: str) -> ModelMeta:
    spec = REGISTRY[resolve_name(name)]
    return ModelMeta(
        loader=lambda model_name=None, **kwargs: RetrieverSearch(name),
        name=f"latin-intertext/{name}",
        revision=__version__,
        release_date="2026-01-01",
        languages=["lat-Latn"],
        n_parameters=None,
        memory_usage_mb=None,
        max_tokens=None,
        embed_dim=None,
        license="mit",
        open_weights=True,
        public_training_code=None,
        public_training_data=None,
        framework=[],
        reference=None,
        similarity_fn_name=None,
        use_instructions=False,
        training_datasets={DATASET_NAME} if spec.learned else set(),
        model_type=[spec.model_type],
    )


def search_model(name: str, retriever: Retriever | None = None) -> RetrieverSearch:
    return RetrieverSearch(name, retriever)


def descriptive_statistics(dataset_dir: Path | str) -> dict[str, Any]:
    """mteb's own descriptive statistics of the task, the JSON an MTEB contribution keeps beside its task; its counts
    are the card's (tests/test_mteb.py checks them). Computed from the folder, verified, each time: mteb's
    ``calculate_descriptive_statistics`` would return the copy its first run cached inside mteb's package, whatever
    the folder holds (or whether it exists), and write one there."""
    task = LatinEpicIntertextualityRetrieval(dataset_dir)
    task.load_data()
    return {split: task._calculate_descriptive_statistics_from_split(split) for split in task.metadata.eval_splits}
