"""The lemmatiser's tables: readings the lexicons get wrong or split, and the spellings of other editions.

Each entry was found by reading a lexicon's answer against the other lexicon and against verse; the comments say
why each table exists and from which lemmatiser version, and ``tests/test_latin.py`` checks the entries against both
lexicons. The rules that read a word with these tables are in :mod:`latin_intertext.latin`.
"""

from __future__ import annotations

import re

ENCLITICS = ("que", "ne", "ve")
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
