"""latin-intertext: find and measure intertextuality in Latin poetry."""

from dataclasses import dataclass

__version__ = "0.1.0"
DATASET_NAME = "LatinEpicIntertextualityRetrieval"
DATASET_VERSION = "1.0.0"
HUB_REPO_ID = "PoetryMTEB/LatinEpicIntertextualityRetrieval"
QUERY_FILE_STEM = "valerius_flaccus.argonautica"  # the text the benchmark's queries come from (a .tess file stem)


@dataclass(frozen=True)
class Epic:
    """One of the four epics the benchmark's corpus holds, by every name the sources and the ids give it."""

    key: str  # in ids (``vergil-1-1``) and author filters
    author: str  # as the gold's 'Intertext: Author' column writes it
    work: str
    tess_abbreviation: str  # the author in its Tesserae citations, ``<verg. aen. 1.1>``
    file_stem: str  # its .tess file in naacl2021/texts and tesserae-la


EPICS = (
    Epic("vergil", "Vergil", "Aeneid", "verg.", "vergil.aeneid"),
    Epic("lucan", "Lucan", "Bellum Civile", "luc.", "lucan.bellum_civile"),
    Epic("ovid", "Ovid", "Metamorphoses", "ov.", "ovid.metamorphoses"),
    Epic("statius", "Statius", "Thebaid", "stat.", "statius.thebaid"),
)
