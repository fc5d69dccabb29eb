"""Every command explains every option, and the options several commands share are named and read alike."""

from __future__ import annotations

import click
import typer.main

from latin_intertext.cli import _load_commands, app
from latin_intertext.cli.options import RETRIEVER_NAMES, SEARCH_ONLY_NAMES
from latin_intertext.retrieve import load_all


def _commands() -> dict[str, click.Command]:
    _load_commands()
    return typer.main.get_command(app).commands


def test_every_option_and_argument_of_every_command_has_help():
    missing = [
        f"{name} {param.opts[0] if isinstance(param, click.Option) else param.name}"
        for name, command in _commands().items()
        for param in command.params
        if not getattr(param, "help", None)
    ]
    assert not missing, missing


def test_commands_that_read_the_dataset_all_take_dataset():
    readers = ("validate", "stats", "push", "evaluate", "compare", "leaderboard", "figures", "train-ranker", "ranker-report", "search", "serve")
    commands = _commands()
    assert all("--dataset" in [opt for p in commands[name].params for opt in p.opts] for name in readers)


def test_the_retriever_names_in_help_texts_are_the_registry_s():
    from latin_intertext.serve.searcher import SEARCH_ONLY

    assert sorted(RETRIEVER_NAMES) == sorted(load_all())
    assert sorted(SEARCH_ONLY_NAMES) == sorted(SEARCH_ONLY)
    for command in ("search", "serve"):
        retriever = next(p for p in _commands()[command].params if "--retriever" in p.opts)
        assert all(name in retriever.help for name in (*RETRIEVER_NAMES, *SEARCH_ONLY_NAMES)), command


def test_every_k_option_has_the_short_name_k():
    """``-k`` is what BEIR and MTEB users type for the retrieval depth; every command taking ``--k`` takes it."""
    with_k = {name: p for name, command in _commands().items() for p in command.params if "--k" in p.opts}
    assert {"search", "evaluate", "leaderboard"} <= set(with_k)
    assert all("-k" in p.opts for p in with_k.values()), sorted(name for name, p in with_k.items() if "-k" not in p.opts)


def test_json_is_a_switch_that_prints_and_save_json_takes_the_file_on_every_command():
    """One name, one meaning: ``--json`` prints JSON instead of the table, ``--save-json FILE`` writes the report."""
    options = [(name, p) for name, command in _commands().items() for p in command.params if hasattr(p, "is_flag")]
    printing = sorted(name for name, p in options if "--json" in p.opts)
    saving = sorted(name for name, p in options if "--save-json" in p.opts)
    assert printing == ["search", "stats"] and all(p.is_flag for name, p in options if "--json" in p.opts)
    assert saving == ["compare", "evaluate", "ranker-report", "transfer-report"]
    assert not any(p.is_flag for name, p in options if "--save-json" in p.opts)


def test_no_switch_s_help_shows_a_value_type():
    """A switch takes no value, so its help line shows none (typer would print ``<bool>``), on every command, --help
    included."""
    from typer.testing import CliRunner

    switches = {name: ["--help", *(p.opts[0] for p in command.params if getattr(p, "is_flag", False))] for name, command in _commands().items()}
    switches[None] = ["--help", "--version"]  # the command's own; --help, which typer adds, is a switch too
    assert sum(map(len, switches.values())) >= 8 + len(switches)
    for name, opts in switches.items():
        shown = CliRunner().invoke(app, [*([name] if name else []), "--help"], env={"COLUMNS": "200"}).output.splitlines()
        lines = [next(line for line in shown if f"{opt} " in line) for opt in opts]
        assert not any("<bool>" in line for line in lines), (name, lines)


def test_search_help_states_the_k_limit():
    from latin_intertext.serve.searcher import MAX_K

    k = next(p for p in _commands()["search"].params if "--k" in p.opts)
    assert f"1 to {MAX_K:,}" in k.help


def test_a_dataset_given_two_ways_must_agree(dataset_dir, tmp_path, monkeypatch, capsys):
    from fixtures.build.helpers import run_cli

    for args in (("stats", dataset_dir, "--json"), ("stats", "--dataset", dataset_dir, "--json")):
        code, out, _err = run_cli(monkeypatch, capsys, *args)
        assert code == 0 and '"corpus"' in out
    code, _out, err = run_cli(monkeypatch, capsys, "stats", dataset_dir, "--dataset", tmp_path)
    assert code == 1 and "Two dataset folders given" in err


def test_python_dash_m_runs_the_command_line(tmp_path):
    """``python -m latin_intertext`` is ``latin-intertext``: the same commands, the same exit codes."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "LATIN_INTERTEXT_HOME": str(tmp_path)}
    ok = subprocess.run([sys.executable, "-m", "latin_intertext", "ranker-report", "--help"], capture_output=True, text=True, env=env)
    assert ok.returncode == 0 and "--cv" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "latin_intertext", "no-such-command"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "no-such-command" in bad.stderr


def test_version_names_the_package_the_dataset_and_the_lemmatiser(capsys):
    from latin_intertext import __version__
    from latin_intertext.cli import main
    from latin_intertext.latin import LEMMATISER_VERSION

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"latin-intertext {__version__} (LatinEpicIntertextualityRetrieval v1.0.0, lemmatiser v{LEMMATISER_VERSION})\n"


def test_the_command_reference_is_the_commands_own(tmp_path):
    """docs/cli.md lists every option of every command: written from the commands, it must be rewritten when one changes."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "LATIN_INTERTEXT_HOME": str(tmp_path / "home")}
    written = subprocess.run([sys.executable, "-m", "latin_intertext.cli.reference"], env=env, capture_output=True, text=True, check=True).stdout
    shipped = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    assert written == shipped, "docs/cli.md is out of date: python -m latin_intertext.cli.reference > docs/cli.md"
    assert all(f"## `latin-intertext {name}`" in shipped for name in _commands())
    assert "--tesserae-la" in shipped.split("## `latin-intertext serve`")[1] and str(tmp_path) not in written
