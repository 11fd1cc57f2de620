"""A model the catalog lacks: "Will it run?" runs `errkb calc --config` itself in Pyodide, and
answers exactly what the terminal prints (headless Chromium, issue 15)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from mkdocs.commands.build import build
from mkdocs.config import load_config

from calculators.grid import CONTEXTS, combo
from errkb.cli import cli
from errkb.site import browsercalc
from errkb.site.browsercalc import (
    RuntimeUnavailable,
    calculators_zip,
    default_cache,
    fetch_runtime,
)
from tests.browser import browser_page, chromium_or_skip, serve
from tests.conftest import MakeRepo

CONFIGS = Path(__file__).resolve().parent / "fixtures" / "configs"

# (config, gpu, setting, context, sequences, safetensors total_size or None): an SWA model on
# a 24 GB card, a MoE that needs two cards' worth, a dense model with exact weight bytes.
CASES = [
    ("gemma3-4b-like.json", "rtx-4090", "vllm-bf16", 32768, 1, None),
    ("qwen2-moe-57b-like.json", "h100-80gb", "sglang-bf16", 8192, 4, None),
    ("llama-wide-vocab-like.json", "rtx-3060-12gb", "llamacpp-q4k-q8kv", 32768, 2, 6_543_210_000),
]


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["calc", *args])
    return result.exit_code, result.stdout + result.stderr


def _runtime_or_skip() -> None:
    try:
        fetch_runtime(default_cache())
    except RuntimeUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the in-browser calculator test: {exc}")
        pytest.skip(str(exc))


def test_calculators_zip_is_reproducible_and_holds_the_cli() -> None:
    import io
    import zipfile

    first, second = calculators_zip(), calculators_zip()
    assert first == second
    names = zipfile.ZipFile(io.BytesIO(first)).namelist()
    assert "calculators/cli.py" in names and "calculators/browser.py" in names
    assert "click/core.py" in names
    assert "calculators/data/gpus.json" in names  # Pyodide's core has no PyYAML
    assert not any(n.endswith(".yaml") for n in names)


def test_page_computes_configs_the_catalog_lacks_as_errkb_calc_does(
    make_repo: MakeRepo, tmp_path: Path
) -> None:
    chromium_or_skip()
    _runtime_or_skip()
    repo = make_repo()
    site = tmp_path / "site"
    build(load_config(str(repo / "mkdocs.yml"), strict=True, site_dir=str(site)))
    requested: list[str] = []
    with serve(site) as base, browser_page() as page:
        page.on("request", lambda request: requested.append(request.url))
        page.goto(base + "calculators/will-it-run/")
        page.wait_for_selector("#errkb-fit[data-ready=true]")
        # Nothing of Python's is fetched until a reader asks for it.
        assert not [u for u in requested if "/assets/pyodide/" in u]
        page.click("details summary")
        for name, gpu, key, context, seqs, total in CASES:
            config = (CONFIGS / name).read_text(encoding="utf-8")
            page.select_option("[name=gpu]", gpu)
            page.select_option("[name=combo]", key)
            page.select_option("[name=context]", str(CONTEXTS.index(context)))
            page.fill("[name=seqs]", str(seqs))
            page.fill("[name=config]", config)
            index_args: list[str] = []
            if total is not None:
                index = {"metadata": {"total_size": total}, "weight_map": {}}
                page.fill("[name=index]", json.dumps(index))
                index_file = tmp_path / "model.safetensors.index.json"
                index_file.write_text(json.dumps(index), encoding="utf-8")
                index_args = ["--safetensors-index", str(index_file)]
            else:
                page.fill("[name=index]", "")
            page.click("[name=find]")
            page.wait_for_function(
                "() => document.querySelector('.errkb-config-result').textContent"
                ".startsWith('No catalog model')"
            )
            page.click("[name=compute]")
            page.wait_for_selector(".errkb-fit-answer[data-result]", timeout=120_000)
            got = json.loads(page.get_attribute(".errkb-fit-answer", "data-result") or "")
            args = [
                "--gpu",
                gpu,
                *combo(key).calc_args(),
                "--context",
                str(context),
                "--seqs",
                str(seqs),
            ]
            config_file = tmp_path / "config.json"
            config_file.write_text(config, encoding="utf-8")
            code, out = _cli("--config", str(config_file), *args, *index_args, "--json")
            assert code == 0, out
            want = json.loads(out)
            # The CLI names the model after the file; both files are called config.json.
            assert got == want, name
            shown = page.text_content(".errkb-calc-command") or ""
            assert shown.startswith("errkb calc --config config.json --gpu " + gpu)
            verdict = page.get_attribute(".errkb-verdict", "data-fits")
            assert verdict == str(want["fits"]).lower()
            max_context = page.get_attribute("[data-max-context]", "data-max-context")
            assert max_context == str(want["max_context"]).replace("None", "null")
        # An incomplete config: the page shows the CLI's own one-line error.
        bad = (CONFIGS / "incomplete.json").read_text(encoding="utf-8")
        page.fill("[name=config]", bad)
        page.fill("[name=index]", "")
        page.click("[name=compute]")
        page.wait_for_selector(".errkb-fit-answer [data-fits=error]", timeout=60_000)
        shown = page.text_content(".errkb-fit-answer [data-fits=error]") or ""
        bad_file = tmp_path / "config.json"
        bad_file.write_text(bad, encoding="utf-8")
        code, out = _cli("--config", str(bad_file), "--gpu", "rtx-4090")
        assert code == 2
        want_error = out.strip().removeprefix("error: ").replace(str(bad_file), "config.json")
        assert shown == "errkb calc: " + want_error
        assert "num_hidden_layers" in shown


def test_a_build_without_npm_says_so_and_still_builds(
    make_repo: MakeRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(browsercalc, "_npm", lambda: None)
    repo = make_repo()
    site = tmp_path / "site"
    build(load_config(str(repo / "mkdocs.yml"), strict=True, site_dir=str(site)))
    runtime = json.loads((site / "api/v1/fit/runtime.json").read_text(encoding="utf-8"))
    assert runtime["pyodide"] is None
    assert not (site / "assets" / "pyodide").exists()
