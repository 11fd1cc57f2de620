"""What a real GPU printed, against what the KB says it prints.

`tests/fixtures/device/h100-torch-2.11.json` holds the output of `scripts/device_capture.py`,
run once on an H100 (the file names the machine and the releases): each case provoked one
error the KB covers, in its own interpreter. These tests check three things the suite's
pasted logs cannot: that the entry's wordings for the release that ran hold the line it
printed (its version range included), that the matcher lands on that entry from the raw
output, and that the GPU figures the calculator uses agree with what the card reported.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from tests.conftest import ROOT
from tests.test_match_figures import CORPUS, MATCHER

CAPTURE = json.loads(
    (Path(__file__).parent / "fixtures" / "device" / "h100-torch-2.11.json").read_text("utf-8")
)
CASES: dict[str, dict[str, Any]] = CAPTURE["cases"]
TORCH = Version("2.11.0")
TRANSFORMERS = Version("5.17.0")

# A bare OOM says nothing of the phase it came in; any page of the OOM family will do.
OOM = (
    {"E0008", "E0009", "E0103"},
    "pytorch",
    TORCH,
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate",
)
ASSERT = (
    {"E0064"},
    "pytorch",
    TORCH,
    "torch.AcceleratorError: CUDA error: device-side assert triggered",
)
HUB = (
    {"E0070"},
    "transformers",
    TRANSFORMERS,
    "OSError: We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find them in the cached files.",
)

# case: (the entries that are its right page, the engine and release that printed the line,
# the line as printed, which the entry must hold for that release).
EXPECTED: dict[str, tuple[set[str], str, Version, str]] = {
    "oom_huge": OOM,
    "oom_filled": OOM,
    "oom_old_env": OOM,
    "oom_new_env": OOM,
    "assert_embedding": ASSERT,
    "assert_embedding_blocking": ASSERT,
    "illegal_access": ({"E0062"}, "pytorch", TORCH, "torch.AcceleratorError: CUDA error: an illegal memory access was encountered"),
    "misaligned": ({"E0162"}, "pytorch", TORCH, "torch.AcceleratorError: CUDA error: misaligned address"),
    "fork": ({"E0047"}, "pytorch", TORCH, "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method"),
    "bad_ordinal": ({"E0048"}, "pytorch", TORCH, "torch.AcceleratorError: CUDA error: invalid device ordinal"),
    "nccl_duplicate": ({"E0051"}, "nccl", Version("2.28.9"), "Duplicate GPU detected : rank 0 and rank 1 both on CUDA device"),
    "two_devices": ({"E0074"}, "pytorch", TORCH, "RuntimeError: Expected all tensors to be on the same device, but got mat2 is on cpu, different from other tensors on cuda:0"),
    "multinomial_nan_cuda": ({"E0076"}, "pytorch", TORCH, "Assertion `probability tensor contains either `inf`, `nan` or element < 0` failed."),
    "multinomial_nan_cpu": ({"E0076"}, "pytorch", TORCH, "RuntimeError: probability tensor contains either `inf`, `nan` or element < 0"),
    "meta_copy": ({"E0077"}, "pytorch", TORCH, "NotImplementedError: Cannot copy out of meta tensor; no data!"),
    "hf_unknown_type": ({"E0054"}, "transformers", TRANSFORMERS, "but Transformers does not recognize this architecture"),
    "hf_offline": HUB,
    "hf_no_network": HUB,
}  # fmt: skip

_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _shape(text: str) -> str:
    """A line with its numbers as one placeholder: the KB keeps a user's values as printed."""
    return _NUMBER.sub("N", " ".join(text.split()))


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_the_capture_printed_the_line(case: str) -> None:
    assert CASES[case]["rc"] != 0 or case == "fork", CASES[case]["output"]
    assert EXPECTED[case][3] in CASES[case]["output"]


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_the_entry_holds_the_line_for_the_release_that_printed_it(case: str) -> None:
    pages, engine, version, line = EXPECTED[case]
    held = [
        (entry.id, message.versions)
        for entry in CORPUS.entries
        if entry.id in pages
        for message in entry.messages
        if message.engine == engine and _shape(line) in _shape(message.text)
    ]
    assert held, f"no {sorted(pages)} wording holds {line!r}"
    in_range = [(id_, v) for id_, v in held if v == "*" or SpecifierSet(v).contains(version, True)]
    assert in_range, f"{line!r} is held only for {held}, but {engine} {version} printed it"


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_the_matcher_lands_on_the_entry(case: str) -> None:
    ranked = MATCHER.match(CASES[case]["output"], top=3)
    assert ranked, f"{case}: no match"
    assert ranked[0].entry_id in EXPECTED[case][0], [m.entry_id for m in ranked]
    assert not ranked[0].possible, f"{case}: only a possible match"


def test_float16_linear_runs_on_the_cpu_where_e0196_says_it_does() -> None:
    # E0196: CPU float16 Linear fails before torch 2.2. The capture ran it on 2.11.
    assert CASES["cpu_half_matmul"]["rc"] == 0
    ranges = [
        m.versions
        for e in CORPUS.entries
        if e.id == "E0196"
        for m in e.messages
        if "addmm_impl_cpu_" in m.text
    ]
    assert ranges and not any(SpecifierSet(r).contains(TORCH, True) for r in ranges)


def _memory() -> dict[str, float]:
    """The memory case's figures: nvidia-smi's MiB, CUDA's total and free bytes after the
    context, and the MiB outside PyTorch after the first matrix product."""
    out = CASES["memory"]["output"]
    found = {
        "smi_mib": re.search(r"NVIDIA H100 80GB HBM3, (\d+) MiB", out),
        "total": re.search(r"after context: free \d+ total (\d+)", out),
        "free": re.search(r"after context: free (\d+)", out),
        "outside_mib": re.search(r"non-torch after matmul: ([\d.]+) MiB", out),
    }
    missing = [k for k, m in found.items() if m is None]
    assert not missing, missing
    return {k: float(m.group(1)) for k, m in found.items() if m is not None}


def test_the_h100_figures_are_what_the_card_reported() -> None:
    figures = _memory()
    gpus = yaml.safe_load((ROOT / "calculators" / "data" / "gpus.yaml").read_text("utf-8"))
    h100 = next(g for g in gpus["gpus"] if g["id"] == "h100-80gb")
    assert h100["memory_mib"] == figures["smi_mib"]
    # CUDA's total depends on the driver (this one 580.159.04); the catalog's comes from a
    # vLLM log under another driver, so they agree to the driver's reservation, not exactly.
    assert abs(h100["cuda_total_gib"] - figures["total"] / 2**30) < 0.05


def test_the_method_page_quotes_the_capture() -> None:
    """docs/calculators/method.md states the H100's context and total from this capture."""
    figures = _memory()
    total = figures["total"]
    page = " ".join((ROOT / "docs" / "calculators" / "method.md").read_text("utf-8").split())
    context, outside = (total - figures["free"]) / 2**30, figures["outside_mib"] / 1024
    assert f"the CUDA context took {context:.2f} GiB" in page
    assert f"{outside - context:.2f} GiB more, {outside:.2f} GiB outside PyTorch" in page
    assert f"a total of {total / 2**30:.2f} GiB" in page
