"""The catalog data itself: each figure carries the quote it came from."""

from __future__ import annotations

import re

import pytest

from calculators import get_model, load_catalog, load_gpus
from calculators.datafiles import read_data


def test_every_gpu_source_quotes_its_memory_figure() -> None:
    # memory_mib is copied from the quoted nvidia-smi / rocm-smi / Metal line (or the
    # conversion the source spells out), so the figure must appear in its own source.
    for g in load_gpus().values():
        assert str(g.memory_mib) in g.source, g.id
        if g.cuda_total_gib is not None:
            assert f"{g.cuda_total_gib:.2f}" in g.cuda_source, g.id


def test_gpu_notes_are_strings_when_present() -> None:
    for g in read_data("gpus.yaml")["gpus"]:
        assert isinstance(g.get("note", ""), str), g["id"]
        assert set(g) <= {
            "id",
            "name",
            "memory_mib",
            "source",
            "cuda_total_gib",
            "cuda_source",
            "nvml_memory",
            "nvml_source",
            "note",
        }, g["id"]
        if "nvml_memory" in g:  # only ever said to be missing, with where that is shown
            assert g["nvml_memory"] is False and g["nvml_source"].startswith("https://"), g["id"]


def test_unified_memory_entries_say_so() -> None:
    for g in read_data("gpus.yaml")["gpus"]:
        if g["id"].startswith("apple-") or g["id"] == "dgx-spark":
            assert "Unified memory" in g.get("note", ""), g["id"]


@pytest.mark.parametrize("model", ["llama-2-7b", "llama-2-13b", "llama-2-70b"])
def test_llama2_context_is_its_own_config_4096(model: str) -> None:
    # The first HF Llama 2 checkpoints shipped 2048; the models were trained on 4k.
    assert get_model(model).max_position_embeddings == 4096


def test_every_model_has_a_context_length_and_a_pinned_or_quoted_source() -> None:
    for arch in load_catalog().values():
        assert arch.max_position_embeddings, arch.id
        # GitHub sources are pinned to a commit (blob/<40 hex>) or are issue/PR threads.
        for url in re.findall(r"https://github\.com/\S+", arch.source):
            assert re.search(r"/blob/[0-9a-f]{40}/|/issues/\d+|/pull/\d+", url), (arch.id, url)
