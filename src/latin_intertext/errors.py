"""Errors a user can act on: each names the file, line or field and says how to fix it."""

from __future__ import annotations


class LatinIntertextError(Exception):
    """Base of every error the CLI reports without a traceback (exit status 1)."""

    exit_code = 1


class SourceError(LatinIntertextError):
    """A source file is missing or does not match its pinned sha256."""


class InputError(LatinIntertextError):
    """Bad records in an input file; ``problems`` lists every one as ``file:line: reason``."""

    def __init__(self, summary: str, problems: list[str] | None = None, hint: str = ""):
        self.summary = summary
        self.problems = list(problems or [])
        self.hint = hint
        super().__init__(self.render())

    def render(self, limit: int = 50) -> str:
        lines = [self.summary]
        lines += [f"  {p}" for p in self.problems[:limit]]
        if len(self.problems) > limit:
            lines.append(f"  ... and {len(self.problems) - limit} more")
        if self.hint:
            lines.append(self.hint)
        return "\n".join(lines)


# Byte-order marks of encodings that are not UTF-8, longest first (UTF-32-LE's starts with UTF-16-LE's).
_OTHER_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


def refuse_other_bom(name: str, raw: bytes, source: str, target: str) -> None:
    """An error for a file that starts with a UTF-16 or UTF-32 byte-order mark, with the ``iconv`` that converts it
    (``source`` and ``target``: how the hint names the file and its copy); a latin1 hint would make mojibake of it."""
    for bom, encoding in _OTHER_BOMS:
        if raw.startswith(bom):
            raise InputError(
                f"{name}:1: starts with a {encoding} byte-order mark ({bom.hex(' ').upper()}): the file is {encoding}, not UTF-8",
                hint=f"Convert it to UTF-8: `iconv -f {encoding} -t UTF-8 {source} > {target}`.",
            )


def not_utf8(name: str, raw: bytes, exc: UnicodeDecodeError, hint: str, first_line: int = 1) -> InputError:
    """The error for bytes of ``raw`` (a file, or its line ``first_line``) that are not UTF-8, located as
    ``file:line`` and the byte within the line."""
    line_start = raw.rfind(b"\n", 0, exc.start) + 1
    lineno = first_line + raw.count(b"\n", 0, exc.start)
    return InputError(f"{name}:{lineno}: byte {exc.start - line_start + 1} of the line (0x{raw[exc.start]:02x}) is not UTF-8", hint=hint)


class ValidationError(LatinIntertextError):
    """A published dataset folder fails validation."""
