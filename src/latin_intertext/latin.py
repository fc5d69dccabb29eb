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
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable

import simplemma

from latin_intertext.errors import LatinIntertextError
from latin_intertext.word_analyses import as_frozenset, as_tuple, kept_on_disk, same, sorted_list

# Bump whenever a change to this module changes any form or lemma: the lemma caches, the Tesserae-la index and
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


ENCLITICS = ("que", "ne", "ve")
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
_VOWELS = frozenset("aeiouy")
# Forms ending in -que/-ne/-ve that are words in their own right, whatever a lexicon says.
_NOT_ENCLITIC = frozenset(
    """atque itaque neque namque quoque usque undique utique quisque quaeque quodque quidque
    cuique quemque quamque quoque quique quaque quacumque ubique plerumque uterque utrumque
    utramque utriusque denique absque quicumque quaecumque quodcumque cumque ne bene pene paene
    sine mane bone pone cane hodie ene ue que lene plane fine inane""".split()
)
# Forms a lexicon reads as one rare word (``animaeque`` as *animaequus*, ``seque`` as *sequor*, ``inque`` as
# *inquam*) that in verse are nearly always a common word plus an enclitic.
_ENCLITIC_OVER_LEXICON = frozenset("seque inque deque teque mene colloque animaeque".split())
# Prefixes written unassimilated in some editions (*inmensus*, *adspergo*, *conpago*, *exsanguis*) and
# assimilated in others: lemmas are keyed by the assimilated spelling, so both editions meet.
_ASSIMILATIONS = (
    ("inm", "imm"), ("inp", "imp"), ("inb", "imb"), ("inl", "ill"), ("inr", "irr"),
    ("conl", "coll"), ("conm", "comm"), ("conp", "comp"), ("conb", "comb"), ("conr", "corr"),
    ("adsp", "asp"), ("adst", "ast"), ("adsc", "asc"), ("ads", "ass"), ("adc", "acc"), ("adf", "aff"), ("adg", "agg"),
    ("adl", "all"), ("adp", "app"), ("adr", "arr"), ("adt", "att"), ("obp", "opp"), ("obc", "occ"), ("obf", "off"),
    ("subm", "summ"), ("subp", "supp"), ("subf", "suff"), ("subc", "succ"), ("subg", "sugg"), ("exs", "ex"),
)
_ASSIMILATED = dict(_ASSIMILATIONS)
_ASSIMILATION = re.compile("^(?:" + "|".join(_ASSIMILATED) + ")")  # longer prefixes first where they overlap (adsp before ads)
_UNASSIMILATED = {assimilated: plain for plain, assimilated in _ASSIMILATIONS}
_UNASSIMILATION = re.compile("^(?:" + "|".join(sorted(_UNASSIMILATED, key=len, reverse=True)) + ")")
# Plural headwords beside their singular (lemmatiser v30), of peoples (*Graii*, *Achivi*, *Thebani*), adjectives
# (*superi*, *terni*) and nouns (*epulae*, *minae*); *epulum*, the singular of *epulae*; a city's two numbers (*Pisae*,
# *Athena*: *Pisa*, *Athenae*); and the *Rutuli*, whose singular simplemma reads as *rutilus* "red" and feminine as
# *rutula* "a little rue" (lemmatiser v31, with their cases in :data:`NAME_READINGS`). Seven are forms no lexicon knows,
# whose whole form :func:`guess_stem` keeps (*Pylii*, *Pyliae*, *Oetaeae*, *Pisaei*, *Pisaeae*, *Pisaea*, *Maleae*):
# each joins that one form to its word, while the word's other such forms (*Pylios*, *Maleam*) stay apart. Some join
# words that verse hardly tells apart: *minae* "threats" and *mina* the coin (comedy's), the families *Pompeii*,
# *Tarquinii* and their towns (prose's), the rocks *Cyaneae* and the colour *cyaneus*, the *Sabini* and a *Sabinus*,
# the *Rutuli* and Cicero's one *rutula*.
MERGED_HEADWORDS = {
    "graii": "graius", "superi": "superus", "achiui": "achiuus", "sicani": "sicanus", "uolsci": "uolscus", "sabini": "sabinus",
    "molossi": "molossus", "thebani": "thebanus", "elysii": "elysius", "pylii": "pylius", "pyliae": "pylius",
    "pompeii": "pompeius", "tarquinii": "tarquinius", "oetaei": "oetaeus", "oetaeae": "oetaeus", "pisaei": "pisaeus",
    "pisaeae": "pisaeus", "pisaea": "pisaeus", "cyaneae": "cyaneus", "septeni": "septenus",
    "terni": "ternus", "quadriiugi": "quadriiugus", "quadrigae": "quadriga", "epulae": "epula", "diuitiae": "diuitia",
    "primitiae": "primitia", "minae": "mina", "pisae": "pisa", "maleae": "malea", "athena": "athenae", "epulum": "epula",
    "rutuli": "rutulus", "rutula": "rutulus",
}
# Spellings of one lemma that no prefix rule or respelling covers: older spellings (*hau*, *hiemps*, *arena*, *thus*,
# *cumba*, *edera*, *hedus*, *adolescens*; simplemma's *oblicus*), a plural headword beside its singular (*Tartara*,
# *Siculi*, *Furiae*), a longer form (*veluti*: *velut*), forms Whitaker's Words keys as headwords of their own (*vult*,
# *mavult*), the Greek *nymphe* beside the Latin *nympha* (lemmatiser v31: *nymphas*, *nympharum*, *nymphis* were
# *nymphe*, *nymphae* was *nympha*; the lexicons file the two declensions' forms apart), the 33 entries of lemmatisers
# v30 and v31 (:data:`MERGED_HEADWORDS`), and the irregular comparatives and superlatives, which simplemma files under
# headwords of their own in some forms and under the positive in others (*maximus* and *maior*: *magnus*; *suprema* is
# *superus* but *supremo* *supremus*).
_LEMMA_VARIANTS = {
    "tento": "tempto", "tentatus": "tempto", "temptatus": "tempto", "praelium": "proelium", "praelior": "proelior",
    "maximus": "magnus", "optimus": "bonus", "reliquiae": "reliquia", "hau": "haud", "humor": "umor", "hiemps": "hiems",
    "arena": "harena", "supremus": "superus", "plurimus": "multus", "maior": "magnus", "melior": "bonus", "peior": "malus",
    "tartara": "tartarus", "tartarum": "tartarus", "siculi": "siculus", "furiae": "furia", "minimus": "paruus",
    "pessimus": "malus", "ueluti": "uelut", "uult": "uolo", "mauult": "malo", "thus": "tus", "cumba": "cymba",
    "edera": "hedera", "hedus": "haedus", "adolescens": "adulescens", "adolescentia": "adulescentia",
    "adolescentulus": "adulescentulus", "oblicus": "obliquus", "nymphe": "nympha",
    **MERGED_HEADWORDS,
}
# Spellings of later or older editions that the lexicons know in their classical form only, or as words of their own:
# oe for ae (*coelum*, *moestus*, *moeror*, *poenitet*, *coena*) or for e (*foemina*, *foelix*, *obscoenus*), ae for e
# (*caeterum*, *faemina*, *caeremonia*), e for ae (*seculum*), i for e (*negligo*), o for u (*epistola*), u for i
# (*lacruma*, *maxumus*, *optumus*, *proxumus*, *lubido*), y for i (*sylva*, *lacryma*, *sydus*, *hyems*, *ocyus*,
# *inclytus*, *Sybilla*), t for c (*solatium*, *conditio*), qu for c (*quotidie*, *quum*, *loquutus*, *sequutus*),
# doubled or single letters (*caussa*, *cottidie*, *relliquiae*, *relligio*), h added or dropped (*humerus*, *arundo*,
# *ahenus*, *michi*, *nichil*), and the older vowel after a word's first consonantal u (*volnus*, *voltus*, *volgus*,
# *vortex*, *vostra*). A word is respelled before it is read, so that every edition meets (*coelo duce*, *caelo duce*)
# in its forms as in its lemmas. Each pattern but *quut*'s holds at the word's start, and a whole word's pattern
# allows an enclitic after it (*michique*).
_ENCLITIC_END = "(?=(?:" + "|".join(clitic.replace("v", "[uv]") for clitic in ENCLITICS) + ")?$)"
# The older vowel after consonantal u and the letter it stands before (*volnus*, *vortex*: *vulnus*, *vertex*), respelled
# at a word's start (below) and merged in a lemma anywhere (:data:`_OLDER_VOWELS`).
_OLDER_VOWEL_RULES = (("ol", "ul", "[ntgp]"), ("or", "er", "[ts]"))
_CLASSICAL_SPELLINGS = tuple(
    (re.compile(later), classical)
    for later, classical in (
        ("^coel", "cael"), ("^moest", "maest"), ("^moer(?=e|or)", "maer"), ("^poenit", "paenit"), ("^foemin", "femin"),
        ("^faemin", "femin"), ("^foel(?=i)", "fel"), ("^obscoen", "obscen"), ("^caeter", "ceter"), ("^secul", "saecul"),
        ("^syl(?=[uv])", "sil"), ("^lach?rym", "lacrim"), ("^lacrum", "lacrim"), ("^syder", "sider"), ("^hyem", "hiem"),
        ("^ocy(?=[uo])", "oci"), ("^sybill", "sibyll"), ("^incly", "incli"), ("^solati(?=[aeiou])", "solaci"),
        ("^conditio", "condicio"), ("^humer", "umer"), ("^arund", "harund"), ("^ahen", "aen"),
        ("^michi" + _ENCLITIC_END, "mihi"), ("^nichil", "nihil"), ("^neglig", "negleg"), ("^epistol", "epistul"),
        ("^caeremon", "caerimon"), ("^coena", "cena"), ("^coec", "caec"), ("^coerul", "caerul"),
        ("^quotidi", "cotidi"), ("^cottidi", "cotidi"),
        ("^quum" + _ENCLITIC_END, "cum"), ("quut", "cut"), ("^causs", "caus"), ("^relli(?=qu|gi)", "reli"),
        ("^maxum", "maxim"), ("^optum", "optim"), ("^proxum", "proxim"), ("^lubid", "libid"),
        ("^([uv])ost(?=r)", r"\1est"),
        *((f"^([uv]){older}(?={following})", rf"\1{later}") for older, later, following in _OLDER_VOWEL_RULES),
        ("^(?!quom)(.+[uv])om" + _ENCLITIC_END, r"\1um"),  # the older -om after u (*divom*, *aevom*, *equom*: -um; *quom* is *cum*)
    )
)
_ANY_LATER_SPELLING = re.compile("|".join(f"(?:{later.pattern})" for later, _ in _CLASSICAL_SPELLINGS))
# The older vowel after consonantal u inside a word (*advorsus*, *Mavors*), which editions keep or modernise: a lemma is
# keyed by the later spelling (*aduersus*), so that both editions meet. At a word's start (*volnus*) the form itself is
# respelled (:data:`_CLASSICAL_SPELLINGS`); a lexicon's headwords may still have it there (Words' *uolnus*).
_OLDER_VOWELS = tuple(
    (re.compile(f"(?<!q)u{older}(?={following})"), f"u{later}") for older, later, following in _OLDER_VOWEL_RULES
)
# Frequent forms in verse whose simplemma lemma is none of their readings in Whitaker's Words (*oris*: *auris*, *ratus*:
# *rattus* "rat", *nouis*: *nos*, *iusta*: *iuxta*), or splits one noun three ways (*fata*, *fato*, *fatis*: *fata*,
# *fatum*, *fatus*); each gets the reading epic verse mostly means. Tests check each against both lexicons.
SIMPLEMMA_ERRORS = {
    "quoque": "quoque", "oris": "ora", "tergo": "tergum", "uiris": "uir", "iusta": "iustus", "nouis": "nouus",
    "aula": "aula", "cantus": "cantus", "da": "do", "fata": "fatum", "fatis": "fatum", "fatorum": "fatum",
    "stirpe": "stirps", "immane": "immanis", "inrita": "irritus", "uelis": "uelum", "paruus": "paruus",
    "minor": "paruus", "ratus": "reor", "senis": "senex", "crescunt": "cresco", "ueterum": "uetus",
    "forent": "sum", "penna": "penna", "tumido": "tumidus", "stirpem": "stirps", "austrum": "auster", "itur": "eo",
    "minimus": "paruus", "minimae": "paruus", "minus": "paruus", "peiora": "malus", "quamuis": "quamuis",
    "uincula": "uinculum", "minora": "paruus", "memorare": "memoro",
}
# Forms whose simplemma lemma is one of their readings, but one verse hardly means (*cano* "I sing" as *canus* "grey";
# a noun's case read as a rare verb's mood: *aequor* as *aequo*, *vocem* as a subjunctive of *voco*, *arces* of *arceo*).
VERSE_READINGS = {
    "cano": "cano", "uincit": "uinco", "uincis": "uinco", "uincimus": "uinco", "uincitur": "uinco", "uulnera": "uulnus",
    "humor": "umor", "aequor": "aequor", "uires": "uis", "uoces": "uox", "uocem": "uox", "arces": "arx", "arce": "arx",
    "arcis": "arx", "sede": "sedes", "uita": "uita", "cura": "cura", "loca": "locus", "fronde": "frons", "frondes": "frons",
    "lucis": "lux", "carina": "carina", "murmura": "murmur", "pugna": "pugna", "pugnas": "pugna", "ales": "ales",
    "alite": "ales", "alitis": "ales", "uera": "uerus", "ueri": "uerus", "bellis": "bellum", "robora": "robur",
    "uela": "uelum", "uelo": "uelum", "nata": "natus", "natae": "natus", "leges": "lex", "regis": "rex", "ibi": "ibi",
    "satis": "satis", "is": "is", "telo": "telum", "sui": "suus", "uenere": "uenio", "dedere": "do", "laterum": "latus",
    "uerus": "uerus", "ferimur": "fero", "forem": "sum", "heroum": "heros", "senum": "senex", "aruum": "aruum",
    "tuto": "tutus", "sidere": "sidus", "foedere": "foedus", "sacras": "sacer", "geminas": "geminus", "gemina": "geminus",
    "trunca": "truncus", "antiquas": "antiquus", "antiquo": "antiquus", "equitem": "eques", "deseruit": "desero",
    "seram": "serus", "serae": "serus", "uenias": "uenio", "regi": "rex", "minores": "paruus",
    "patria": "patria", "nudo": "nudus", "leni": "lenis", "exta": "extum",
    "cuncto": "cunctus", "fidas": "fidus", "arto": "artus", "ferimus": "fero",
    "minore": "paruus", "minorem": "paruus", "minori": "paruus", "minoribus": "paruus", "minoris": "paruus",
    "uetustas": "uetustas", "ora": "os", "amare": "amo", "canere": "cano",
}
# Forms of an adjective that neither lexicon reads as the adjective, though simplemma files its other forms under it
# (*summo*, *summi*, *summum*: *summus*; *ima*, *imis*: *imus*): *summa*, *summam* and *summas* were the noun *summa*
# "sum", *summus* itself *superus*, and *imo* the adverb *immo*, where verse means the adjective (*summa arce*,
# *pectore ab imo*; lemmatiser v26). *imus* stays the verb's "we go", which it is as often in Tesserae-la.
PARADIGM_READINGS = {"summus": "summus", "summa": "summus", "summam": "summus", "summas": "summus", "imo": "imus"}
# Names' forms that simplemma files under another word, read as a name or not: *Circe* as *circus*, *Circes* as *circo*,
# Thetis's dative *Thetidi* as *thetidium* (it takes the stem guessed for *Thetis*, which her other cases have as a
# candidate), *Zephyri* as the cape *Zephyrium*, *Catoni* as *Catonius* and the Furies as the Roman name *Furius*; and
# gods whose names verse writes in small letters for what they stand for (*marte* "war", *cereris* "grain", *venerem*
# "love"), which simplemma reads in small letters as *martes* "marten", *cero* "wax" and *uenero* (lemmatiser v29); and
# the Greeks' *Grai*, *Grais*, which no lexicon knows, as *Graius* (lemmatiser v30); the *Rutulus*, which simplemma reads
# as *rutilus* "red", and his *Rutulo*, *Rutule*, which no lexicon knows; *Semele*'s *Semeles*, *Semelae* and her
# *Semeleius*, which no lexicon knows and whose guessed stem was the adverb *semel* "once" (lemmatiser v31).
NAME_READINGS = {
    "circe": "circe", "circes": "circe", "thetidi": "thet", "zephyri": "zephyrus", "catoni": "cato", "furiarum": "furia",
    "furias": "furia", "furiis": "furia", "marte": "mars", "martem": "mars", "marti": "mars", "martis": "mars",
    "ceres": "ceres", "cerere": "ceres", "cereris": "ceres", "uenerem": "uenus", "grai": "graius", "grais": "graius",
    "rutulus": "rutulus", "rutulo": "rutulus", "rutule": "rutulus",
    "semeles": "semele", "semelae": "semele", "semeleia": "semeleius", "semeleius": "semeleius", "semeleie": "semeleius",
}
# Names' forms that are another word in small letters, which simplemma gives them even as names: they take the name
# only where the form is read as a name (a capital inside a sentence, and among a capitalised form's candidates),
# and keep the other word in small letters: Troy's *Ilium*, simplemma's *ile* "groin" (in small letters mostly optical
# character recognition's *illum* in prose); *Leda*, simplemma's *lada*, the herb Pliny calls *leda*, with her *Ledae*,
# *Ledam*, which no lexicon knows; the boxer *Dares*, *Daren*, *Daretis*, simplemma's *do*, whose *dares* is "you would
# give" (lemmatiser v31).
NAME_ONLY_READINGS = {
    "ilium": "ilion", "leda": "leda", "ledae": "leda", "ledam": "leda", "dares": "dares", "daren": "dares", "daretis": "dares",
    "dareta": "dares", "darete": "dares",
}
# Homographs that simplemma and Whitaker's Words file under one headword though they are two words: the forms of
# *uolare* "fly" are filed under *uolo* with those of *uelle* "want" (*uolat* beside *uellet*), and those of *os, ossis*
# "bone" under *os* with those of *os, oris* "mouth" (*ossa* beside *ore*), so each sense gets its own lemma, told by
# the form's stem (the first-person *uolo* stays with the commoner *uelle*, the bare *os* with the commoner mouth; the
# bone takes *ossum*, its older headword, which Words also gives *ossa*). Likewise the deponent *labor, labi* "slip"
# and the noun *labor, laboris* "toil": the verb's forms (*labitur*, *labentia*, *lapsus*) take *labi*, so that *labentia*
# no longer meets *labores* (lemmatiser v28).
_SENSES = {
    "uolo": (re.compile(r"^uola"), "uolare"), "os": (re.compile(r"^oss"), "ossum"), "labor": (re.compile(r"^la(?:b(?!or|os)|ps)"), "labi"),
}
# *hic* with the deictic -ce and the question's -ne (*hocine*, *hascine*): no lexicon knows them, and -ne leaves no word.
DEICTIC_QUESTIONS = dict.fromkeys("hicine haecine hocine hacine hancine huncine hunccine hascine hiscine hoscine".split(), "hic")
_LEMMA_OVERRIDES = SIMPLEMMA_ERRORS | VERSE_READINGS | PARADIGM_READINGS | NAME_READINGS | DEICTIC_QUESTIONS
_NAME_OVERRIDES = NAME_READINGS | NAME_ONLY_READINGS  # what :func:`name_lemma` reads first


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


STEM_LENGTH = 5
# Lemmas of words that carry grammar, not allusion: a match on them alone is shown as weak evidence.
FUNCTION_LEMMAS = frozenset(
    """a ab ad at atque aut autem cum de dum e ego et etiam ex hic iam idem ille in inter ipse is iste
    meus nam ne nec neque non nos nunc o per post pro quam que qui quia quidem quis quod se sed si sic
    sub sui sum suus tamen tu tum tuus ubi uel ut uos""".split()
)
_CLOSED = re.compile(r"[.;:?!][\s'\"\u2019\u201d)\]]*$")  # a sentence's end, closing quotes and brackets after it


def stem(norm: str) -> str:
    """The first five letters of a folded form ("" for a shorter one): catches the forms a lemmatiser misses."""
    return norm[:STEM_LENGTH] if len(norm) >= STEM_LENGTH else ""


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


def commonest(counts: dict[str, int], n: int) -> list[str]:
    """The ``n`` most counted lemmas, ties in alphabetical order: Tesserae v3's stop list of a corpus."""
    return sorted(counts, key=lambda lemma: (-counts[lemma], lemma))[:n]


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


_LATIN_SCRIPT = re.compile(r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff]+")  # with accented letters and ligatures (æ, œ)


def in_latin_alphabet(word: str) -> bool:
    """Whether ``word`` is written in Latin letters, not in Greek or another script."""
    return bool(_LATIN_SCRIPT.fullmatch(strip_diacritics(word)))


def has_latin_words(text: str) -> bool:
    return bool(_WORD.search(text))
