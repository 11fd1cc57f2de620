"""The held-out paste suite's shape (tests/fixtures/pastes, issue 14 item 4).

Real pastes copied verbatim from public issue threads, labelled with the entry that is the
right page (`expected`, null for a near miss that no entry covers). This file checks only
that the index is well formed and that the calibration/holdout split obeys its fixed rule;
it does not score the matcher.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT

PASTES = Path(__file__).parent / "fixtures" / "pastes"
LOGS = Path(__file__).parent / "fixtures" / "logs"
INDEX: list[dict[str, Any]] = yaml.safe_load((PASTES / "index.yaml").read_text(encoding="utf-8"))
ENTRY_IDS = {p.stem for p in (ROOT / "errors").glob("E*.yaml")}
KEYS = ["file", "part", "expected", "also", "engine", "source", "why"]
URL = re.compile(r"https?://[^\s\"'<>)\]]+")


def thread(url: str) -> str:
    """The thread a URL points at: no fragment (comment anchor), no query, no trailing slash."""
    return re.sub(r"[#?].*$", "", url).rstrip("/")


def part_of(source: str) -> str:
    """The fixed split rule, decided before any tuning: even first hex digit of sha1(source)."""
    return (
        "calibration"
        if int(hashlib.sha1(source.encode()).hexdigest()[0], 16) % 2 == 0
        else "holdout"
    )


def test_index_is_complete() -> None:
    assert len(INDEX) >= 150
    assert sum(case["expected"] is None for case in INDEX) >= 25
    parts = {case["part"] for case in INDEX}
    assert parts == {"calibration", "holdout"}


@pytest.mark.parametrize("case", INDEX, ids=[c["file"] for c in INDEX])
def test_case_shape(case: dict[str, Any]) -> None:
    assert list(case) == KEYS
    assert re.fullmatch(r"\d{3,4}-[a-z0-9][a-z0-9-]*\.txt", case["file"])
    text = (PASTES / case["file"]).read_text(encoding="utf-8")
    assert text.endswith("\n") and 1 <= len(text.splitlines()) <= 15
    assert case["source"].startswith("https://github.com/")
    assert case["part"] == part_of(case["source"])
    assert case["expected"] is None or case["expected"] in ENTRY_IDS
    assert isinstance(case["also"], list)
    assert all(other in ENTRY_IDS and other != case["expected"] for other in case["also"])
    if case["expected"] is None:
        assert case["also"] == [], "a near miss has no right page, so no second one either"
    assert re.fullmatch(r"[a-z0-9][a-z0-9.-]*", case["engine"])
    assert case["why"].strip()


def test_files_and_texts_are_unique() -> None:
    names = [case["file"] for case in INDEX]
    assert len(set(names)) == len(names)
    assert len({name.split("-", 1)[0] for name in names}) == len(names)
    on_disk = {p.name for p in PASTES.glob("*.txt")}
    assert on_disk == set(names), "every paste file is listed once, and only those"
    texts = [(PASTES / name).read_text(encoding="utf-8") for name in names]
    assert len(set(texts)) == len(texts)


def test_no_source_shared_with_the_tuning_suite_or_the_entries() -> None:
    used: set[str] = set()
    for path in [LOGS / "index.yaml", *sorted((ROOT / "errors").glob("*.yaml"))]:
        used |= {thread(url) for url in URL.findall(path.read_text(encoding="utf-8"))}
    shared = sorted({thread(c["source"]) for c in INDEX} & used)
    assert shared == []


def test_split_rule_is_the_sha1_rule() -> None:
    # Pinned examples, so that a change to part_of() cannot silently move pastes across parts.
    assert (
        hashlib.sha1(b"https://github.com/ollama/ollama/issues/3237").hexdigest()[0] in "02468ace"
    )
    assert part_of("https://github.com/ollama/ollama/issues/3237") == "calibration"
    holdout = [c for c in INDEX if c["part"] == "holdout"]
    assert holdout and all(
        int(hashlib.sha1(c["source"].encode()).hexdigest()[0], 16) % 2 for c in holdout
    )
