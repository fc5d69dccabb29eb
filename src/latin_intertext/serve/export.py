"""A search's parallels as CSV, for a spreadsheet: one row per hit, as Tesserae v3 exports its results.

Tesserae's CSV gives each parallel's rank, both loci and texts, the shared words and the score; so does this,
with the line's id and the kind of each match (form, lemma, candidate) spelled out, since a spreadsheet has no
colours. The passage searched stands in every row, so that rows copied out of the file still say what they answer.
A text cell that a spreadsheet would run as a formula (one opening with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return: a passage is whatever a user typed, and a CSV from the web page may reach someone else) is written with a
``'`` before it, as OWASP advises against CSV injection; numbers are written as they are.
"""

from __future__ import annotations

import csv
import io
from typing import Sequence

from latin_intertext import latin
from latin_intertext.serve.explain import MatchedWord
from latin_intertext.serve.searcher import Hit

CSV_COLUMNS = ("rank", "score", "id", "author", "work", "locus", "text", "shared", "n_shared", "query")


def shared_words(matches: Sequence[MatchedWord]) -> str:
    """Each match as ``lemma (kind): query forms ~ line forms``, a function word marked weak; ``; `` between them."""
    return "; ".join(
        f"{latin.display_lemma(m.lemma)} ({m.kind}{', weak' if m.weak else ''}): {' '.join(w.form for w in m.query)} ~ {' '.join(w.form for w in m.line)}" for m in matches
    )


def hits_csv(query: str, hits: Sequence[Hit]) -> str:
    """The CSV text (a header row, then one row per hit, best first) of ``hits`` found for ``query``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for hit in hits:
        c = hit.citation
        texts = [c.id, c.author, c.work, c.locus, hit.text, shared_words(hit.matches)]
        writer.writerow([hit.rank, f"{hit.score:.6g}", *map(inert, texts), len(hit.matches), inert(query)])
    return out.getvalue()


_FORMULA_OPENERS = ("=", "+", "-", "@", "\t", "\r")


def inert(cell: str) -> str:
    """``cell`` as a spreadsheet shows it and never runs it: a ``'`` before a formula's opening character."""
    return f"'{cell}" if cell.startswith(_FORMULA_OPENERS) else cell
