"""The "will it run?" page answers exactly as `errkb calc` does (headless Chromium)."""

from __future__ import annotations

import json
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

from calculators.grid import CONTEXTS, combo
from tests.browser import browser_page, chromium_or_skip, serve
from tests.conftest import MakeRepo
from tests.test_fit_tables import calc

# (gpu, model, setting, context, sequences): fits, does not fit, several sequences, an
# SWA model, an MLA model, a quantised KV cache, a model too big for the card.
SCENARIOS = [
    ("rtx-4090", "llama-3.1-8b", "vllm-bf16", 32768, 1),
    ("rtx-4090", "llama-3.1-8b", "vllm-bf16", 131072, 1),
    ("l40s", "qwen2.5-14b", "vllm-bf16-fp8kv", 8192, 6),
    ("t4", "gemma-2-9b", "llamacpp-q4k", 8192, 2),
    ("h100-80gb", "deepseek-v2-lite", "sglang-bf16", 32768, 3),
    ("a10", "qwen3-14b", "llamacpp-q4k-q8kv", 32768, 1),
    ("rtx-3090", "llama-3.1-70b", "ollama-q4k", 4096, 1),
    ("2x-rtx-3090", "llama-3.1-70b", "vllm-awq", 8192, 1),  # tensor parallel 2
]
# What the page passes for --gpu: a setup is its GPU and --tp.
GPU_ARGS = {"2x-rtx-3090": ["rtx-3090", "--tp", "2"]}


def test_will_it_run_equals_errkb_calc(make_repo: MakeRepo, tmp_path: Path) -> None:
    chromium_or_skip()
    repo = make_repo()
    site = tmp_path / "site"
    build(load_config(str(repo / "mkdocs.yml"), strict=True, site_dir=str(site)))
    with serve(site) as base, browser_page() as page:
        page.goto(base + "calculators/will-it-run/")
        page.wait_for_selector("#errkb-fit[data-ready=true]")
        for gpu, model, key, context, seqs in SCENARIOS:
            page.select_option("[name=gpu]", gpu)
            page.select_option("[name=model]", model)
            page.select_option("[name=combo]", key)
            page.select_option("[name=context]", str(CONTEXTS.index(context)))
            page.fill("[name=seqs]", str(seqs))
            page.dispatch_event("[name=seqs]", "change")
            gpu_args = GPU_ARGS.get(gpu, [gpu])
            want = f"errkb calc --model {model} --gpu {' '.join(gpu_args)} {' '.join(combo(key).calc_args())} --context {context} --seqs {seqs}"
            page.wait_for_function(
                "(want) => { const p = document.querySelector('.errkb-calc-command');"
                " return p && p.textContent === want; }",
                arg=want,
            )
            got = calc(
                "--model",
                model,
                "--gpu",
                *gpu_args,
                *combo(key).calc_args(),
                "--context",
                str(context),
                "--seqs",
                str(seqs),
            )
            single = calc(
                "--model",
                model,
                "--gpu",
                *gpu_args,
                *combo(key).calc_args(),
                "--context",
                str(context),
            )
            where = f"{model} on {gpu}, {key}, {context} x {seqs}"
            verdict = page.get_attribute(".errkb-verdict", "data-fits")
            assert verdict == json.dumps(got["fits"]), where
            shown_max = page.get_attribute("[data-max-context]", "data-max-context")
            assert shown_max == json.dumps(single["max_context"] or None), where
            shown_conc = page.get_attribute("[data-concurrency]", "data-concurrency")
            assert float(shown_conc or "nan") == single["max_concurrency"], where
            if got["fits"] is False:
                links = page.query_selector_all(".errkb-fit-answer a")
                assert links, where  # the error pages a reader would hit
            if gpu in GPU_ARGS and single["max_context"]:
                launch = page.text_content(".errkb-engine-command") or ""
                assert launch.endswith(f"--tensor-parallel-size {gpu_args[-1]}"), launch
        # A fine-tune's config.json: same architecture as a catalog model.
        page.click("#errkb-fit details summary")
        page.fill("[name=config]", json.dumps(CONFIG))
        page.click("[name=find]")
        page.wait_for_selector(".errkb-config-result:has-text('Same architecture as')")
        assert page.input_value("[name=model]") == "llama-3.1-8b"


# The dimensions of meta-llama/Llama-3.1-8B (calculators/data/models.yaml), as a fine-tune ships them.
CONFIG = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "num_hidden_layers": 32,
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "intermediate_size": 14336,
    "vocab_size": 128256,
    "max_position_embeddings": 131072,
}
