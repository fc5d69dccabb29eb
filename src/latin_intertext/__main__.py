"""``python -m latin_intertext``: the ``latin-intertext`` command, for an environment whose scripts are not on PATH."""

from latin_intertext.cli import run

if __name__ == "__main__":
    run()
