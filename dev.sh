#!/usr/bin/env bash
# The project's two entry points, both idempotent; each creates .venv/ with the CLI in it.
#   bash dev.sh run    build the benchmark, validate it, print its statistics and train the search model
#   bash dev.sh test   install what the tests need (Chromium included) and run them
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3)}

ensure_venv() {
    [ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
    local stamp
    stamp=$(cat pyproject.toml constraints.txt | sha256sum | cut -c1-16)
    if [ "$(cat .venv/.installed 2>/dev/null)" != "$stamp" ]; then
        echo "==> installing into .venv (pinned by constraints.txt)"
        .venv/bin/python -m pip install -q --upgrade pip
        # torch first and exactly 2.13.0: the CPU build; any other spec pulls gigabytes.
        .venv/bin/python -m pip install -q -c constraints.txt torch==2.13.0
        .venv/bin/python -m pip install -q -c constraints.txt -e ".[mteb,dense,test]"
        echo "$stamp" > .venv/.installed
    fi
}

ensure_chromium() {
    if [ ! -x /usr/bin/chromium ]; then
        echo "==> installing Debian's chromium for the browser tests"
        if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
    fi
}

case "${1:-}" in
    run)
        ensure_venv
        # every command reads and writes the default dataset folder (under $LATIN_INTERTEXT_HOME, as search does)
        .venv/bin/latin-intertext build
        .venv/bin/latin-intertext validate
        .venv/bin/latin-intertext stats
        .venv/bin/latin-intertext train-ranker
        ;;
    test)
        ensure_venv
        ensure_chromium
        if [ -z "${LATIN_INTERTEXT_SOURCES:-}" ] && [ -d ../shared/sources ]; then
            export LATIN_INTERTEXT_SOURCES=$PWD/../shared/sources
        fi
        shift
        .venv/bin/python -m pytest "$@"
        ;;
    *)
        echo "usage: bash dev.sh run|test [pytest args]" >&2
        exit 2
        ;;
esac
