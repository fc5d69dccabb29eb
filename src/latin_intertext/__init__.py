"""latin-intertext: find and measure intertextuality in Latin poetry."""

__version__ = "0.1.0"
DATASET_NAME = "LatinEpicIntertextualityRetrieval"
DATASET_VERSION = "1.0.0"
HUB_REPO_ID = "PoetryMTEB/LatinEpicIntertextualityRetrieval"
QUERY_FILE_STEM = "valerius_flaccus.argonautica"  # the text the benchmark's queries come from (a .tess file stem)
