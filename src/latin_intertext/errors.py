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


def not_utf8(name: str, raw: bytes, exc: UnicodeDecodeError, hint: str, first_line: int = 1) -> InputError:
    """The error for bytes of ``raw`` (a file, or its line ``first_line``) that are not UTF-8, located as
    ``file:line`` and the byte within the line."""
    line_start = raw.rfind(b"\n", 0, exc.start) + 1
    lineno = first_line + raw.count(b"\n", 0, exc.start)
    return InputError(f"{name}:{lineno}: byte {exc.start - line_start + 1} of the line (0x{raw[exc.start]:02x}) is not UTF-8", hint=hint)


class ValidationError(LatinIntertextError):
    """A published dataset folder fails validation."""
