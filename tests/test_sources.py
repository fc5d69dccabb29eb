"""Pinned sources: the manifest, verification of a mirror, and `fetch` (download, verify, reject tampering)."""

from __future__ import annotations

import csv

import pytest

from fixtures.build.helpers import block_network, real_copy, run_cli, serve_from, tamper  # noqa: F401 (fixture)
from latin_intertext.errors import SourceError
from latin_intertext.sources.manifest import SOURCES_ENV, fetch, load_manifest, resolve_sources, sha256_of, verify

LUCAN_1 = "naacl2021/texts/lucan.bellum_civile.part.1.tess"


def naacl_entry(local_path: str):
    return next(f for f in load_manifest() if f.local_path == local_path)


def test_package_manifest_matches_the_shared_manifest(sources_dir):
    with open(sources_dir / "MANIFEST.tsv", encoding="utf-8") as fh:
        shared = {row["local_path"]: row for row in csv.DictReader(fh, delimiter="\t")}
    naacl = load_manifest("naacl2021")
    assert len(naacl) == 58
    tesserae = load_manifest("tesserae-la")
    assert len(tesserae) == len({f.local_path for f in tesserae}) == 614
    assert all(f.local_path.startswith("tesserae-la/") for f in tesserae)
    assert {f.local_path for f in naacl + tesserae} == set(shared)  # every shared file pinned, none invented
    for f in naacl + tesserae:
        assert (shared[f.local_path]["sha256"], int(shared[f.local_path]["bytes"])) == (f.sha256, f.bytes), f.local_path
        assert {**shared[f.local_path], "bytes": int(shared[f.local_path]["bytes"])} == f.__dict__, f.local_path
    lucan = naacl_entry(LUCAN_1)
    assert lucan.url == f"https://raw.githubusercontent.com/{lucan.repository}/{lucan.commit}/{lucan.upstream_path}"


def test_real_mirror_verifies_without_network(sources_dir, monkeypatch):
    attempts = block_network(monkeypatch)
    assert resolve_sources(sources_dir) == sources_dir
    monkeypatch.setenv(SOURCES_ENV, str(sources_dir))
    assert resolve_sources() == sources_dir
    assert attempts == []


def test_corrupted_file_names_file_and_both_hashes(real_copy, monkeypatch):
    before, after = tamper(real_copy / LUCAN_1)
    assert before == naacl_entry(LUCAN_1).sha256
    attempts = block_network(monkeypatch)
    with pytest.raises(SourceError) as info:
        resolve_sources(real_copy)
    msg = str(info.value)
    assert f"{real_copy / LUCAN_1}: sha256 mismatch: expected {before}, actual {after}" in msg
    assert msg.count("sha256 mismatch") == 1
    assert attempts == []  # a broken mirror is reported, never silently replaced by a download
    # fetch only verifies a mirror, so the message does not offer it as the fix: restore the mirror, or stop using it
    assert "is a local mirror" in msg and "which `latin-intertext fetch` only verifies" in msg and "unset LATIN_INTERTEXT_SOURCES" in msg


def test_a_damaged_download_cache_is_mended_by_fetch(real_copy, monkeypatch):
    from latin_intertext.sources import manifest

    monkeypatch.setattr(manifest, "sources_cache_dir", lambda: real_copy)
    monkeypatch.delenv("LATIN_INTERTEXT_SOURCES", raising=False)
    tamper(real_copy / LUCAN_1)
    with pytest.raises(SourceError) as info:
        resolve_sources(None)
    assert "Run `latin-intertext fetch` to download them again" in str(info.value) and "is a local mirror" not in str(info.value)


def test_missing_and_corrupted_files_are_listed_together(real_copy):
    gold = naacl_entry("naacl2021/vf_intertext_dataset_1_0.csv")
    (real_copy / gold.local_path).unlink()
    tamper(real_copy / LUCAN_1)
    with pytest.raises(SourceError) as info:
        verify(real_copy, load_manifest())
    msg = str(info.value)
    assert f"{real_copy / gold.local_path}: missing (expected sha256 {gold.sha256})" in msg
    assert f"{real_copy / LUCAN_1}: sha256 mismatch" in msg
    assert "latin-intertext fetch" in msg


def test_sources_option_must_be_a_directory(tmp_path, monkeypatch):
    with pytest.raises(SourceError, match=r"--sources points to .*nowhere, which is not a directory"):
        resolve_sources(tmp_path / "nowhere")
    monkeypatch.setenv(SOURCES_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(SourceError, match=rf"\${SOURCES_ENV} points to"):
        resolve_sources()


def test_fetch_downloads_into_cache_and_verifies(sources_dir, tmp_path, monkeypatch):
    requested = serve_from(monkeypatch, sources_dir)
    cache = tmp_path / "cache"
    files = load_manifest()
    done = []
    assert fetch(files, cache, on_file=done.append) == cache
    assert len(requested) == 58 and done == files
    assert all(sha256_of(cache / f.local_path) == f.sha256 for f in files)
    assert not list(cache.rglob(".partial-*"))
    requested.clear()
    fetch(files, cache)  # already complete: nothing downloaded again
    assert requested == []


def test_fetch_cli_fills_the_default_cache(sources_dir, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv(SOURCES_ENV, raising=False)
    requested = serve_from(monkeypatch, sources_dir)
    code, _out, err = run_cli(monkeypatch, capsys, "fetch")
    assert code == 0
    cache = tmp_path / "home" / "sources"
    assert f"fetched and verified 58 naacl2021 files in {cache}" in err
    assert len(requested) == 58
    verify(cache, load_manifest())
    # then `build` with no --sources uses the cache without touching the network
    attempts = block_network(monkeypatch)
    code, _out, err = run_cli(monkeypatch, capsys, "build", "--out", tmp_path / "ds")
    assert (code, attempts) == (0, [])
    assert "corpus=39,675 queries=482 qrels=978" in err


def test_tampered_download_is_rejected_and_leaves_no_file(sources_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(SOURCES_ENV, raising=False)
    serve_from(monkeypatch, sources_dir, corrupt=LUCAN_1)
    entry = naacl_entry(LUCAN_1)
    cache = tmp_path / "cache"
    code, _out, err = run_cli(monkeypatch, capsys, "fetch", "--dest", cache)
    assert code == 1
    assert f"{entry.url}: sha256 mismatch: expected {entry.sha256}, actual " in err
    assert not (cache / LUCAN_1).exists()
    assert [p.name for p in (cache / LUCAN_1).parent.iterdir() if p.name.startswith(".partial-")] == []


def test_download_failure_suggests_a_mirror(tmp_path, monkeypatch):
    def unreachable(url, timeout=None):
        raise OSError("no route to host")

    monkeypatch.setattr("urllib.request.urlopen", unreachable)
    with pytest.raises(SourceError, match=r"Could not download https://raw\.githubusercontent\.com/.*no route to host.*--sources DIR"):
        fetch(load_manifest()[:1], tmp_path / "cache")
    assert not [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]


def test_fetch_cli_with_mirror_only_verifies(sources_dir, real_copy, monkeypatch, capsys):
    attempts = block_network(monkeypatch)
    code, _out, err = run_cli(monkeypatch, capsys, "fetch", "--sources", sources_dir)
    assert code == 0 and f"verified 58 naacl2021 files in mirror {sources_dir}" in err
    (real_copy / LUCAN_1).unlink()
    code, _out, err = run_cli(monkeypatch, capsys, "fetch", "--sources", real_copy)
    assert code == 1
    assert f"{real_copy / LUCAN_1}: missing (expected sha256 {naacl_entry(LUCAN_1).sha256})" in err
    assert attempts == []
