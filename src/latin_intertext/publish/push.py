"""Upload a published folder to the Hugging Face Hub (token from $HF_TOKEN)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from latin_intertext import DATASET_NAME, DATASET_VERSION
from latin_intertext.errors import LatinIntertextError
from latin_intertext.publish.validate import validate_dataset

# Hugging Face's rule for each half of owner/name: letters, digits, '-', '_', '.'; 1 to 96 characters, not starting or ending with '-' or '.'.
_REPO_PART = r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,94}[A-Za-z0-9_])?"


VERSION_TAG = f"v{DATASET_VERSION}"  # the dataset revision the MTEB task names


def check_repo_id(repo_id: str) -> str:
    """Return ``repo_id`` if it is a valid Hugging Face repo id, else raise :class:`LatinIntertextError`.

    Checked before validating or uploading anything, so that a typo fails at once with the rule, not after the work or
    with the Hub's less helpful error."""
    if not re.fullmatch(f"{_REPO_PART}/{_REPO_PART}", repo_id) or "--" in repo_id or ".." in repo_id or repo_id.endswith(".git"):
        raise LatinIntertextError(
            f"--repo-id {repo_id!r} is not a Hugging Face repo id: give owner/name, e.g. PoetryMTEB/LatinEpicIntertextualityRetrieval "
            "(letters, digits, '-', '_' and '.'; at most 96 characters each; no '--' or '..'; not starting or ending with '-' or '.')."
        )
    return repo_id


def upload_plan(root: Path) -> list[tuple[str, int]]:
    """(path in repo, bytes) of every file that would be uploaded."""
    return [(p.relative_to(root).as_posix(), p.stat().st_size) for p in sorted(root.rglob("*")) if p.is_file()]


def push(root: Path, repo_id: str, *, dry_run: bool = False, revision: str | None = None) -> list[tuple[str, int]]:
    check_repo_id(repo_id)
    problems = validate_dataset(root)
    if problems:
        raise LatinIntertextError(f"{root} fails validation; not uploading:\n  " + "\n  ".join(problems))
    plan = upload_plan(root)
    if dry_run:
        return plan
    token = os.environ.get("HF_TOKEN") or os.environ.get("HUGGING_FACE_HUB_TOKEN")
    if not token:
        raise LatinIntertextError("No Hugging Face token: set HF_TOKEN to a token with write access to " + repo_id)
    from huggingface_hub import HfApi

    api = HfApi(token=token)
    api.create_repo(repo_id, repo_type="dataset", exist_ok=True)
    commit = api.upload_folder(folder_path=str(root), repo_id=repo_id, repo_type="dataset", revision=revision, commit_message=f"Publish {DATASET_NAME}")
    if revision != VERSION_TAG:  # the MTEB task loads this tag (its metadata's dataset revision), so it must exist
        api.create_tag(repo_id, tag=VERSION_TAG, tag_message=f"{DATASET_NAME} {VERSION_TAG}", revision=commit.oid, repo_type="dataset", exist_ok=True)
    return plan
