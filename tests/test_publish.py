"""publish: HF parquet configs loadable offline, BEIR files, determinism, the card, atomic writes, push."""

from __future__ import annotations

import json
import re
import shutil

import pyarrow.parquet as pq
import pytest

from conftest import SOURCES
from fixtures.build.helpers import all_files, run_cli, tiny_mirror  # noqa: F401 (fixture)
from latin_intertext.benchmark import CONFIGS, config_path, load_benchmark, parse_checksums
from latin_intertext.publish import writer
from latin_intertext.publish.card import CONFIG_FEATURES, render_card
from latin_intertext.publish.stats import compute_stats
from latin_intertext.publish.writer import build_dataset

ROWS = {"corpus": 39675, "queries": 482, "qrels": 978}
# The field and type lists of the spec's card (/work/shared/spec/dataset-card.md, "Configs"), copied by hand.
SPEC_CARD = SOURCES.parent / "spec" / "dataset-card.md"
SPEC_FEATURES = {
    "corpus": [("id", "string"), ("text", "string"), ("author", "string"), ("work", "string"), ("book", "int64"), ("line", "int64"), ("tess_index", "string")],
    "queries": [("id", "string"), ("text", "string"), ("vf_book", "int64"), ("line_start", "int64"), ("line_end", "int64"), ("query_phrases", "string"), ("n_parallels", "int64")],
    "qrels": [("query-id", "string"), ("corpus-id", "string"), ("score", "float64")],
}
# The spec card's fixed text, verbatim.
SPEC_BIBTEX = """@inproceedings{burns-etal-2021-profiling,
  title     = {Profiling of Intertextuality in {L}atin Literature Using Word Embeddings},
  author    = {Burns, Patrick J. and Brofos, James A. and Li, Kyle and Chaudhuri, Pramit and Dexter, Joseph P.},
  booktitle = {Proceedings of NAACL-HLT 2021},
  year      = {2021},
  pages     = {4900--4907},
  url       = {https://aclanthology.org/2021.naacl-main.389/}
}"""


def parquet_rows(root, config) -> list[dict]:
    return pq.read_table(config_path(root, config)).to_pylist()


def jsonl(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("config", CONFIGS)
def test_load_dataset_offline(dataset_dir, tmp_path, monkeypatch, config):
    import datasets

    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf-cache"))
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-cache")
    ds = datasets.load_dataset(str(dataset_dir), config, cache_dir=str(tmp_path / "hf-cache"))
    assert list(ds) == ["test"]
    test = ds["test"]
    assert test.num_rows == ROWS[config]
    assert [(name, feature.dtype) for name, feature in test.features.items()] == SPEC_FEATURES[config]
    assert test[0] == parquet_rows(dataset_dir, config)[0]


def test_beir_files_match_parquet(dataset_dir):
    beir = dataset_dir / "beir"
    corpus = parquet_rows(dataset_dir, "corpus")
    assert jsonl(beir / "corpus.jsonl") == [
        {"_id": d["id"], "title": "", "text": d["text"], "metadata": {k: d[k] for k in ("author", "work", "book", "line", "tess_index")}}
        for d in corpus
    ]
    queries = parquet_rows(dataset_dir, "queries")
    assert [(q["_id"], q["text"]) for q in jsonl(beir / "queries.jsonl")] == [(q["id"], q["text"]) for q in queries]
    assert not any("query_phrases" in json.dumps(q) for q in jsonl(beir / "queries.jsonl"))  # annotations stay out of BEIR
    tsv = (beir / "qrels" / "test.tsv").read_text(encoding="utf-8").splitlines()
    assert tsv[0] == "query-id\tcorpus-id\tscore"
    assert [tuple(line.split("\t")) for line in tsv[1:]] == [(r["query-id"], r["corpus-id"], "1") for r in parquet_rows(dataset_dir, "qrels")]


def test_two_builds_are_byte_identical(dataset_dir, sources_dir, tmp_path):
    again = tmp_path / "again"
    build_dataset(sources_dir, again)
    assert (again / "SHA256SUMS").read_bytes() == (dataset_dir / "SHA256SUMS").read_bytes()
    assert all_files(again) == all_files(dataset_dir)
    assert set(parse_checksums(again)[0]) == set(all_files(again)) - {"SHA256SUMS"}


def card_yaml(card: str) -> str:
    return card.split("---\n")[1]


def test_card_yaml_header(dataset_dir):
    yaml = card_yaml((dataset_dir / "README.md").read_text(encoding="utf-8"))
    assert "license: cc-by-4.0" in yaml
    assert "language:\n- la\n" in yaml
    assert "task_categories:\n- text-retrieval\n" in yaml
    for config in CONFIGS:
        assert f"- config_name: {config}\n  data_files:\n  - split: test\n    path: {config}/test.parquet\n" in yaml
    assert yaml.count("- config_name:") == 6  # configs + dataset_info


def test_card_tables_computed_from_data(dataset_dir):
    card = (dataset_dir / "README.md").read_text(encoding="utf-8")
    stats = json.loads((dataset_dir / "stats.json").read_text())
    report = json.loads((dataset_dir / "build_report.json").read_text())
    for row in ("| Size | corpus=39675; queries=482; qrels=978 |", "| Avg. relevant docs / query | 2.03 (min=1, max=10) |", "| Ovid | Metamorphoses | 11,995 |", "| Lucan | Bellum Civile | 8,053 |"):
        assert row in card
    edited = {**stats, "corpus": 12345, "authors": {**stats["authors"], "Ovid": 7}, "min_relevant_per_query": 3}
    other = render_card(edited, report)
    assert "| Size | corpus=12345; queries=482; qrels=978 |" in other and "| Ovid | Metamorphoses | 7 |" in other and "(min=3, max=10)" in other
    assert "39675" not in other and "11,995" not in other
    fewer = render_card(stats, {**report, "skipped": report["skipped"][:1]})
    assert "<luc. 1.430>" not in fewer and "- 1 blank lines (in 1 files)" in fewer


def test_card_quirks_are_what_the_build_counted_not_fixed_text(dataset_dir):
    report = json.loads((dataset_dir / "build_report.json").read_text())
    stats = json.loads((dataset_dir / "stats.json").read_text())
    card = render_card(stats, report)
    assert "separated by a space in Statius; a tab in " in card and "The gold CSV's line ends: 946 CRLF" in card
    assert "(<luc. 5.595>: the gold quotes the later line so numbered)" in card
    assert "| Lucan | 7 | 855-859 | absent |" in card and "| Lucan | 7 | 860 | steps back after 7.869 |" in card
    tabs = {**report, "citation_separators": {a: {"tab": sum(c.values())} for a, c in report["citation_separators"].items()}, "gold_line_ends": {"LF": 946}}
    other = render_card(stats, tabs)
    assert "a space" not in other and "The gold CSV's line ends: 946 LF" in other and "CRLF" not in other
    assert "numbering" not in render_card(stats, {**report, "numbering_gaps": []}).split("## Source quirks")[1].split("## Layouts")[0]


def _spec_tables() -> dict[str, list[list[str]]]:
    """The spec card's tab-separated tables, by the line before their header: its words, read from the file itself."""
    tables: dict[str, list[list[str]]] = {}
    lines = SPEC_CARD.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if "\t" in line and "\t" not in lines[i - 1]:
            title, rows = lines[i - 2] if not lines[i - 1] else lines[i - 1], []
            for row in lines[i + 1 :]:
                if "\t" not in row:
                    break
                rows.append(row.split("\t"))
            tables[title] = rows
    return tables


def test_card_carries_every_statement_of_the_spec_card(dataset_dir):
    """Each item, field description, construction step and link of ../shared/spec/dataset-card.md is in the built card."""
    card = (dataset_dir / "README.md").read_text(encoding="utf-8")
    tables = _spec_tables()
    for item, description in tables["Dataset Card"]:
        assert f"| {item} | {description} |" in card, item
    for config in ("corpus", "queries", "qrels"):
        for name, dtype, description in tables[config]:
            for field_name in name.split(" / "):  # "line_start / line_end" is one row of the spec
                assert f"| {field_name} | {dtype} | {description} |" in card, (config, field_name)
    spec = SPEC_CARD.read_text(encoding="utf-8")
    steps = spec.split("Construction method\n\n")[1].split("\n\n")[0]
    assert steps in card
    for line in spec.splitlines():
        if line.startswith(("Upstream:", "Hub packaging:", "print(")):
            assert line in card, line
    assert "Gold parallels: Burns et al., NAACL-HLT 2021 ([paper](https://aclanthology.org/2021.naacl-main.389/); [repo](" in card


def test_card_is_reproduced_by_render_card(dataset_dir):
    stats = compute_stats(load_benchmark(dataset_dir))  # stats.json is key-sorted: recompute for the card's order
    assert json.loads((dataset_dir / "stats.json").read_text()) == stats
    report = json.loads((dataset_dir / "build_report.json").read_text())
    card = (dataset_dir / "README.md").read_text(encoding="utf-8")
    assert render_card(stats, report) == card
    assert re.search(r"<!-- stats: (.*) -->", card)[1] == json.dumps(stats, sort_keys=True)
    # the spec card's fixed text (/work/shared/spec/dataset-card.md), as literals
    assert "```bibtex\n" + SPEC_BIBTEX + "\n```" in card
    assert "\nlicense: cc-by-4.0\n" in card.split("\n---\n")[0]  # the Hub's YAML header
    assert "| License | CC BY 4.0 (packaging; classical texts are public domain) |" in card  # the spec's words
    assert "| Relevance | Scholar-curated parallels (score=1); multi-line targets → all lines marked relevant |" in card
    assert "\n# Latin Epic Intertextuality Retrieval (v1.0.0)\n" in card and "), 945 curated pairs." in card
    assert 'load_dataset("PoetryMTEB/LatinEpicIntertextualityRetrieval", "qrels")["test"]' in card
    for author, work, lines in (("Ovid", "Metamorphoses", "11,995"), ("Vergil", "Aeneid", "9,896"), ("Statius", "Thebaid", "9,731"), ("Lucan", "Bellum Civile", "8,053")):
        assert f"| {author} | {work} | {lines} |" in card
    for config, features in SPEC_FEATURES.items():
        assert f"### {config}\n\n| field | type | description |\n|---|---|---|\n" + "\n".join(f"| {n} | {t} | " for n, t in features[:1]) in card
    assert CONFIG_FEATURES == SPEC_FEATURES


def test_failed_build_leaves_nothing(tiny_mirror, tmp_path, monkeypatch, capsys):
    def broken(bench, root):
        (root / "half.jsonl").parent.mkdir(parents=True, exist_ok=True)
        (root / "half.jsonl").write_text("{")
        raise RuntimeError("disk full")

    monkeypatch.setattr(writer, "write_beir", broken)
    out = tmp_path / "OUT"
    with pytest.raises(RuntimeError, match="disk full"):
        build_dataset(tiny_mirror, out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny-sources"]


def test_failed_build_keeps_existing_out(tiny_mirror, tmp_path, monkeypatch):
    out = tmp_path / "OUT"
    build_dataset(tiny_mirror, out)
    before = all_files(out)
    monkeypatch.setattr(writer, "write_beir", lambda bench, root: (_ for _ in ()).throw(RuntimeError("disk full")))
    with pytest.raises(RuntimeError):
        build_dataset(tiny_mirror, out)
    assert all_files(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["OUT", "tiny-sources"]


def test_rebuild_replaces_out_atomically(tiny_mirror, tmp_path):
    out = tmp_path / "OUT"
    build_dataset(tiny_mirror, out)
    (out / "beir" / "queries.jsonl").unlink()  # an earlier build, damaged: the new build replaces all of it
    (out / "stats.json").write_text("old")
    build_dataset(tiny_mirror, out)
    assert all_files(out)["stats.json"] != b"old"
    assert sorted(all_files(out)) == sorted(
        ["README.md", "SHA256SUMS", "build_report.json", "stats.json", "beir/corpus.jsonl", "beir/queries.jsonl", "beir/qrels/test.tsv"]
        + [f"{c}/test.parquet" for c in CONFIGS]
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["OUT", "tiny-sources"]


def test_push_dry_run_lists_every_file_and_uploads_nothing(dataset_dir, monkeypatch, capsys):
    import huggingface_hub

    def no_upload(*a, **k):
        raise AssertionError("upload attempted")

    monkeypatch.setattr(huggingface_hub.HfApi, "upload_folder", no_upload)
    monkeypatch.setattr(huggingface_hub.HfApi, "create_repo", no_upload)
    monkeypatch.setenv("HF_TOKEN", "hf_dummy")
    code, out, err = run_cli(monkeypatch, capsys, "push", dataset_dir, "--dry-run")
    assert code == 0
    files = all_files(dataset_dir)
    listed = re.findall(r"would upload (\S+) \(([\d,]+) bytes\) -> PoetryMTEB/LatinEpicIntertextualityRetrieval \(dataset\)", out)
    assert [name for name, _ in listed] == sorted(files)
    assert all(int(size.replace(",", "")) == len(files[name]) for name, size in listed)
    assert f"{len(files)} files, {sum(map(len, files.values())):,} bytes" in err


def test_push_uploads_the_folder_as_a_dataset_to_the_given_repo_and_branch(dataset_dir, monkeypatch, capsys):
    import huggingface_hub

    calls = []
    monkeypatch.setattr(huggingface_hub.HfApi, "create_repo", lambda self, repo_id, **kw: calls.append(("create", repo_id, kw)))
    monkeypatch.setattr(huggingface_hub.HfApi, "upload_folder", lambda self, **kw: calls.append(("upload", kw["repo_id"], kw)) or huggingface_hub.CommitInfo(
        commit_url="https://huggingface.co/datasets/me/latin-test/commit/abc123", commit_message="", commit_description="", oid="abc123"))
    monkeypatch.setattr(huggingface_hub.HfApi, "create_tag", lambda self, repo_id, **kw: calls.append(("tag", repo_id, kw)))
    monkeypatch.setenv("HF_TOKEN", "hf_dummy")
    code, out, err = run_cli(monkeypatch, capsys, "push", dataset_dir, "--repo-id", "me/latin-test", "--revision", "release")
    assert code == 0 and [(c[0], c[1]) for c in calls] == [("create", "me/latin-test"), ("upload", "me/latin-test"), ("tag", "me/latin-test")]
    assert calls[0][2]["repo_type"] == "dataset" and calls[0][2]["exist_ok"]
    upload = calls[1][2]
    assert (upload["repo_type"], upload["revision"], upload["folder_path"]) == ("dataset", "release", str(dataset_dir))
    assert f"uploaded README.md ({(dataset_dir / 'README.md').stat().st_size:,} bytes) -> me/latin-test (dataset)" in out
    # the uploaded commit is tagged with the revision the MTEB task loads, so that the task's metadata names a real one
    from latin_intertext.evaluate.mteb_task import TASK_METADATA

    tag = calls[2][2]
    assert (tag["tag"], tag["revision"], tag["repo_type"], tag["exist_ok"]) == (TASK_METADATA.dataset["revision"], "abc123", "dataset", True)
    assert "tagged the upload v1.0.0" in err


def test_push_without_token_is_a_clear_error(dataset_dir, monkeypatch, capsys):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.delenv("HUGGING_FACE_HUB_TOKEN", raising=False)
    code, out, err = run_cli(monkeypatch, capsys, "push", dataset_dir)
    assert code == 1 and out == ""
    assert "No Hugging Face token: set HF_TOKEN" in err and "Traceback" not in err


def test_push_refuses_an_invalid_folder(dataset_dir, tmp_path, monkeypatch, capsys):
    copy = tmp_path / "ds"
    shutil.copytree(dataset_dir, copy)
    (copy / "stats.json").write_text("{}")
    code, out, err = run_cli(monkeypatch, capsys, "push", copy, "--dry-run")
    assert code == 1 and "would upload" not in out
    assert "fails validation; not uploading" in err and "stats.json" in err


def test_stats_say_where_the_gold_lies(benchmark, dataset_dir, monkeypatch, capsys):
    """Vergil's lines are relevant to 344 of the 482 queries (the README's reason why ties must not go by doc id)."""
    from latin_intertext.publish.stats import relevant_by_author

    gold = relevant_by_author(benchmark)
    assert gold == {"Vergil": (538, 344), "Lucan": (154, 124), "Ovid": (154, 115), "Statius": (132, 105)}
    assert sum(lines for lines, _ in gold.values()) == 978
    code, out, _err = run_cli(monkeypatch, capsys, "stats", dataset_dir)
    assert code == 0 and re.search(r"Vergil\s*│\s*Aeneid\s*│\s*9,896\s*│\s*538\s*│\s*344 of 482", out)
    assert "LatinEpicIntertextualityRetrieval (dataset 1.0.0)" in out  # the release's records: a folder edited says otherwise
