"""latin.py and lexicon.py: folding, enclitics, u/v and consonantal-i spellings, lemma candidates."""

from __future__ import annotations

import pytest

from latin_intertext import latin
from latin_intertext.lexicon import CandidateLemmas, j_spellings


def test_fold_strips_diacritics_and_writes_u_and_i():
    assert latin.fold("Ávē Jūlius VIRVMQVE") == "aue iulius uirumque"


@pytest.mark.parametrize(
    ("form", "expected"),
    [("virumque", ("virum", "que")), ("populosque", ("populos", "que")), ("arma", ("arma", ""))],
)
def test_split_enclitic_splits_where_the_base_is_a_word(form, expected):
    assert latin.split_enclitic(form) == expected


@pytest.mark.parametrize("form", ["atque", "itaque", "neque", "namque", "quoque", "bene", "denique"])
def test_words_ending_like_enclitics_are_not_split(form):
    assert latin.split_enclitic(form) == (form, "")


def test_tokenize_records_enclitic_without_counting_it_as_a_word():
    tokens = latin.tokenize("Arma virumque cano, atque uenit.")
    assert [t.norm for t in tokens] == ["arma", "uirum", "cano", "atque", "uenit"]
    assert [t.position for t in tokens] == [0, 1, 2, 3, 4]
    assert tokens[1].enclitic == "que" and tokens[1].lemma == "uir"
    assert tokens[3].enclitic == ""


def test_u_spelling_is_retried_with_consonantal_v():
    assert "virum" in latin.spellings("uirum")
    assert latin.lemmatize("uirum") == latin.lemmatize("virum") == "uir"
    assert latin.lemmatize("uenit") == "uenio"


def test_j_spellings_put_j_for_consonantal_i_only():
    assert j_spellings("iubet")[0] == "jubet"
    assert j_spellings("eius")[0] == "ejus"
    assert j_spellings("adiuuat")[0] == "adjuuat"
    assert j_spellings("ierat")[-1] == "ierat"
    assert j_spellings("amor") == ["amor"]
    assert j_spellings("iit") == ["iit"]  # i before i is vocalic


def test_lexicon_needs_j_and_gives_every_candidate():
    lexicon = CandidateLemmas()
    assert "iubeo" in lexicon.lookup("iubet")
    assert {"armus", "armo"} <= lexicon.lookup("arma")  # noun "shoulder", verb "to arm"
    assert "magnus" in lexicon.lookup("maior")
    assert lexicon.lookup("haec") == {"hic"}  # pronoun stem mapped to its lemma
    assert lexicon.lookup("zzqxw") == set()


def test_lexicon_does_not_strip_enclitics_itself():
    lexicon = CandidateLemmas()
    assert lexicon.lookup("atque") == {"atque"}
    assert "ne" not in lexicon.lookup("neque")


def test_lemma_candidates_unites_simplemma_and_lexicon():
    cands = latin.lemma_candidates("cano")
    assert latin.lemmatize("cano") in cands  # simplemma's choice (canus)
    assert "cano" in cands  # the verb, from the lexicon
    assert "uir" in latin.lemma_candidates("virumque")
    assert "iubeo" in latin.lemma_candidates("Iussit")
    assert all(c == latin.fold(c) for c in latin.lemma_candidates("Iove"))


@pytest.mark.parametrize(
    "form, verb",
    [("rotantes", "roto"), ("tumens", "tumeo"), ("haerens", "haereo"), ("vibrantem", "uibro"), ("capientis", "capio"), ("abeuntes", "abeo")],
)
def test_present_participles_also_get_their_verb(form, verb):
    assert verb in latin.lemma_candidates(form)  # the lexicon alone does not parse present participles


@pytest.mark.parametrize("form", ["dens", "mons", "frons", "gens"])
def test_nouns_in_ns_are_not_made_verbs(form):
    from latin_intertext.lexicon import participle_verb_forms

    assert form in latin.lemma_candidates(form)
    assert participle_verb_forms(latin.fold(form)) == []  # a stem of one or two letters is never taken for a verb's


@pytest.mark.parametrize(
    "a, b",
    [("Cleonaeo", "Cleonaei"), ("Hippotades", "Hippotadae"), ("Tritonia", "Tritoniae"), ("Thessalico", "Thessalicus"), ("Pyracmon", "Pyracmone")],
)
def test_inflected_names_no_lexicon_knows_share_a_guessed_stem(a, b):
    assert not latin.is_known(latin.fold(a).lower())  # else simplemma's lemma would be used
    assert latin.lemmas(a) == latin.lemmas(b)


def test_known_words_and_short_unknown_forms_keep_their_lemma():
    assert latin.lemmas("metus timor") == ["metus", "timor"]
    assert latin.guess_stem("nee") == "nee"  # a stem of fewer than four letters is not trusted
    assert latin.guess_stem("tune") == "tune"
