"""Pages made from the fit grid: one per GPU, one per model, a sizing guide, and fit tables.

Every number printed here is a field of a `calculators.grid` cell; this module only lays
them out. The "quick check" arithmetic on model pages multiplies the architecture's own
figures and is printed only when the product equals what the calculator reports.
"""

from __future__ import annotations

import functools
import html
import posixpath
from collections.abc import Iterable
from typing import Any

from calculators.gpus import Gpu
from calculators.grid import (
    CALCULATOR_VERSION,
    COMBOS,
    CONTEXTS,
    SETUPS,
    TP_COMBOS,
    Cell,
    Combo,
    Setup,
    combo,
)
from calculators.kv import llamacpp_layers, paged_layers
from calculators.models import ModelArch
from errkb.entries.urls import (
    SIZING,
    WILL_IT_RUN,
    concurrency_uri,
    gpu_uri,
    model_uri,
    url_of,
)
from errkb.mdtext import code_span, escape, front_matter, rel
from errkb.site.charts import chart_uri
from errkb.site.fitdata import FitData, fill_command, launch_command
from errkb.site.gridtables import CLOSE as GRID_CLOSE
from errkb.site.gridtables import OPEN as GRID_OPEN

# A filter box over the index table that follows it (home.js); without JavaScript the whole
# table shows, as before.
FILTER = (
    '<input type="search" class="errkb-filter" placeholder="Filter the table: any words" '
    'aria-label="Filter the table">'
)


def _select(col: int, label: str, options: Iterable[tuple[str, str]], kind: str) -> str:
    """A filter on one column of the next table: `kind` "range" keeps rows whose number in that
    column lies in "low-high", "equals" rows whose text is the value ("" keeps every row)."""
    opts = "".join(
        f'<option value="{html.escape(value)}">{html.escape(text)}</option>'
        for value, text in [("", label), *options]
    )
    return (
        f'<select class="errkb-col-filter" data-col="{col}" data-kind="{kind}" '
        f'aria-label="{html.escape(label)}">{opts}</select>'
    )


def _filters(*selects: str) -> str:
    return '<div class="errkb-filters">' + FILTER + "".join(selects) + "</div>\n\n"


# Memory bands as people shop for cards (nvidia-smi MiB), and model sizes (billions).
_MEMORY_BANDS = (
    ("0-12288", "up to 12 GB"),
    ("12289-16384", "16 GB"),
    ("16385-24576", "20 to 24 GB"),
    ("24577-49152", "32 to 48 GB"),
    ("49153-99999999", "more than 48 GB"),
)
_PARAM_BANDS = (
    ("0-4", "up to 4B"),
    ("4-10", "4B to 10B"),
    ("10-40", "10B to 40B"),
    ("40-150", "40B to 150B"),
    ("150-100000", "more than 150B"),
)
TABLE_GPUS = ("rtx-3060-12gb", "t4", "rtx-4090", "rtx-5090", "l40s", "a100-80gb", "h100-80gb")


def fmt_tokens(n: int | None) -> str:
    return "does not fit" if not n else f"{n:,}"


def fmt_conc(x: float | None) -> str:
    if x is None:
        return "n/a"
    return "0" if x < 0.01 else f"{x:.2f}".rstrip("0").rstrip(".")


def gib(n: int | None) -> str:
    return "n/a" if n is None else f"{n / (1 << 30):.2f} GiB"


@functools.cache
def _holdout(engine: str) -> tuple[int, int, dict[str, float]]:
    """One engine's end-to-end holdout (calculators/endtoend.py): cases, cases overstated
    (by budget, or by pool where only the pool is printed), summary."""
    from calculators import endtoend

    items = endtoend.outcomes(endtoend.HOLDOUT, engine)
    over = 0
    for o in items:
        err = o.error_gib if o.error_gib is not None else o.tokens_rel_error
        over += err is not None and err > 0
    return len(items), over, endtoend.summary(items)


def accuracy_note(method_link: str) -> str:
    """How far off an answer can be, from logs the calculator was never tuned on."""
    n, over, s = _holdout("vllm")
    sn, sover, ss = _holdout("sglang")
    sglang = (
        f"SGLang's pool {ss['median_abs_tokens_pct']:.0f}% off at the median on {sn} "
        f"log{'s' if sn != 1 else ''} (too large in {sover}); "
        if sn
        else ""
    )
    return (
        "How far off it can be, on start-up logs from public issues the calculator was never "
        f"tuned on: vLLM's KV-cache memory, predicted from the GPU, the model, the flags and the "
        f"release, was {s['median_abs_gib']:.1f} GiB off at the median and "
        f"{s['worst_abs_gib']:.1f} GiB at the worst on {n} logs, too high in {over} (its KV "
        f"tokens {s['median_abs_tokens_pct']:.0f}% and {s['worst_abs_tokens_pct']:.0f}%): treat "
        f"a fit within a few GiB as a maybe. {sglang}{_llamacpp_note()} "
        f"([how it is checked]({method_link}#end-to-end-held-out))."
    )


@functools.cache
def _llamacpp_note() -> str:
    """llama.cpp's and Ollama's held-out buffers (calculators/footprint.py)."""
    from calculators import footprint
    from calculators.endtoend import HOLDOUT

    held = footprint.outcomes(HOLDOUT)
    if not held:
        return "llama.cpp and Ollama answers have no held-out end-to-end check yet"
    kv = footprint.summary(held, "kv")
    worst = max(footprint.summary(held, part)["worst_pct"] for part in ("model", "compute"))
    return (
        f"llama.cpp and Ollama: the KV cache exact on {int(kv['exact'])} of {len(held)} logs, "
        f"the model and compute buffers within {worst:.1f}%; Ollama 0.3 to 0.11 keeps every "
        "layer on the GPU only when its own, larger estimate fits, which "
        "`errkb calc --engine ollama` states"
    )


def stamp(fit: FitData) -> str:
    # A profile that names its engine is not prefixed with it again.
    versions = "; ".join(
        v if v.lower().startswith(e.lower()) else f"{e}: {v}"
        for e, v in fit.engine_versions().items()
    )
    return (
        f"Computed by errkb's calculator (version {CALCULATOR_VERSION}) for {escape(versions)}; "
        "every figure is what `errkb calc` prints for the same inputs. "
        + accuracy_note("../calculators/method.md")
    )


def _spans(cells: list[str]) -> str:
    """A row's cells after the first, equal neighbours merged into one cell spanning their
    columns: on most rows every setting gives the model's own context limit, and a figure
    that holds for several settings reads as one."""
    out: list[str] = []
    i = 0
    while i < len(cells):
        j = i + 1
        while j < len(cells) and cells[j] == cells[i]:
            j += 1
        out.append(f"<td colspan={j - i}>{cells[i]}" if j - i > 1 else f"<td>{cells[i]}")
        i = j
    return "".join(out)


def _html_table(
    header: list[str],
    rows: Iterable[list[str]],
    *,
    merge_after: int = 0,
    group_first: bool = False,
) -> str:
    """A table as raw HTML: thousands of numeric cells skip Markdown's inline parsing, and
    the `errkb.site.gridtables` extension skips the HTML parse too. Cells are escaped HTML.

    Body rows leave out `</td>` and `</tr>`, which HTML lets a parser infer (the next cell, row
    or `</tbody>` closes them): a GPU page holds about 2,000 cells, and the end tags were a
    fifth of its bytes. With `merge_after` n, equal neighbours after the first n cells share one
    cell (the first n, a row's names, never merge). With `group_first`, consecutive rows that
    start with the same cell show it once, spanning their rows."""
    head = "".join(f"<th>{h}</th>" for h in header)
    groups = _first_cell_groups(list(rows)) if group_first else [(1, [row]) for row in rows]
    body = "".join(
        _html_row(row, merge_after, span if k == 0 else -1)
        for span, group in groups
        for k, row in enumerate(group)
    )
    return f"{GRID_OPEN}\n<thead><tr>{head}</tr></thead>\n<tbody>{body}</tbody>\n{GRID_CLOSE}"


def _first_cell_groups(rows: list[list[str]]) -> list[tuple[int, list[list[str]]]]:
    """Runs of rows that share their first cell, each with its length."""
    groups: list[list[list[str]]] = []
    for row in rows:
        if groups and groups[-1][0][0] == row[0]:
            groups[-1].append(row)
        else:
            groups.append([row])
    return [(len(g), g) for g in groups]


def _html_row(row: list[str], merge_after: int, rowspan: int) -> str:
    """One body row; `rowspan` > 1 spans its first cell down, -1 leaves it out (a row above
    spans it), 0 or 1 is a plain first cell."""
    first = "" if rowspan < 0 else (f"<td rowspan={rowspan}>" if rowspan > 1 else "<td>") + row[0]
    names = "".join(f"<td>{c}" for c in row[1:merge_after])
    rest = _spans(row[merge_after:]) if merge_after else "".join(f"<td>{c}" for c in row[1:])
    return "<tr>" + first + names + rest


def _href(from_uri: str, to_uri: str, text: str) -> str:
    """A link between generated pages as the built site has them (directory URLs)."""
    target = posixpath.relpath(url_of(to_uri) or ".", url_of(from_uri) or ".")
    return f'<a href="{html.escape(target)}/">{html.escape(text)}</a>'


def _table(header: list[str], rows: Iterable[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _meta(title: str, description: str) -> str:
    # Tables of thousands of numbers would swamp the search index; the index pages list them.
    return front_matter({"title": title, "description": description, "search": {"exclude": True}})


def combo_legend(combos: Iterable[Combo], fixed: str) -> str:
    """What each table column is, and the `errkb calc` command that prints its figures;
    `fixed` is the option this page holds fixed (`--model ID` or `--gpu ID`)."""
    return _html_table(
        ["Column", "Setting", "The same figures from the command line"],
        (
            [
                f"<code>{html.escape(c.key)}</code>",
                html.escape(c.label),
                f"<code>{html.escape(f'errkb calc {fixed} ' + ' '.join(c.calc_args()))}</code>",
            ]
            for c in combos
        ),
    )


def gpu_page(fit: FitData, gpu: Gpu, from_uri: str) -> str:
    names = [(m.id, m.name) for m in fit.catalog.values()]

    def row(model_id: str) -> list[Cell]:
        return [fit.cell(gpu.id, model_id, c.key) for c in COMBOS]

    title = f"{gpu.name}: max context per model"
    out = [
        _meta(title, f"Which models fit on an {gpu.name}, at what context, on which engine."),
        f"# {escape(title)}",
        "",
        f"Memory: **{gpu.memory_mib:,} MiB** as `nvidia-smi` reports it"
        + (
            f", **{gpu.cuda_total_gib} GiB** as CUDA reports it to vLLM"
            if gpu.cuda_total_gib
            else ""
        )
        + f". Source: {escape(gpu.source)}.",
        "",
        stamp(fit),
        "",
        "The settings compared, one column each (add `--model ID` to the command, the id "
        "in the model page's address):",
        "",
        combo_legend(COMBOS, f"--gpu {gpu.id}"),
        "",
        "## Max context per sequence { #max-context }",
        "",
        f"![{escape(gpu.name)}: longest context by model, vLLM BF16 and llama.cpp Q4_K (the "
        f"table below has the numbers)]({rel(from_uri, chart_uri('gpus', gpu.id))}){{ loading=lazy }}",
        "",
        _settings_table("Model", ((_href(from_uri, model_uri(m), n), row(m)) for m, n in names)),
        *_setup_links(gpu, from_uri),
        *_concurrency_link(gpu.id, from_uri),
    ]
    return "\n".join(out) + "\n"


def _concurrency_link(gpu_id: str, from_uri: str) -> list[str]:
    # The concurrency tables have a page of their own: with them, a GPU page was 52 KB, over
    # the 30 KB a page may weigh (issue 17), and most readers come for the context.
    return [
        "",
        f"## Max concurrency at {CONTEXTS[1]:,} / {CONTEXTS[2]:,} tokens {{ #concurrency }}",
        "",
        "How many sequences of each length fit at once, per model and setting: "
        f"{_href(from_uri, concurrency_uri(gpu_id), 'the concurrency table')}.",
    ]


def gpu_concurrency_page(fit: FitData, gpu: Gpu, from_uri: str) -> str:
    rows = (
        (html.escape(m.name), [fit.cell(gpu.id, m.id, c.key) for c in COMBOS])
        for m in fit.catalog.values()
    )
    return _concurrency_page(gpu.name, gpu.id, rows, from_uri, COMBOS)


def setup_concurrency_page(
    fit: FitData, setup: Setup, cells: dict[tuple[str, str], Cell], from_uri: str
) -> str:
    rows = (
        (html.escape(m.name), [cells[(m.id, c.key)] for c in TP_COMBOS])
        for m in fit.catalog.values()
    )
    name = f"{setup.count}x {fit.gpus[setup.gpu].name}"
    return _concurrency_page(name, setup.id, rows, from_uri, TP_COMBOS)


def _concurrency_page(
    name: str,
    gpu_id: str,
    rows: Iterable[tuple[str, list[Cell]]],
    from_uri: str,
    combos: tuple[Combo, ...],
) -> str:
    """How many sequences of CONTEXTS[1] and CONTEXTS[2] tokens fit at once on a GPU or a
    multi-GPU setup (`gpu_id`), per model (`rows`: its name as HTML, its cells)."""
    title = f"{name}: max concurrency per model"
    back = _href(from_uri, gpu_uri(gpu_id), f"{name}: max context per model")
    return (
        "\n".join(
            [
                _meta(title, f"How many requests of each length run at once on {name}, per model."),
                f"# {escape(title)}",
                "",
                f"Sequences of {CONTEXTS[1]:,} and of {CONTEXTS[2]:,} tokens that fit at once, the "
                "two figures in one cell; n/a where the model's context is shorter or the "
                "setting cannot run the model. The settings, the commands that print the same "
                f"figures and how far off they can be are on {back}.",
                "",
                _settings_table("Model", rows, (1, 2), combos=combos),
            ]
        )
        + "\n"
    )


def _setup_links(gpu: Gpu, from_uri: str) -> list[str]:
    mine = [s for s in SETUPS if s.gpu == gpu.id]
    if not mine:
        return []
    links = ", ".join(_href(from_uri, gpu_uri(s.id), f"{s.count}x") for s in mine)
    return ["", f"Several of these in one machine, with tensor parallelism: {links}."]


def setup_page(
    fit: FitData, setup: Setup, cells: dict[tuple[str, str], Cell], from_uri: str
) -> str:
    """A multi-GPU machine: per-GPU figures of the tensor-parallel settings, per model."""
    gpu = fit.gpus[setup.gpu]
    names = [(m.id, m.name) for m in fit.catalog.values()]

    def row(model_id: str) -> list[Cell]:
        return [cells[(model_id, c.key)] for c in TP_COMBOS]

    def weights(model_id: str) -> str:
        c = cells[(model_id, TP_COMBOS[0].key)]
        return "n/a" if c.error or c.weights_bytes is None else gib(c.weights_bytes)

    title = f"{setup.count}x {gpu.name} (tensor parallel {setup.count}): max context per model"
    out = [
        _meta(title, f"Which models fit on {setup.count} {gpu.name} GPUs with tensor parallelism."),
        f"# {escape(title)}",
        "",
        f"{escape(setup.why[:1].upper() + setup.why[1:])}: {setup.count} x **{gpu.memory_mib:,} MiB** "
        f"(one {_href(from_uri, gpu_uri(gpu.id), escape(gpu.name))} each). vLLM and SGLang "
        f"split every layer over the {setup.count} GPUs (`--tensor-parallel-size "
        f"{setup.count}`, `--tp {setup.count}`): each GPU holds 1/{setup.count} of the "
        "weights and of the KV heads (a model with fewer KV heads than GPUs repeats them), "
        "and each sizes its own KV cache from its own memory. The figures below are per GPU, "
        "as the engines print them on each worker (`Model loading took`, `Available KV "
        "cache memory`). A model whose attention heads do not divide by "
        f"{setup.count} cannot run this way at all. llama.cpp splits whole layers over "
        "GPUs instead (`--split-mode layer`), which these tables do not compute.",
        "",
        stamp(fit),
        "",
        "The settings compared, one column each (add `--model ID` to the command):",
        "",
        combo_legend(TP_COMBOS, " ".join(setup.calc_args())),
        "",
        "## Max context per sequence { #max-context }",
        "",
        f"Beside each model, the BF16 weights each GPU loads ({TP_COMBOS[0].key}).",
        "",
        _html_table(
            ["Model", "Weights per GPU", *[c.key for c in TP_COMBOS]],
            (
                [
                    _href(from_uri, model_uri(m), n),
                    weights(m),
                    *[fmt_tokens(c.max_context) for c in row(m)],
                ]
                for m, n in names
            ),
            merge_after=1,
        ),
        *_concurrency_link(setup.id, from_uri),
    ]
    return "\n".join(out) + "\n"


def _at(values: tuple[Any, ...], i: int) -> Any:
    return values[i] if i < len(values) else None


def _settings_table(
    label: str,
    rows: Iterable[tuple[str, list[Cell]]],
    contexts: tuple[int, ...] = (),
    combos: tuple[Combo, ...] = COMBOS,
) -> str:
    """One row per (first cell, cells in COMBOS order): max context, or the concurrency at
    each of CONTEXTS[i] for i in `contexts`, joined by a slash."""

    def value(c: Cell) -> str:
        if not contexts:
            return fmt_tokens(c.max_context)
        return " / ".join(fmt_conc(_at(c.concurrency, i)) for i in contexts)

    return _html_table(
        [label, *[c.key for c in combos]],
        ([first, *map(value, cells)] for first, cells in rows),
        merge_after=1,
    )


def quick_check(arch: ModelArch, bytes_per_token: int | None) -> str:
    """The seed's 2 x layers x KV heads x head dim x bytes, for this model's attention kind."""
    layers = paged_layers(arch)
    if not layers or bytes_per_token is None:
        return "This model keeps no per-token KV cache in the layers the calculator models."
    if arch.mla is not None:
        latent = arch.mla.kv_lora_rank + arch.mla.qk_rope_head_dim
        product = len(layers) * latent * 2
        text = (
            f"MLA stores one latent per token and layer: {len(layers)} layers x "
            f"({arch.mla.kv_lora_rank} + {arch.mla.qk_rope_head_dim}) x 2 bytes"
        )
    else:
        product = sum(layer.k_elems + layer.v_elems for layer in layers) * 2
        text = (
            f"2 (K and V) x {len(layers)} layers x {arch.n_kv_heads} KV heads x "
            f"{arch.head_dim} head dim x 2 bytes"
        )
        if arch.v_head_dim != arch.head_dim:
            text = f"{len(layers)} layers x {arch.n_kv_heads} KV heads x ({arch.head_dim} + {arch.v_head_dim}) x 2 bytes"
    if product != bytes_per_token:
        return f"The calculator reports {bytes_per_token:,} bytes per token at BF16/FP16."
    out = f"{text} = **{product:,} bytes per token** = {product * 1024 / (1 << 20):,.0f} MiB per 1K tokens (BF16/FP16)."
    if arch.n_sliding_layers:
        out += (
            f" {arch.n_sliding_layers} of these {len(layers)} layers use a sliding window of "
            f"{arch.sliding_window} tokens; engines that size those layers by their window "
            "need less than this at long context (see the tables)."
        )
    if arch.n_linear_layers:
        out += f" {arch.n_linear_layers} more layers are linear-attention layers with a fixed state per sequence instead."
    return out


def model_page(fit: FitData, arch: ModelArch, from_uri: str) -> str:
    gpus = fit.gpus
    names = [(g.id, g.name) for g in gpus.values()]

    def row(gpu_id: str) -> list[Cell]:
        return [fit.cell(gpu_id, arch.id, c.key) for c in COMBOS]

    any_cell = fit.cell(next(iter(gpus)), arch.id, COMBOS[0].key)
    title = f"{arch.name}: KV cache per token and max context per GPU"
    llama_layers = llamacpp_layers(arch)
    out = [
        _meta(title, f"KV cache size of {arch.name} and the context that fits on common GPUs."),
        f"# {escape(title)}",
        "",
        f"Architecture from {escape(arch.source or arch.hf_repo)}"
        + (f" (Hugging Face `{arch.hf_repo}`)" if arch.hf_repo else "")
        + ".",
        "",
        "## KV cache per token { #kv-per-token }",
        "",
        quick_check(arch, any_cell.kv_bytes_per_token),
        "",
        f"llama.cpp stores {sum(x.k_elems for x in llama_layers):,} K and "
        f"{sum(x.v_elems for x in llama_layers):,} V elements per token over all layers; "
        "q8_0 takes 34 bytes per 32 elements and q4_0 18 bytes per 32.",
        "",
        stamp(fit),
        "",
        "The settings compared, one column each (add `--gpu ID` to the command, the id in "
        "the GPU page's address):",
        "",
        combo_legend(COMBOS, f"--model {arch.id}"),
        "",
        "## Max context per sequence, by GPU { #max-context }",
        "",
        f"![{escape(arch.name)}: longest context by GPU, per setting (the table below has the "
        f"numbers)]({rel(from_uri, chart_uri('models', arch.id))}){{ loading=lazy }}",
        "",
        _settings_table("GPU", ((_href(from_uri, gpu_uri(g), n), row(g)) for g, n in names)),
        "",
        f"## Max concurrency at {CONTEXTS[1]:,} tokens {{ #concurrency }}",
        "",
        _settings_table("GPU", ((html.escape(n), row(g)) for g, n in names), (1,)),
        "",
        "Weights per GPU: "
        + "; ".join(
            f"{c.weights} {gib(fit.cell(next(iter(gpus)), arch.id, c.key).weights_bytes)}"
            for c in {c.weights: c for c in COMBOS}.values()
        )
        + ".",
    ]
    return "\n".join(out) + "\n"


def gpus_index(fit: FitData, from_uri: str) -> str:
    gpus = sorted(fit.gpus.values(), key=lambda g: g.memory_mib)
    vendor = {g.id: g.name.split()[0] for g in gpus}  # every catalog name starts with its maker
    rows = (
        [
            f"[{escape(g.name)}]({rel(from_uri, gpu_uri(g.id))})",
            escape(vendor[g.id]),
            f"{g.memory_mib:,} MiB",
        ]
        for g in gpus
    )
    vendors = sorted(set(vendor.values()))
    return (
        front_matter(
            {"title": "GPUs", "description": "What fits on each GPU.", "scripts": ["home"]}
        )
        + "# GPUs\n\nEach page lists, for every catalog model, the longest context that fits "
        "and how many sequences run at once, per engine and KV cache type. See also the "
        f"[sizing guide]({rel(from_uri, SIZING)}).\n\n"
        + _filters(
            _select(1, "Any maker", ((v, v) for v in vendors), "equals"),
            _select(2, "Any memory", _MEMORY_BANDS, "range"),
        )
        + _table(["GPU", "Maker", "Memory (nvidia-smi)"], rows)
        + "\n## Several GPUs in one machine { #multi-gpu }\n\n"
        + "vLLM and SGLang with tensor parallelism, figures per GPU:\n\n"
        + "\n".join(
            f"- [{s.count}x {escape(fit.gpus[s.gpu].name)}]({rel(from_uri, gpu_uri(s.id))}): "
            f"{s.count * fit.gpus[s.gpu].memory_mib:,} MiB in all"
            for s in SETUPS
        )
        + "\n"
    )


def models_index(fit: FitData, from_uri: str) -> str:
    first_gpu = next(iter(fit.gpus))
    rows = (
        [
            f"[{escape(m.name)}]({rel(from_uri, model_uri(m.id))})",
            f"{m.checkpoint_params / 1e9:.1f}B",
            escape(m.model_type),
            f"{(fit.cell(first_gpu, m.id, COMBOS[0].key).kv_bytes_per_token or 0):,}",
        ]
        for m in fit.catalog.values()
    )
    return (
        front_matter(
            {
                "title": "Models",
                "description": "KV cache and max context per model.",
                "scripts": ["home"],
            }
        )
        + "# Models\n\nKV cache per token at BF16/FP16 as vLLM stores it, and a page per model "
        "with its max context on every catalog GPU.\n\n"
        + _filters(_select(1, "Any size", _PARAM_BANDS, "range"))
        + _table(["Model", "Parameters", "Architecture", "KV bytes per token"], rows)
        + "\n"
    )


def sizing_guide(fit: FitData, from_uri: str) -> str:
    """The smallest catalog GPU on which each model runs one 8K-token sequence."""
    gpus = sorted(fit.gpus.values(), key=lambda g: g.memory_mib)
    shown = [combo("vllm-bf16"), combo("vllm-awq"), combo("llamacpp-q4k")]
    context_index = CONTEXTS.index(8192)

    def smallest(model_id: str, c: Combo) -> str:
        for g in gpus:
            if _at(fit.cell(g.id, model_id, c.key).fits, context_index):
                return f"{_href(from_uri, gpu_uri(g.id), g.name)} ({g.memory_mib:,} MiB)"
        return "none in the catalog (needs several GPUs)"

    models = sorted(fit.catalog.values(), key=lambda m: m.checkpoint_params)
    rows = (
        [html.escape(m.name), f"{m.checkpoint_params / 1e9:.1f}B"]
        + [smallest(m.id, c) for c in shown]
        for m in models
    )
    return (
        _meta("GPU sizing guide", "The smallest GPU each model fits on at an 8K context.")
        + "# GPU sizing guide\n\n"
        "The smallest single GPU in the catalog on which each model serves one sequence of "
        "8,192 tokens, per engine and weights format. Computed from the same grid as the GPU "
        "and model pages, not typed.\n\n"
        + stamp(fit)
        + "\n\n"
        + _html_table(["Model", "Parameters", *[html.escape(c.label) for c in shown]], rows)
        + "\n"
    )


def fit_table(fit: FitData, models: Iterable[str], engines: Iterable[str], from_uri: str) -> str:
    """The table an error page asks for: max context of common models on common GPUs."""
    gpus, catalog = fit.gpus, fit.catalog
    combos = [c for e in dict.fromkeys(engines) for c in [x for x in COMBOS if x.engine == e][:2]]
    if not combos:
        return ""
    header = [
        "Model",
        "Setting",
        *[html.escape(gpus[g].name.replace("NVIDIA ", "")) for g in TABLE_GPUS],
    ]
    # An HTML grid like the GPU pages': equal neighbours share a cell, and the end tags HTML
    # infers are left out (a Markdown table made this section 5.6 KB of an entry page).
    rows = (
        [
            _href(from_uri, model_uri(m), catalog[m].name),
            c.key,
            *(html.escape(fmt_tokens(fit.cell(g, m, c.key).max_context)) for g in TABLE_GPUS),
        ]
        for m in models
        for c in combos
    )
    commands = "; ".join(
        f"`{c.key}` ({escape(c.label)}): "
        + code_span(fill_command(launch_command(c), model="<model>", context="N"))
        for c in combos
    )
    return (
        _html_table(header, rows, merge_after=2, group_first=True)
        + f"\n\nN is the cell's value. {commands}. "
        + f"[Check another GPU or model]({rel(from_uri, WILL_IT_RUN)})."
    )
