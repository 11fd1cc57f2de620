"""The fit tables and the "will it run?" data say exactly what `errkb calc` says."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

from click.testing import CliRunner

import calculators.engines.ollama as ollama_engine
import calculators.engines.sglang as sglang_engine
from calculators.gpus import load_gpus
from calculators.grid import COMBOS, CONTEXTS, combo
from calculators.models import load_catalog
from errkb.cli import cli
from errkb.entries.urls import FIT_API, model_uri
from errkb.site.fitdata import FitData, fit_assets
from errkb.site.fitpages import fmt_tokens, model_page


def calc(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["calc", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_300_sampled_cells_equal_errkb_calc(fit: FitData) -> None:
    assets = fit_assets(fit)
    cells = [
        cell
        for path, text in sorted(assets.items())
        if path != f"{FIT_API}/index.json"
        for cell in json.loads(text)["cells"]
        if cell["error"] is None
    ]
    # A multi-GPU setup's cells are `errkb calc --gpu ID --tp N`, as index.json says.
    index = json.loads(assets[f"{FIT_API}/index.json"])
    gpu_args = {g["id"]: g["calc_gpu"].split(" ") for g in index["gpus"]}
    assert any(len(a) == 3 for a in gpu_args.values())
    rng = random.Random(20261120)
    checked = 0
    for cell in rng.sample(cells, 300):
        i = rng.randrange(len(CONTEXTS))
        computed = [j for j, f in enumerate(cell["fits"]) if f is not None]
        if i not in computed:  # beyond the model's context length: not computed
            i = computed[0] if computed else 0
        c = combo(cell["combo"])
        out = calc(
            "--model",
            cell["model"],
            "--gpu",
            *gpu_args[cell["gpu"]],
            *c.calc_args(),
            "--context",
            str(CONTEXTS[i]),
        )
        where = f"{cell['model']} on {cell['gpu']} with {c.key} at {CONTEXTS[i]}"
        assert (out["max_context"] or None) == cell["max_context"], where
        if i in computed:
            assert out["max_concurrency"] == cell["concurrency"][i], where
            assert out["fits"] == cell["fits"][i], where
        else:  # nothing computed at any context the grid uses: errkb calc says no there too
            assert out["fits"] is False, where
        assert out["weights_bytes"] == cell["weights_bytes"], where
        assert out["kv_bytes_per_token"] == cell["kv_bytes_per_token"], where
        checked += 1
    assert checked == 300


def _row_cells(page: str, label: str) -> list[str]:
    """The cells after the first of the fit-table row whose first cell links `label`, one per
    column as a reader sees them: a cell spanning n columns counts n times. Body rows leave
    their end tags out: a row ends where the next one (or the body) starts."""
    at = page.find(f">{label}</a>")
    if at < 0:  # a first cell that is not a link
        at = page.index(f"<tr><td>{label}<td") + len("<tr><td>")
    row = re.split(r"<tr>|</tbody>", page[at:])[0]
    return [
        text
        for span, text in re.findall(r"<td(?: colspan=(\d+))?>([^<]*)", row)
        for _ in range(int(span or 1))
    ]


def test_row_cells_reads_spans_as_a_browser_lays_them_out() -> None:
    html = '<tbody><tr><td><a href="x/">M</a><td colspan=3>4,096<td>does not fit<tr><td>'
    assert _row_cells(html, "M") == ["4,096", "4,096", "4,096", "does not fit"]


def test_model_page_prints_the_data(fit: FitData) -> None:
    data = json.loads(fit_assets(fit)[f"{FIT_API}/llama-3.1-8b.json"])
    page = model_page(fit, load_catalog()["llama-3.1-8b"], model_uri("llama-3.1-8b"))
    h100 = {c["combo"]: c for c in data["cells"] if c["gpu"] == "h100-80gb"}
    shown = _row_cells(page, "NVIDIA H100 80GB HBM3")
    assert shown == [fmt_tokens(h100[c.key]["max_context"]) for c in COMBOS]
    assert "= **131,072 bytes per token**" in page  # 2 x 32 x 8 x 128 x 2, the quick check
    # The legend's command, completed with the GPU as the page says, prints the row's figure.
    legend = re.findall(r"<code>(errkb calc --model llama-3.1-8b [^<]*)</code>", page)
    assert len(legend) == len(COMBOS)
    for command, c in zip(legend, COMBOS, strict=True):
        out = calc(*command.split()[2:], "--gpu", "h100-80gb")
        assert (out["max_context"] or None) == h100[c.key]["max_context"], command


def test_a_gpu_page_links_its_multi_gpu_setups_and_concurrency_page(fit: FitData) -> None:
    from calculators.grid import SETUPS
    from errkb.entries.urls import gpu_uri
    from errkb.site.fitpages import gpu_page

    for s in SETUPS:
        page = gpu_page(fit, fit.gpus[s.gpu], gpu_uri(s.gpu))
        assert f'<a href="../{s.id}/">{s.count}x</a>' in page, s.id
        assert '<a href="concurrency/">the concurrency table</a>' in page


def test_concurrency_pages_print_the_cells(fit: FitData) -> None:
    from calculators.grid import SETUPS, TP_COMBOS, Cell, setup_grid
    from errkb.entries.urls import concurrency_uri
    from errkb.site.fitpages import fmt_conc, gpu_concurrency_page, setup_concurrency_page

    def shown(cells: list[Cell]) -> list[str]:
        return [" / ".join(fmt_conc(c.concurrency[i]) for i in (1, 2)) for c in cells]

    page = gpu_concurrency_page(fit, fit.gpus["h100-80gb"], concurrency_uri("h100-80gb"))
    want = shown([fit.cell("h100-80gb", "llama-3.1-8b", c.key) for c in COMBOS])
    assert _row_cells(page, "Llama 3.1 8B") == want
    assert "/ n/a" not in " ".join(want)  # 32,768 tokens is within Llama 3.1's context
    for s in SETUPS:
        mine = {(c.model, c.combo): c for c in setup_grid() if c.gpu == s.id}
        page = setup_concurrency_page(fit, s, mine, concurrency_uri(s.id))
        want = shown([mine[("llama-3.1-70b", c.key)] for c in TP_COMBOS])
        assert _row_cells(page, "Llama 3.1 70B") == want, s.id


def test_committed_charts_are_current_static_svg_of_the_grid(tmp_path: Path, fit: FitData) -> None:
    from calculators.grid import fit_grid
    from errkb.site.charts import CHARTS_DIR, MODEL_CHART, chart_specs, model_chart, stale

    root = Path(__file__).resolve().parent.parent
    specs = chart_specs(fit)
    assert len(specs) == len(load_catalog()) + len(load_gpus())
    assert stale(root, specs) == []  # `errkb charts` was run after the last data change
    svg = (root / CHARTS_DIR / "models" / "llama-3.1-8b.svg").read_text(encoding="utf-8")
    assert "<svg" in svg and "<script" not in svg
    cells = [c for c in fit_grid() if c.model == "llama-3.1-8b"]
    spec = model_chart("Llama 3.1 8B", cells, {c.gpu: c.gpu for c in cells})
    # The chart plots exactly the grid's max contexts (0 where nothing fits).
    plotted = sorted(r["max_context"] for r in spec["data"]["values"])
    assert plotted == sorted(c.max_context or 0 for c in cells if c.combo in MODEL_CHART)
    # A chart drawn from other data is reported, as is a file no spec asks for.
    copy = tmp_path / CHARTS_DIR
    shutil.copytree(root / CHARTS_DIR, copy)
    (copy / "models" / "llama-3.1-8b.svg").write_text("<!-- old -->\n<svg/>", encoding="utf-8")
    (copy / "models" / "gone.svg").write_text("<svg/>", encoding="utf-8")
    assert stale(tmp_path, specs) == ["models/gone.svg", "models/llama-3.1-8b.svg"]


def test_launch_commands_use_flags_the_newest_release_has() -> None:
    """The one set of engine commands the tables and "will it run?" print is linted like
    an entry's commands, against the newest release in the flag data."""
    from errkb.checks.flaglint import lint_command, load_flags
    from errkb.entries.schema import Command
    from errkb.site.fitdata import fill_command, launch_command

    flags = load_flags()
    checked = 0
    for c in COMBOS:
        code = fill_command(launch_command(c), model="Qwen/Qwen3-8B", context=8192)
        known = flags.get(c.engine)
        if known is None:
            continue
        newest = known.snapshots[-1].version.removeprefix("b")
        command = Command(engine=c.engine, versions=f">={newest}", code=code)
        assert lint_command(command, flags) == [], code
        if c.engine in MODELLED:  # and in the release the cells model
            command = Command(engine=c.engine, versions=f"=={MODELLED[c.engine]}", code=code)
            assert lint_command(command, flags) == [], (MODELLED[c.engine], code)
        checked += 1
    assert checked == len(COMBOS)  # every engine the tables cover has flag data
    # Ollama 0.5.7, the release modelled before, has no OLLAMA_CONTEXT_LENGTH: caught here.
    stale = Command(
        engine="ollama", versions="==0.5.7", code="OLLAMA_CONTEXT_LENGTH=8192 ollama serve"
    )
    assert lint_command(stale, flags)


# Engines whose tables model a numbered release (vLLM's and llama.cpp's are eras).
MODELLED = {"ollama": ollama_engine.DEFAULT_VERSION, "sglang": sglang_engine.DEFAULT_VERSION}


def test_fit_js_builds_no_engine_command_or_url_itself() -> None:
    js = (Path(__file__).resolve().parent.parent / "docs/assets/javascripts/fit.js").read_text()
    for literal in ("vllm serve", "sglang", "llama-server", "ollama serve", '"e/"', "-fa ", '"--'):
        assert literal not in js, literal
    index = json.loads(fit_assets_index())
    assert all("{context}" in c["command"] for c in index["combos"])
    assert all(e["url"].startswith("e/E") for ids in index["no_fit_entries"].values() for e in ids)


def fit_assets_index() -> str:
    from calculators.grid import fit_grid
    from errkb.site.fitdata import fit_data

    return fit_assets(fit_data(fit_grid()))[f"{FIT_API}/index.json"]


def test_fit_answers_say_how_far_off_they_were_on_held_out_logs(fit: FitData) -> None:
    """Every page that shows the calculator's answers carries the holdout's error, the same
    figures the method page's end-to-end table prints."""
    from calculators import endtoend
    from errkb.site.fitpages import accuracy_note, stamp

    s = endtoend.summary(endtoend.outcomes(endtoend.HOLDOUT, "vllm"))
    note = accuracy_note("../calculators/method.md")
    assert f"{s['median_abs_gib']:.1f} GiB off at the median" in note
    assert f"{s['worst_abs_gib']:.1f} GiB at the worst" in note
    assert note in stamp(fit)
    page = (Path(__file__).parent.parent / "docs/calculators/will-it-run.md").read_text("utf-8")
    assert "<!-- errkb:calc-accuracy -->" in page


def test_multi_gpu_cells_equal_errkb_calc_with_tp() -> None:
    from calculators.grid import setup, setup_grid

    cells = [c for c in setup_grid() if c.error is None]
    rng = random.Random(20261126)
    for cell in rng.sample(cells, 60):
        s = setup(cell.gpu)
        i = rng.randrange(len(CONTEXTS))
        computed = [j for j, f in enumerate(cell.fits) if f is not None]
        if i not in computed:
            i = computed[0] if computed else 0
        out = calc(
            "--model",
            cell.model,
            *s.calc_args(),
            *combo(cell.combo).calc_args(),
            "--context",
            str(CONTEXTS[i]),
        )
        where = f"{cell.model} on {cell.gpu} with {cell.combo} at {CONTEXTS[i]}"
        assert (out["max_context"] or None) == cell.max_context, where
        assert out["weights_bytes"] == cell.weights_bytes, where
        if i in computed:
            assert out["max_concurrency"] == cell.concurrency[i], where
            assert out["fits"] == cell.fits[i], where


def test_multi_gpu_pages_print_the_cells(fit: FitData) -> None:
    from calculators.grid import SETUPS, TP_COMBOS, setup_grid
    from errkb.site.fitpages import fmt_tokens, setup_page

    for s in SETUPS:
        mine = {(c.model, c.combo): c for c in setup_grid() if c.gpu == s.id}
        page = setup_page(fit, s, mine, f"gpus/{s.id}.md")
        shown = _row_cells(page, "Llama 3.1 70B")
        first = mine[("llama-3.1-70b", TP_COMBOS[0].key)]
        assert first.weights_bytes is not None
        want = [f"{first.weights_bytes / (1 << 30):.2f} GiB"]  # the BF16 weights per GPU
        want += [fmt_tokens(mine[("llama-3.1-70b", c.key)].max_context) for c in TP_COMBOS]
        assert shown == want, s.id


def test_tensor_parallel_needs_heads_that_divide() -> None:
    # vLLM's own refusal (ModelConfig.verify_with_parallel_config): Qwen2-7B has 28 heads.
    result = CliRunner().invoke(
        cli, ["calc", "--model", "qwen2-7b", "--engine", "vllm", "--gpu", "h100-80gb", "--tp", "8"]
    )
    assert result.exit_code == 2
    assert (
        "Total number of attention heads (28) must be divisible by tensor parallel size (8)."
        in (result.stderr)
    )
