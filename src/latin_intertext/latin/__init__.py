"""Latin text processing: the one place where text becomes tokens and lemmas.

Every retriever, feature and view goes through this module, so that matching
is the same everywhere. Matching is done on *folded* forms: lower case, no
diacritics, ``v`` written ``u`` and ``j`` written ``i``. Lemmatising uses
simplemma, whose Latin dictionary mostly spells consonantal u as ``v``, so
folded forms are retried with ``v`` restored. Enclitics (-que, -ne, -ve) are
split off where the lexicon knows the base and not the whole form (and -que off
unknown names). Lemmas get one spelling across editions (:func:`canonical_lemma`);
words no lexicon knows get a guessed stem (:func:`guess_stem`). A word capitalised
inside a sentence is read as a name where simplemma has one (:func:`name_lemma`).
simplemma's slips are mended where Whitaker's Words shows them: headwords filed under a
derived word (*grauis* under *grauior*) and a short table of frequent forms (``SIMPLEMMA_ERRORS``).

This module lemmatises and tokenises; two others of the package serve it, and their public names are read here
too (``latin.words``, ``latin.NAME_READINGS``): :mod:`~latin_intertext.latin.text`, a text's characters, words and
phrases before any lexicon reads them, and :mod:`~latin_intertext.latin.tables`, the lemmatiser's tables.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

import simplemma

from latin_intertext.errors import LatinIntertextError
from latin_intertext.latin.tables import (  # the tables, read here and as latin.NAME
    DEICTIC_QUESTIONS, ENCLITICS, MERGED_HEADWORDS, NAME_ONLY_READINGS, NAME_READINGS, PARADIGM_READINGS,
    SIMPLEMMA_ERRORS, VERSE_READINGS, _ANY_LATER_SPELLING, _ASSIMILATED, _ASSIMILATION, _CLASSICAL_SPELLINGS,
    _ENCLITIC_OVER_LEXICON, _LEMMA_OVERRIDES, _LEMMA_VARIANTS, _NAME_OVERRIDES, _NOT_ENCLITIC, _OLDER_VOWELS,
    _SENSES, _UNASSIMILATED, _UNASSIMILATION,
)
from latin_intertext.latin.text import (  # words and phrases, read here and as latin.NAME
    MAX_PHRASE_WORDS, MIN_PHRASE_WORDS, _WORD, _without_mojibake, _word_strings, clauses, composed, ends_sentence,
    fold, has_latin_words, in_latin_alphabet, phrases, readable, sound_text, strip_diacritics, word_count, words,
)
from latin_intertext.word_analyses import as_frozenset, as_tuple, kept_on_disk, same, sorted_list

# Bump whenever a change to this package changes any form or lemma: the lemma caches, the Tesserae-la index and
# the word vectors record it, so that nothing built from older lemmas is used with newer ones.
LEMMATISER_VERSION = 31
WORD_CACHE = 1 << 18  # forms each per-word cache keeps: a server fed arbitrary passages must not grow without bound


def require_lemmatiser(recorded: object, what: str, consequence: str, rebuild: str) -> None:
    """Refuse ``what`` (an index, vectors) built from another lemmatiser's lemmas, naming the command that rebuilds it."""
    if recorded != LEMMATISER_VERSION:
        raise LatinIntertextError(
            f"{what} holds lemmas from another lemmatiser (version {recorded}, now {LEMMATISER_VERSION}), "
            f"so {consequence}. Rebuild it with {rebuild}."
        )


_VOWELS = frozenset("aeiouy")


@dataclass(frozen=True, slots=True)
class Token:
    """One word of a text, with where it stands."""

    form: str  # as written
    norm: str  # folded form, used for matching
    lemma: str  # folded lemma
    position: int  # index among the word tokens of the text
    start: int  # character offsets in the original text
    end: int
    enclitic: str = ""  # the enclitic split off this word, if any


STEM_LENGTH = 5
# Lemmas of words that carry grammar, not allusion: a match on them alone is shown as weak evidence.
FUNCTION_LEMMAS = frozenset(
    """a ab ad at atque aut autem cum de dum e ego et etiam ex hic iam idem ille in inter ipse is iste
    meus nam ne nec neque non nos nunc o per post pro quam que qui quia quidem quis quod se sed si sic
    sub sui sum suus tamen tu tum tuus ubi uel ut uos""".split()
)


def stem(norm: str) -> str:
    """The first five letters of a folded form ("" for a shorter one): catches the forms a lemmatiser misses."""
    return norm[:STEM_LENGTH] if len(norm) >= STEM_LENGTH else ""


def commonest(counts: dict[str, int], n: int) -> list[str]:
    """The ``n`` most counted lemmas, ties in alphabetical order: Tesserae v3's stop list of a corpus."""
    return sorted(counts, key=lambda lemma: (-counts[lemma], lemma))[:n]


def _consonantal_u_positions(form: str) -> list[int]:
    """Positions where a folded ``u`` may stand for consonantal ``v``."""
    spots = []
    for i, ch in enumerate(form):
        if ch != "u" or i + 1 >= len(form) or form[i + 1] not in _VOWELS:
            continue
        before = form[i - 1] if i else ""
        if before == "q" or (before == "g" and i >= 2 and form[i - 2] == "n"):
            continue
        spots.append(i)
    return spots[:4]


def spellings(form: str) -> list[str]:
    """Candidate dictionary spellings of a lower-case form, most likely first."""
    folded = fold(form)
    out = [form] if form != folded else []
    for v in respellings(folded, _consonantal_u_positions(folded), "v"):
        if v not in out:
            out.append(v)
    return out


@kept_on_disk(same, same, WORD_CACHE)
def display_lemma(lemma: str) -> str:
    """A folded lemma as a reader looks it up: consonantal *u* written *v* where the lexicon knows that spelling
    (*uir*, *nouus*, *iuuenis*: *vir*, *novus*, *iuvenis*; *tuus*, *aqua* stay). Matching keeps the folded one."""
    return next((s for s in spellings(lemma) if s != lemma and simplemma.is_known(s, lang="la")), lemma)


def respellings(form: str, spots: list[int], letter: str) -> list[str]:
    """``form`` with every subset of ``spots`` rewritten as ``letter``: all of them first, ``form`` itself last."""
    out: list[str] = []
    for mask in itertools.product((True, False), repeat=len(spots)):
        chars = list(form)
        for spot, rewrite in zip(spots, mask):
            if rewrite:
                chars[spot] = letter
        variant = "".join(chars)
        if variant not in out:
            out.append(variant)
    return out


def prefix_spellings(folded: str) -> list[str]:
    """A folded form with its prefix written the other way, assimilated or not (*inmota*: *immota*; *irritamen*:
    *inritamen*), or none: editions differ, and a lexicon may know a word in one spelling only (lemmatiser v23)."""
    for pattern, table in ((_ASSIMILATION, _ASSIMILATED), (_UNASSIMILATION, _UNASSIMILATED)):
        if (other := _respelled_prefix(folded, pattern, table)) != folded:
            return [other]
    return []


def _respelled_prefix(folded: str, pattern: re.Pattern, table: dict[str, str]) -> str:
    """``folded`` with the prefix ``pattern`` matches at its start written as ``table`` has it."""
    return pattern.sub(lambda prefix: table[prefix.group()], folded, count=1)


def dictionary_spellings(form: str) -> list[str]:
    """:func:`spellings` of the form, then those of its other prefix spelling (:func:`prefix_spellings`)."""
    return [*spellings(form), *(spelling for other in prefix_spellings(fold(form)) for spelling in spellings(other))]


@kept_on_disk(same, same, WORD_CACHE)
def is_known(form: str) -> bool:
    """Whether the Latin lexicon knows ``form`` in any of its spellings."""
    return any(simplemma.is_known(s, lang="la") for s in dictionary_spellings(form))


def unknown_words(text: str) -> tuple[list[str], list[str]]:
    """The words of ``text`` in small letters (a capital may be a name, which no lexicon need know), and those of
    them the lexicon knows in no spelling, with or without an enclitic: most of them unknown, the text is no Latin."""
    small = [w for w, _s, _e in words(text) if not w[:1].isupper()]
    return small, [w for w in small if not (is_known(fold(w)) or is_known(split_enclitic(fold(w))[0]))]


@lru_cache(maxsize=WORD_CACHE)
def split_enclitic(form: str) -> tuple[str, str]:
    """Split ``-que``, ``-ne`` or ``-ve`` off a lower-case form when the lexicon says the base is a word.

    Names no lexicon knows take *-que* too (``Macetumque``): an unknown form ending in it is split
    whenever the rest has three letters or more.
    """
    folded = fold(form)
    if folded in _NOT_ENCLITIC:
        return form, ""
    for clitic in ENCLITICS:
        folded_clitic = fold(clitic)
        if folded.endswith(folded_clitic) and len(folded) - len(clitic) >= 2:
            base = form[: -len(clitic)]
            if folded in _ENCLITIC_OVER_LEXICON or (not _known_exact(form) and is_known(base)):
                return base, clitic
            if clitic == "que" and len(base) >= 3 and not is_known(form):
                return base, clitic
    return form, ""


def _known_exact(form: str) -> bool:
    return any(simplemma.is_known(s, lang="la") for s in (form, *spellings(form)[:1]))


@lru_cache(maxsize=WORD_CACHE)
def lemmatize(form: str) -> str:
    """The folded lemma of one lower-case word form (without enclitic); unknown words get :func:`guess_stem`."""
    folded = fold(form)
    # the tables are keyed by the later spelling, and serve the older one too (*uolnera* as *uulnera*)
    if (corrected := _LEMMA_OVERRIDES.get(folded) or _LEMMA_OVERRIDES.get(_later_vowels(folded))) is not None:
        return corrected
    for candidate in (form, *_greek_nominatives(form)):
        if (lemma := _simplemma_lemma(candidate)) is not None:
            return sense(fold(form), canonical_lemma(_base_headword(fold(form), _verb_of_verb_form(lemma))))
    return guess_stem(canonical_lemma(fold(form)))


def _simplemma_lemma(form: str) -> str | None:
    """simplemma's folded lemma for the first of the form's dictionary spellings it knows, or None."""
    lemma = _simplemma_headword(form)
    return None if lemma is None else fold(lemma)


def _simplemma_headword(form: str) -> str | None:
    """simplemma's lemma, as it writes it, for the first of the form's dictionary spellings it knows, or None."""
    for spelling in dictionary_spellings(form):
        if simplemma.is_known(spelling, lang="la"):
            return simplemma.lemmatize(spelling, lang="la")
    return None


# simplemma files a few syncopated perfects under the full perfect form, which is no headword (*petiisse*: *petiuisse*,
# *uixet*: *uixisset*); that form's own lemma is the verb (*peto*, *uiuo*).
_VERB_FORM = re.compile(r"(?:isse|isset|issent|erunt)$")


def _verb_of_verb_form(lemma: str) -> str:
    if _VERB_FORM.search(lemma) and (verb := _simplemma_lemma(lemma)) is not None:
        return verb
    return lemma


# simplemma files some headwords under a word derived from them: the positive of many adjectives under its comparative
# or superlative (*grauis*: *grauior*, *altus*: *altior*, *nouus*: *nouissimus*) and masculine agent nouns under their
# feminine (*uictor*: *uictrix*), while every other form gets the headword (*graui*: *grauis*, *uictorem*: *uictor*).
_DERIVED_LEMMA = re.compile(r"(?:ior|issimus|rrimus|llimus|trix)$")
_DERIVED_FORM = re.compile(r"ior|ius|issim|rrim|llim|tri[cx]")


def _base_headword(folded: str, lemma: str) -> str:
    """The headword a form filed under a derived word (above) belongs to: the derived word's own lemma where Whitaker's
    Words allows it for the form (*suprema*: *superior*: *superus*), else the form itself or Words' one lemma for it.
    Deponent verbs (*patitur*: *patior*) keep their lemma: it is its own, and Words knows nothing else for the form."""
    if not _DERIVED_LEMMA.search(lemma) or _DERIVED_FORM.search(folded):
        return lemma
    allowed = _lexicon_lemmas(folded)
    base = _simplemma_lemma(lemma) or lemma
    if base != lemma and (base == folded or base in allowed):
        return base
    if folded in allowed:
        return folded
    plain = [candidate for candidate in allowed if not _DERIVED_LEMMA.search(candidate)]
    return plain[0] if len(allowed) == 1 and plain else lemma


_GREEK_EUS_CASE = re.compile(r"(?<=...)e(?:a|os|o)$")  # Nerea, Nereos, Nereo: cases of Nereus
_GREEK_ID_ENDINGS = r"id(?:is|i|em|a|e|os)"
_GREEK_ID_CASE = re.compile(rf"(?<=...){_GREEK_ID_ENDINGS}$")  # Colchidis, Colchida, Colchidos: cases of Colchis


def _greek_nominatives(form: str) -> tuple[str, ...]:
    """Nominatives of Greek cases the lexicon lacks: an accusative in -n (*Phasin*: *Phasis*; *Aenean*: *Aeneas*),
    the cases of names in -eus (*Nerea*, *Nereos*: *Nereus*), and, where the lexicon has that nominative as a headword
    of its own, the genitive in -eos of a name in -es (*Aeeteos*: *Aeetes*, not *Caeneos*: *caenes*, a form of *caeno*)
    and the cases of a name in -is with a stem in -id- (*Colchidos*, *Colchida*: *Colchis*; not *Alcidis*: *alcis*, a
    form of *alces*, nor *Aeneidis*, *Dardanidis*, the cases of other words that end so), and a nominative in -os
    whose Latin -us is a headword (*Ismenos*, *Apidanos*: *Ismenus*, *Apidanus*; lemmatiser v22)."""
    if len(form) >= 4 and form[-1] == "n" and form[-2] in _VOWELS:
        return (form[:-1] + "s", form[:-1])
    if _GREEK_EUS_CASE.search(form):
        return (_GREEK_EUS_CASE.sub("eus", form), *([nominative] if form.endswith("eos") and _is_headword(nominative := form[:-2] + "s") else []))
    if _GREEK_ID_CASE.search(form) and _is_headword(nominative := _GREEK_ID_CASE.sub("is", form)):
        return (nominative,)
    if len(form) >= 5 and form.endswith("os") and _is_headword(nominative := form[:-2] + "us"):
        return (nominative,)
    return ()


def _is_headword(form: str) -> bool:
    return _simplemma_lemma(form) == fold(form)


def _lexicon_lemmas(folded: str) -> set[str]:
    """Whitaker's Words' lemmas for a folded form, spelt as :func:`canonical_lemma` spells them."""
    return {canonical_lemma(candidate) for candidate in _lexicon().lookup(folded)}


def _is_own_lemma(folded: str, written: str) -> bool:
    """Whether a form (folded, and as written) is its own lemma for simplemma or among Whitaker's Words' lemmas for it."""
    return folded == lemmatize(written) or folded in _lexicon_lemmas(folded)


_COMPARATIVE = re.compile(r"(?:ius|ior(?:is|i|em|e|es|um|ibus|a)?)$")
_ER_STEM = re.compile(r"[^aeiouy]r$")  # nigr-, pulchr-, aegr-: the comparative stem of an adjective in -er


def comparative_positive(folded: str, lemma: str) -> str | None:
    """The positive of a comparative, so that it meets the positive's other forms as *altius* meets *altus*:

    - a comparative in -ius (neuter or adverb) whose lemma is its comparative (*largius*, *securius*: *largior*,
      *securior*; its positive *largus*, *securus*);
    - any form of a comparative in -rior of an adjective in -er (*nigrior*, *nigriora*: *niger*; lemmatiser v23);
    - any comparative form no lexicon knows, whose positive in -us, -is, -er or -ns it knows (*generosior*:
      *generosus*; *praesentius*: *praesens*; lemmatiser v23).

    None for any other form: the other endings of a known lemma in -ior are also a deponent verb's (*metior*,
    *morior*, *largitur*), a form that is a headword itself is that word (*potius* "rather": no form of *potus*), and
    the positive must be a headword of its own."""
    if (ending := _COMPARATIVE.search(folded)) is None or folded in _lexicon_lemmas(folded):
        return None
    if is_known(folded):
        if not lemma.endswith("ior"):
            return None
        stem = lemma[:-3]
        positives = [stem + "us", stem + "is"] if folded.endswith("ius") else []
    elif len(stem := folded[: ending.start()]) >= MIN_GUESSED_STEM:  # *metiore*, a misprint, is no form of *metus*
        positives = [stem + "us", stem + "is", *([stem[:-2] + "ns"] if stem.endswith("nt") else [])]
    else:
        return None
    if len(stem) >= MIN_GUESSED_STEM and _ER_STEM.search(stem):  # *prior* is no form of *per*
        positives.append(stem[:-1] + "er")
    return next((positive for positive in positives if is_known(positive) and _is_own_lemma(positive, positive)), None)


# Thetidis, Thetida: cases of Thetis; Pallada, Pallados: of Pallas (only the Greek endings: *Aeneadis*, *Enceladi*,
# *Anchisiade* are Latin cases of other names); Thoantis, Calchanta: of Thoas, Calchas (lemmatiser v29)
_GREEK_STEM_CASE = re.compile(rf"(?<=...)(?:{_GREEK_ID_ENDINGS}|ad(?:a|os)|ant(?:is|i|em|a|e|os|es|as|um|ibus))$")
_GREEK_STEM_PLURAL = re.compile(r"(?<=...)[ai]das$")  # Dryadas, Eumenidas: accusatives of Dryades, Eumenides


def greek_case_lemmas(norm: str) -> frozenset[str]:
    """For a name no lexicon knows that ends like a case of a Greek name with a stem in -id-, -ad- or -ant- (*Thetidis*,
    *Thetida*, *Pallada*, *Pallados*; *Thoantis*, *Calchanta*, lemmatiser v29; a form Whitaker's Words knows is none,
    as the participle *Comitantum*), that nominative's lemma as a name, as further candidate lemmas: the stem guessed
    for it where no lexicon knows it either (*Thetis*: *thet*, meeting *Thetin*), and the nominative itself where it is
    a name's headword (*Pallas*, which Whitaker's Words declines as a Latin noun, without the Greek *Pallada*); not
    where the nominative is a form of another word (*Alcis*: *alces*). The form's own guessed stem (*thetid*, *pallad*)
    keeps meeting its other cases. A case in -ant- whose nominative two names share gets none
    (:data:`SHARED_NOMINATIVES`: Evander's son's *Pallanta*, *Pallantis* meet each other and the nominative *Pallas*,
    through :func:`shared_nominative_stem`, but not Athena's *Palladis*; lemmatiser v30).

    Lemmatiser v22 reads two more: an accusative plural in -adas or -idas, as the nominative in -ades or -ides a lexicon
    knows (*Dryadas*: *Dryas*; *Eumenidas*: *Eumenides*), and a name in -on that the Greek accusative's reading gave
    another word (*Haemon*, *Lacon*: *Haemus*, *lacus*) also as a nominative of the third declension, whose stem its
    other cases get (*Haemonis*, *Laconis*: *haemon*, *lacon*)."""
    if is_known(norm):
        return frozenset()
    if _GREEK_STEM_PLURAL.search(norm) and is_known(plural := norm[:-2] + "es"):
        return frozenset({_analyse(plural, True)[1]})
    if norm.endswith("on") and (own := guess_stem(norm)) != lemmatize(norm):
        return frozenset({own})
    if (case := _GREEK_STEM_CASE.search(norm)) is None:
        return frozenset()
    if _lexicon_lemmas(norm):  # Whitaker's Words knows it too, so it is no unknown name (*Comitantum*: not *comitas*)
        return frozenset()
    nominative = norm[: case.start()] + case.group()[0] + "s"  # the stem's first letter and -s: -is, -as
    if case.group().startswith("ant") and nominative in SHARED_NOMINATIVES:
        return frozenset()  # the nominative is another name's too: *Pallanta* is not Athena's
    if not is_known(nominative):
        return frozenset({guess_stem(canonical_lemma(nominative))})
    headword = _name_headword(nominative, nominative)
    return frozenset({headword}) if headword == canonical_lemma(nominative) else frozenset()


# Nominatives in -as of two names, one declined with -ad-, the other with -ant- (Athena's *Pallas, Palladis* and
# Evander's son's *Pallas, Pallantis*), where the lexicons know only the first: each name's cases keep apart, and the
# nominative meets both (lemmatiser v30). Not *Dryas*, whose -ant- cases simplemma files under the same *Dryas* as the
# nymphs' *Dryadis*; nor names that have one declension only (*Psecas*, *Dromas*: -ad-; *Thoas*, *Calchas*: -ant-).
SHARED_NOMINATIVES = frozenset({"pallas"})


def shared_nominative_stem(norm: str) -> frozenset[str]:
    """For a capitalised nominative two names share (:data:`SHARED_NOMINATIVES`), the stem guessed for the -ant- name's
    cases as a further candidate lemma, so that *Pallas* meets the cases of both names, which do not meet each other;
    also, as that stem is a guessed one, *Pallanteum* and *Pallantias* (Aurora), whose guessed stem it is too."""
    return frozenset({guess_stem(norm[:-2] + "antis")}) if norm in SHARED_NOMINATIVES else frozenset()


def sense(folded: str, lemma: str) -> str:
    """The lemma of the sense a folded form belongs to, where ``lemma`` is a headword of two verbs (:data:`_SENSES`)."""
    if (split := _SENSES.get(lemma)) is not None and split[0].search(folded):
        return split[1]
    return lemma


# simplemma writes a few headwords with a letter some editions leave out in brackets (*(h)arena*, *ex(s)urgo*,
# *hiem(p)s*) or with an abbreviation's stop (*iter.*): the letters are kept, the marks dropped.
_HEADWORD_MARKS = str.maketrans("", "", "().")


def canonical_lemma(lemma: str) -> str:
    """One spelling per folded lemma: prefixes assimilated (*inmensus* is *immensus*) and known variants merged."""
    lemma = _later_vowels(_respelled_prefix(lemma.translate(_HEADWORD_MARKS), _ASSIMILATION, _ASSIMILATED))
    return _LEMMA_VARIANTS.get(lemma, lemma)


def _later_vowels(folded: str) -> str:
    """The later vowel after consonantal u (*uolnus*, *uortex*: *uulnus*, *uertex*)."""
    for older, later in _OLDER_VOWELS:
        folded = older.sub(later, folded)
    return folded


def older_spellings(folded: str) -> list[str]:
    """The form in the older spelling a lexicon may key it by (*uulnera*: *uolnera*), or none."""
    older = folded.replace("uul", "uol")
    return [older] if older != folded else []


_CASE_ENDING = re.compile(r"(?:ibus|orum|arum|[aeiouy]*[ms]|[aei]n)$")  # -en, -an, -in: Greek accusatives
_FINAL_VOWELS = re.compile(r"[aeiouy]+$")
_ONE_CASE_ENDING = re.compile(r"(?:orum|arum|ibus|ae|[aeiou][ms]|[aeio])$")  # one ending, the stem's own vowels kept
_ROMAN_NUMERAL = re.compile("[iuxlcdm]+")  # folded (*CVIIII*: ``cuiiii``), which must not lose its last *i*
MIN_GUESSED_STEM = 4


def guess_stem(folded: str) -> str:
    """A stand-in lemma for a word no lexicon knows (mostly names and their adjectives): the form without its case ending.

    Both lexicons miss many Greek and mythological names, and simplemma returns an unknown form unchanged, so
    *Cleonaeo* would never meet *Cleonaei*, nor *Hippotades* *Hippotadae*. Both become ``cleon``/``hippotad`` here.
    Names in -on with a stem in -ont- lose the ``t``, so that *Phlegethontis* meets *Phlegethon*.
    A stem shorter than four letters is not trusted: the form is kept; but a stem followed by vowels keeps them up to
    four letters, where those are no word a lexicon knows (*Aonius*, *Aoniae*, *Aonios*: ``aoni``, not eleven lemmas,
    lemmatiser v22; *Lyaeus*, *Lyaei*, *Lyaeo*: ``lyae``, lemmatiser v29). Where they are one (*leda*, *pira*), the form
    loses just one case ending and keeps its stem's vowels, if four letters or more stay and they are no known word
    either (*Ledaeus*, *Ledaea*, *Ledaeam*: ``ledae``; *Piraeus*, *Piraeum*: ``pirae``; lemmatiser v31; *Malea* stays
    *malea*, not ``male``).
    """
    stem = _FINAL_VOWELS.sub("", _CASE_ENDING.sub("", folded))
    if stem.endswith("ont"):
        stem = stem[:-1]
    kept_vowels = folded[len(stem) : MIN_GUESSED_STEM]
    if kept_vowels and all(letter in _VOWELS for letter in kept_vowels) and not is_known(folded[:MIN_GUESSED_STEM]):
        stem = folded[:MIN_GUESSED_STEM]
    if len(stem) >= MIN_GUESSED_STEM:
        return stem
    without_ending = _ONE_CASE_ENDING.sub("", folded)
    trusted = len(without_ending) >= MIN_GUESSED_STEM and not is_known(without_ending) and not _ROMAN_NUMERAL.fullmatch(folded)
    return without_ending if trusted else folded


@kept_on_disk(list, as_tuple, WORD_CACHE)
def _norm(word: str) -> tuple[str, str, str]:
    """(folded form, lower-case base, enclitic) of one written word; no lemmatising, so cheap (the lexicons are asked
    whether they know the word, and only of a word they do not know whether they know its respellings)."""
    base, clitic = split_enclitic(classical_spelling(strip_diacritics(word).lower()))
    if word[:1].islower():
        base = c_misread_as_e(base)
    return fold(base), base, clitic


MIN_MISREAD_LETTERS = 3  # Tesserae-la's 16 *ee* are misread *eo* or *se* (*ex ee quod*, *ad ee*), not *ec*


def c_misread_as_e(lower: str) -> str:
    """A form of three letters or more that neither lexicon knows read with one of its *e*s as *c*, where that gives
    the one form both know, and not as a name (lemmatiser v24; the length since v25): optical character recognition
    reads *c* as *e*, and the texts keep what it read (Statius' *nee*, *peetus*, *eadunt*, *seelus*: *nec*, *pectus*,
    *cadunt*, *scelus*). Only a word written in small letters: a name no lexicon knows may read as another word so
    (*Pieridum*, *Pellaei*, *Sabaei*: *picridum*, *pellaci*, *sabaci*). Both lexicons, since each knows words the
    other does not (*eluta*, *enisa*: *eluo*, *enitor*; *quinctiam*, a form of the name *Quinctius* simplemma knows,
    is no reading of *quinetiam*)."""
    if len(lower) < MIN_MISREAD_LETTERS or "e" not in lower or is_known(lower):
        return lower
    # simplemma first: Whitaker's Words is loaded only for a form with a respelling simplemma knows
    respelled = [r for i, letter in enumerate(lower) if letter == "e" and is_known(r := lower[:i] + "c" + lower[i + 1 :])]
    if not respelled or _lexicon().lookup(fold(lower)):
        return lower
    known = [r for r in respelled if not _simplemma_headword(r)[:1].isupper() and _lexicon().lookup(fold(r))]
    return known[0] if len(known) == 1 else lower


def classical_spelling(lower: str) -> str:
    """``lower`` (a lower-case word) written classically where a later or older edition spells it otherwise (*coelo*:
    *caelo*, *volnera*: *vulnera*; :data:`_CLASSICAL_SPELLINGS`; *sumtus*, *peremto*: *sumptus*, *perempto*,
    :func:`_with_mpt`)."""
    if _ANY_LATER_SPELLING.search(lower):  # one search first: most words need none of the respellings
        for later, classical in _CLASSICAL_SPELLINGS:
            respelled = later.sub(classical, lower, count=1)
            if respelled != lower:
                return respelled
    return _with_mpt(lower)


_MT = re.compile(r"(?<=[aeiouy])mt(?=[aeiouy])")


def _with_mpt(lower: str) -> str:
    """The spelling with *mpt* of a form that some editions write with *mt* (*sumtus*, *contemta*, *peremto*, *temtat*,
    *promtus*), where the lexicon knows it so (lemmatiser v23): simplemma knows a few of the *mt* spellings as
    headwords of their own (*emtus*, *comtus*, *consumtus*), which would never meet *emo*, *como*, *consumo*. A compound
    whose first part ends in *m* keeps its spelling, as no lexicon knows it with *mpt* (*circumtulit*, *dumtaxat*,
    *verumtamen*)."""
    respelled = _MT.sub("mpt", lower)
    return respelled if respelled != lower and is_known(split_enclitic(respelled)[0]) else lower


@kept_on_disk(same, same, WORD_CACHE)
def name_lemma(base: str) -> str | None:
    """The folded lemma of a lower-case form read as a name, where simplemma has one (*aeneas*: *Aeneas*, *ueneris*:
    *Venus*, *marte*: *Mars*), else None.

    simplemma keys names by their capitalised spelling, and its lower-case readings of their forms are other words
    (*aeneus* "of bronze", *uenio*, *martes* "marten"); and some of its name readings are other names (*Catoni*:
    *Catonius*, *Furias*: *Furius*), which :data:`NAME_READINGS` mends here too, and :data:`NAME_ONLY_READINGS` here only.
    """
    if (reading := _NAME_OVERRIDES.get(fold(base))) is not None:
        return reading
    for spelling in spellings(base):
        titled = spelling[:1].upper() + spelling[1:]
        if simplemma.is_known(titled, lang="la"):
            lemma = simplemma.lemmatize(titled, lang="la")
            return canonical_lemma(fold(lemma)) if lemma[:1].isupper() else None
    return None


def name_reading(word: str) -> str | None:
    """The lemma of a written word read as a name (*Veneris*: *uenus*), wherever it stands, or None."""
    return name_lemma(_norm(word)[1])


@kept_on_disk(list, as_tuple, WORD_CACHE)
def _analyse(word: str, name: bool = False) -> tuple[str, str, str]:
    norm, base, clitic = _norm(word)
    return norm, (name and _name_headword(norm, base)) or lemmatize(base), clitic


_NAME_NOMINATIVE = re.compile(r"(?:us|as)$")


def _name_headword(norm: str, base: str) -> str | None:
    """The lemma of a form read as a name: a nominative in -us or -as that a lexicon has as a headword is its own
    lemma (*Pallas*, not simplemma's *palla* "robe"; *Argus*, not *Argo*; *Nisus*, not *nixus*), else its name reading.
    Other endings are left to the name reading: Whitaker's Words has oblique cases as headwords (*Iouis*, *Veneri*)."""
    if _NAME_NOMINATIVE.search(norm) and _is_own_lemma(norm, base):
        return canonical_lemma(norm)
    return name_lemma(base)


_OPENERS = ".!?:;\"'“‘«("  # what ends a sentence or opens a speech
_SENTENCE_OPENER = re.compile(f"[{_OPENERS}]")
_OPENED_WORD = re.compile(f"[{_OPENERS}][^\\w{_OPENERS}]*({_WORD.pattern})")  # a word that opens a sentence or a speech


def _opens_sentence(text: str, spans: list[tuple[str, int, int]]) -> list[bool]:
    """Whether each word opens the text, a sentence (after . ! ?) or a speech (after : ; or a quotation mark)."""
    flags, previous_end = [], None
    for _word, start, end in spans:
        flags.append(previous_end is None or bool(_SENTENCE_OPENER.search(text, previous_end, start)))
        previous_end = end
    return flags


def _read_as_names(text: str, spans: list[tuple[str, int, int]], names: frozenset[str] = frozenset()) -> list[bool]:
    """Which words are names: capitalised inside a sentence. A capital that opens the text, a sentence or a speech
    is read as usual (*Inde*, *Media*), unless its lower-case form is one of ``names`` (:func:`name_forms`)."""
    opening = _opens_sentence(text, spans)
    return [
        _capitalised(word) and (not opens or _norm(word)[1] in names)
        or _shouted(word) and _norm(word)[1] in names
        for (word, _start, _end), opens in zip(spans, opening, strict=True)
    ]


def _capitalised(word: str) -> bool:
    """A capital first letter that says something: a word written wholly in capitals (a title, an inscription,
    *ARMA VIRUMQUE*) tells nothing about names."""
    return word[:1].isupper() and not _shouted(word)


def _shouted(word: str) -> bool:
    return len(word) > 1 and word.isupper()


def name_forms(texts: Iterable[str], min_inside: int = 3, share: float = 0.5) -> frozenset[str]:
    """The lower-case forms that ``texts`` write with a capital in at least ``share`` of the times they stand inside a
    sentence (and stand there at least ``min_inside`` times), and that simplemma reads as a name.

    A corpus read line by line cannot tell *Aeneas* opening a line (a name) from *Inde* opening one (not *Indus*);
    how the corpus writes the same form elsewhere can. Written words are counted first and read once each, which
    keeps this to seconds over all of Tesserae-la.
    """
    written: Counter[str] = Counter()
    openers: Counter[str] = Counter()
    for text in texts:
        cleaned = _without_mojibake(text)
        written.update(_WORD.findall(cleaned))
        first = _WORD.search(cleaned)
        if first:
            openers[first.group()] += 1
            openers.update(_OPENED_WORD.findall(cleaned, first.end()))
    inside: Counter[str] = Counter()
    capital: Counter[str] = Counter()
    for word, n in written.items():
        n -= openers[word]
        if n > 0 and not _shouted(word):
            base = _norm(word)[1]
            inside[base] += n
            if word[:1].isupper():
                capital[base] += n
    return frozenset(base for base, n in inside.items() if n >= min_inside and capital[base] >= share * n and name_lemma(base))


def _analysed_words(text: str, names: frozenset[str] = frozenset()) -> list[tuple[tuple[str, int, int], tuple[str, str, str]]]:
    """Each word of ``text`` with its offsets and its (folded form, lemma, enclitic), names read in context."""
    spans = words(text)
    return [(span, _analyse(span[0], name)) for span, name in zip(spans, _read_as_names(text, spans, names), strict=True)]


def tokenize(text: str, names: frozenset[str] = frozenset()) -> list[Token]:
    """Word tokens of ``text`` with folded forms and lemmas; enclitics are recorded, not counted as words.
    ``names``: forms read as names even where a capital opens a sentence (:func:`name_forms`)."""
    return [
        Token(word, norm, lemma, position, start, end, clitic)
        for position, ((word, start, end), (norm, lemma, clitic)) in enumerate(_analysed_words(text, names))
    ]


def forms(text: str) -> list[str]:
    """Folded word forms (enclitics split off), for form-level matching; the same as ``[t.norm for t in tokenize(text)]``."""
    return [_norm(w)[0] for w in _word_strings(text)]


def words_absent(phrase: str, text: str) -> list[str]:
    """The words of ``phrase`` that ``text`` holds neither in the same form nor under a shared lemma: what a quotation
    takes from beyond the lines it cites."""
    held = tokenize(text)
    forms_held, lemmas_held = {t.norm for t in held}, {t.lemma for t in held}
    return [t.form for t in tokenize(phrase) if t.norm not in forms_held and t.lemma not in lemmas_held]


def lemmas(text: str, names: frozenset[str] = frozenset()) -> list[str]:
    """Folded lemmas of the words of ``text``; the same as ``[t.lemma for t in tokenize(text, names)]``."""
    return [lemma for _span, (_norm_form, lemma, _clitic) in _analysed_words(text, names)]


def filed_lemmas(text: str, names: frozenset[str] = frozenset()) -> set[str]:
    """Every lemma an index of lines lemmatised one by one may hold the words of ``text`` under, ``names`` being
    the forms it read as names wherever they stood (its :func:`name_forms`).

    Each word's lemma and, for a word read as a name that is not one of ``names``, also its common reading, which
    the same word gets opening a line (*Aeneas* opening a line is filed under *aeneus*, inside one under *aeneas*).
    A capital opening a passage of several words is a name only if its form is one of ``names``, so *Inde ruit*
    is not also *Indus*; a passage of one capitalised word is looked for both ways (*Veneris*: *uenio* and
    *uenus*), since its capital may well be meant."""
    spans = words(text)
    out = set()
    for span, name in zip(spans, _read_as_names(text, spans, names), strict=True):
        _norm_form, lemma, _clitic = _analyse(span[0], name)
        out.add(lemma)
        if name and _norm(span[0])[1] not in names:
            out.add(_analyse(span[0])[1])  # the reading the same word gets opening a line
        elif len(spans) == 1 and _capitalised(span[0]) and (as_name := name_reading(span[0])):
            out.add(as_name)
    return out


@lru_cache(maxsize=1)
def _lexicon():
    from latin_intertext.lexicon import CandidateLemmas

    return CandidateLemmas()


@kept_on_disk(sorted_list, as_frozenset, WORD_CACHE)
def lemma_candidates(word: str) -> frozenset[str]:
    """Every lemma a form may belong to: simplemma's choice plus the lexicon's alternatives, a gerundive's verb and,
    for a capitalised word, its reading as a name (which a capital opening a sentence leaves open). Memoised: an index
    asks for each form of a corpus again and again."""
    norm, lemma, _ = _analyse(word)
    lexicon = _lexicon()
    capitalised = word[:1].isupper()
    name = _analyse(word, True)[1] if capitalised else None  # in capitals throughout, a name is as likely
    alternatives = lexicon.lookup(norm) | lexicon.gerundive_verbs(lemma)
    # a name's case (not *inprouidi*, *retorridi*), and a nominative two names share
    greek = greek_case_lemmas(norm) | shared_nominative_stem(norm) if capitalised else frozenset()
    positive = None if capitalised else comparative_positive(norm, lemma)  # *Parius* is the Parian, no *parus*
    return frozenset({lemma, *(sense(norm, canonical_lemma(candidate)) for candidate in alternatives), *([name] if name else []), *greek, *([positive] if positive else [])})

