"""Predictions against log lines engines printed in public issues (data/validation.yaml).

Inputs come from the quoted logs; the asserted figures are what the engines printed.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from calculators.validation import (
    FULL_BUDGET,
    PAGED_TOLERANCE,
    load_cases,
    predict_kv_line,
    predict_paged,
    table_markdown,
)

KV_CASES = load_cases()["kv_lines"]
PAGED_CASES = load_cases()["paged_capacity"]


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d[\d,]*\.?\d*", text))


@pytest.mark.parametrize("case", KV_CASES, ids=[c["id"] for c in KV_CASES])
def test_kv_bytes_match_printed_precision(case: dict[str, Any]) -> None:
    res = predict_kv_line(case)
    assert res.checks, "a case must check something"
    for check in res.checks:
        print(
            f"{case['id']} {check.name}: printed {check.printed} predicted "
            f"{check.predicted:.4f} {check.unit} ({check.rel_error * 100:+.3f}%)"
        )
        assert check.matches_printed_precision, (case["id"], check)


@pytest.mark.parametrize("case", PAGED_CASES, ids=[c["id"] for c in PAGED_CASES])
def test_paged_capacity_within_tolerance(case: dict[str, Any]) -> None:
    res = predict_paged(case)
    capacity = [c for c in res.checks if c.name in ("tokens", "blocks")]
    assert capacity, "every paged case checks the printed capacity"
    for check in res.checks:
        print(
            f"{case['id']} {check.name}: printed {check.printed} predicted "
            f"{check.predicted:.4f} {check.unit} ({check.rel_error * 100:+.3f}%)"
        )
        if check.name == FULL_BUDGET:
            continue  # shown in the table with its error; heuristic, not a log input
        if check.printed == 0:
            assert check.predicted == 0
        elif check.name in ("tokens", "blocks"):
            assert abs(check.rel_error) <= PAGED_TOLERANCE, (case["id"], check)
        else:  # budgets and concurrency are printed to 2 decimals
            assert check.matches_printed_precision or abs(check.predicted - check.printed) <= 0.011
    for note in res.notes:
        print(f"{case['id']}: {note}")


@pytest.mark.parametrize(
    "case", KV_CASES + PAGED_CASES, ids=[c["id"] for c in KV_CASES + PAGED_CASES]
)
def test_fixture_quotes_contain_the_printed_figures(case: dict[str, Any]) -> None:
    """The asserted figures are the ones in the verbatim quote, not typed separately."""
    quoted = {n.replace(",", "") for n in _numbers(case["quote"])}
    assert case["source"].startswith("https://github.com/")
    for key, value in case["printed"].items():
        if key in ("budget_gib",) and value < 0:
            assert f"{value:.2f}" in case["quote"]
            continue
        as_text = f"{value:.2f}" if isinstance(value, float) else str(value)
        assert as_text in quoted or str(value) in quoted, (case["id"], key, value)


def test_table_has_a_row_per_check() -> None:
    table = table_markdown()
    assert table.startswith("| case | source | printed | predicted | error |")
    for case in KV_CASES + PAGED_CASES:
        assert case["id"] in table
    assert "{{" not in table
