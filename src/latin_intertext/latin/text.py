"""What a Latin text is before any lexicon reads it: its characters, its words and where its sentences and phrases end.

Accents, ligatures and the marks that text pasted from a PDF or a web page carries are read as typed; mis-decoded
punctuation is decoded again for a reader and is no word; a text is cut into phrases as Tesserae v3 cuts it, and a
phrase of too many words after its commas. Nothing here lemmatises: :mod:`latin_intertext.latin` does, on these words.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from typing import Callable

_COMBINING_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
# A word: letters, with any accents typed as combining marks after them (*ā́*, which has no precomposed form).
# Invisible characters inside a word in text pasted from a PDF or a web page: the soft hyphen (a break point), the
# zero-width space and joiners, the word joiner and the byte-order mark; each is dropped, so the word reads as typed.
_INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
# An editor's brackets inside a word (*virum[que]*, *⟨que⟩*) and a hyphen breaking a word at a line's end (*vi-* then
# *rumque*): the word is one word, read without them.
_IN_WORD_BREAK = "[\\[\\]\u27e8\u27e9](?=[^\\W\\d_])|-[ \\t]*\\r?\\n\\s*(?=[^\\W\\d_])"
_WORD = re.compile(f"[^\\W\\d_](?:[^\\W\\d_]|[{_COMBINING_MARKS}{_INVISIBLE}]|{_IN_WORD_BREAK})*")
_BREAK_MARKS = re.compile(r"[\[\]\u27e8\u27e9]|-[ \t]*\r?\n\s*")


# Ligatures written out, typographic ones (ﬁ, ﬂ: text pasted from a PDF) and the long s (ſ) too; invisible characters dropped.
_LIGATURES = str.maketrans(
    {"æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ſ": "s", "ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}
    | dict.fromkeys(map(ord, _INVISIBLE))
)


def strip_diacritics(text: str) -> str:
    """Accents and diaereses off and ligatures written out (*sǽva*, *Æneas*, *ﬁnis*: *saeva*, *Aeneas*, *finis*), as most
    editions spell."""
    if _BREAK_MARKS.search(text):
        text = _BREAK_MARKS.sub("", text)  # the brackets and line-end hyphens a word may hold (:data:`_IN_WORD_BREAK`)
    if text.isascii():  # nothing to decompose: the common case, kept cheap
        return text
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).translate(_LIGATURES)


# Full-width letters, digits and punctuation (ａｒｍａ, as an East Asian keyboard types them) and the ideographic space, as
# their ASCII characters: one character for one, so every offset stays where it was (Unicode NFKC's mapping of them).
_FULL_WIDTH = str.maketrans({0x3000: " ", **{code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}})


def composed(text: str) -> str:
    """``text`` with accents typed as combining marks joined to their letters (Unicode NFC), so that *ú* typed as
    u and a combining acute stays inside its word, and with full-width characters as ASCII (*ａｒｍａ*: *arma*); a
    passage is read and shown in this form."""
    return text if text.isascii() else unicodedata.normalize("NFC", text.translate(_FULL_WIDTH))


def fold(text: str) -> str:
    """Lower-case, strip diacritics and write v as u and j as i."""
    return strip_diacritics(text).lower().replace("v", "u").replace("j", "i")


def sound_text(text: str) -> str:
    """The folded words of ``text`` joined by single spaces: what character
    n-gram (sound) evidence compares, the same for a query as for a line (enclitics as written, punctuation left out),
    so that a text sounds exactly like itself."""
    return " ".join(fold(word) for word, _, _ in words(text))


_CLOSED = re.compile(r"[.;:?!][\s'\"\u2019\u201d)\]]*$")  # a sentence's end, closing quotes and brackets after it


def ends_sentence(text: str) -> bool:
    """Whether ``text`` (a verse line) closes its sentence, so the next line does not carry it on (``?”`` too when the
    quotation mark is mis-decoded, as in Statius)."""
    return bool(_CLOSED.search(readable(text).rstrip()))


# Tesserae v3's phrase delimiters, then any closing quotes or brackets (a space may stand before them, as in some
# texts' "O mors ! "): where a phrase ends, when whitespace follows.
_PHRASE_END = re.compile(r"[.;:?!]+(?:\s*[\"'\u2019\u201d\u00bb)\]]+)*(?=\s)")
MIN_PHRASE_WORDS = 3  # a piece of fewer words ("Quid?", "O mors !") joins the phrase after it
MAX_PHRASE_WORDS = 40  # a phrase of more words is cut after its commas too (see :func:`clauses`)
_CLAUSE_END = re.compile(r",(?=\s)")
# Words whose full stop marks an abbreviation, never a phrase's end: single letters (first names, "a. d.", "rei p.",
# "P. f."), other first names, dates (Kal., Non., Id., months) and offices (cos., tr. pl.); Non. and Id. only with a
# capital (non. and id. end sentences).
_ABBREVIATION = re.compile(
    r"(?:^|[\s\"'\u2018\u201c(\[])(?:(?i:[a-z]|cn|sp|ti|tib|ser|sex|app|ap|mam|m'|kal|prid|pr|cos|coss|procos|pl|tr|hs|ian|febr|mart|apr|mai|iun|iul|quint|sext|sept|oct|nov|dec)|Non|Id)\.$"
)


def phrases(text: str) -> list[str]:
    """``text`` cut into phrases after Tesserae v3's phrase delimiters (. ; : ? !) and any closing quotes or brackets,
    as v3 cuts prose, except after an abbreviation (*P. Clodius*, *a. d. VI Kal. Nov.*, *tr. pl.*) or at a question or
    exclamation in brackets opened mid-sentence (:func:`_asides`), where v3 cuts too;
    a piece of fewer than MIN_PHRASE_WORDS words (:func:`words`) joins the phrase after it, the last the one before.
    ``[text]`` when it holds one phrase. A phrase of more than MAX_PHRASE_WORDS words is then cut into :func:`clauses`."""
    return [clause for phrase in _sentences(text) for clause in clauses(phrase)]


def clauses(phrase: str, limit: int = MAX_PHRASE_WORDS) -> list[str]:
    """``phrase`` cut after commas into runs of whole clauses of at most ``limit`` words each; ``[phrase]`` when it is
    no longer. A comma inside brackets of at most ``limit`` words cuts nothing; a clause of more than ``limit`` words
    stays whole, and a run of fewer than MIN_PHRASE_WORDS words joins the one after it (the last takes clauses from
    the one before, or joins it), so only a run holding such a clause or short run goes over ``limit``.
    Tesserae v3 keeps such a phrase whole, but where punctuation is sparse (Augustine's letters) it can run to over 250
    words, and words matched 60 words apart in one are no parallel, nor can a reader find them in it."""
    if word_count(phrase) <= limit:
        return [phrase]
    sheltered = [(a, b) for a, b in _bracketed(phrase) if word_count(phrase[a : b + 1]) <= limit]
    runs: list[list[tuple[str, int]]] = []  # each run: its clauses, with their word counts
    for piece in _cut_after(phrase, _CLAUSE_END, lambda m, _start: _inside(m, sheltered)):
        n = word_count(piece)
        if runs and (_count(runs[-1]) < MIN_PHRASE_WORDS or _count(runs[-1]) + n <= limit):  # "Sed," goes with what follows
            runs[-1].append((piece, n))
        else:
            runs.append([(piece, n)])
    if len(runs) > 1 and _count(runs[-1]) < MIN_PHRASE_WORDS:  # a short tail takes clauses from the run before, or joins it
        while len(runs[-2]) > 1 and _count(runs[-1]) < MIN_PHRASE_WORDS and runs[-2][-1][1] + _count(runs[-1]) <= limit:
            runs[-1].insert(0, runs[-2].pop())
        if _count(runs[-1]) < MIN_PHRASE_WORDS:
            runs[-2:] = [runs[-2] + runs[-1]]
    return [" ".join(piece for piece, _ in run) for run in runs]


def _count(run: list[tuple[str, int]]) -> int:
    return sum(n for _, n in run)


def _cut_after(text: str, ends: re.Pattern, held: Callable[[re.Match, int], bool]) -> list[str]:
    """``text`` cut after each match of ``ends`` that ``held(match, start of the piece so far)`` does not hold back;
    the pieces stripped, the empty ones left out."""
    pieces, start = [], 0
    for m in ends.finditer(text):
        if not held(m, start):
            pieces.append(text[start : m.end()])
            start = m.end()
    pieces.append(text[start:])
    return [piece for piece in map(str.strip, pieces) if piece]


def _inside(m: re.Match, spans: list[tuple[int, int]]) -> bool:
    return any(a < m.start() < b for a, b in spans)


def _bracketed(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of each closed pair of round, or of square, brackets in ``text``; a bracket never closed
    shelters nothing, nor does a closing bracket of the other kind close it."""
    spans: list[tuple[int, int]] = []
    opened: dict[str, list[int]] = {"(": [], "[": []}
    for i, ch in enumerate(text):
        if ch in opened:
            opened[ch].append(i)
        elif (kind := {")": "(", "]": "["}.get(ch)) and opened[kind]:
            spans.append((opened[kind].pop(), i))
    return spans


_SENTENCE_STOP = re.compile(r"[.;:]\s")


def _asides(text: str) -> list[tuple[int, int]]:
    """The brackets opened inside a sentence (words before them since the last full stop, semicolon or colon): a
    question or exclamation in one (*triumphabat (quid quaeris?) Hortensius*) is an aside, not the sentence's end."""
    stops = [m.end() for m in _SENTENCE_STOP.finditer(text)]
    return [(a, b) for a, b in _bracketed(text) if words(text[_last_at_or_before(stops, a) : a])]


def _last_at_or_before(ends: list[int], pos: int) -> int:
    """The last of the sorted ``ends`` not after ``pos``, or 0: where the sentence holding ``pos`` begins."""
    i = bisect.bisect_right(ends, pos)
    return ends[i - 1] if i else 0


def _sentences(text: str) -> list[str]:
    """``text`` cut as :func:`phrases` cuts it, before any phrase is cut into clauses."""
    text = text.strip()
    asides = _asides(text)

    def held(m: re.Match, start: int) -> bool:
        return bool(_ABBREVIATION.search(text[start : m.end()])) or (m.group()[0] in "?!" and _inside(m, asides))

    out: list[str] = []
    carry = ""
    for piece in _cut_after(text, _PHRASE_END, held):
        piece = f"{carry} {piece}" if carry else piece
        if word_count(piece) < MIN_PHRASE_WORDS:
            carry = piece
            continue
        out.append(piece)
        carry = ""
    if carry:
        out[-1:] = [f"{out[-1]} {carry}" if out else carry]
    return out


# UTF-8 punctuation decoded as Latin-1 (e.g. an em dash read as "â\x80\x94"), as found in some sources.
_MOJIBAKE = re.compile(r"[âÃÂ][\x80-\xbf]+")


def _without_mojibake(text: str) -> str:
    return text if text.isascii() else _MOJIBAKE.sub(lambda m: " " * len(m.group()), text)


def readable(text: str) -> str:
    """``text`` with its mis-decoded punctuation decoded again (``â\x80\x94``: —; 674 Statius lines hold some), as
    shown to a reader and as its sentence's end is read; it has the same words as ``text``, at other offsets."""
    return text if text.isascii() else _MOJIBAKE.sub(_redecoded_punctuation, text)


def _redecoded_punctuation(match: re.Match) -> str:
    try:
        fixed = match.group().encode("latin-1").decode("utf-8")
    except UnicodeError:
        return match.group()
    return fixed if all(unicodedata.category(ch)[0] in "PSZ" for ch in fixed) else match.group()


def words(text: str) -> list[tuple[str, int, int]]:
    """The alphabetic words of ``text`` with their character offsets; mis-decoded punctuation is not a word."""
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(_without_mojibake(text))]


def word_count(text: str) -> int:
    """How many words :func:`words` finds: what a length limit counts (a dash or a number is no word)."""
    return len(_word_strings(text))


def _word_strings(text: str) -> list[str]:
    """The words of :func:`words` without offsets."""
    return _WORD.findall(_without_mojibake(text))


_LATIN_SCRIPT = re.compile(r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff]+")  # with accented letters and ligatures (æ, œ)


def in_latin_alphabet(word: str) -> bool:
    """Whether ``word`` is written in Latin letters, not in Greek or another script."""
    return bool(_LATIN_SCRIPT.fullmatch(strip_diacritics(word)))


def has_latin_words(text: str) -> bool:
    return bool(_WORD.search(text))
