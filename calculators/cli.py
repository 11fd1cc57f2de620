"""``errkb calc``: KV cache, weights and fit for a model on an engine and GPU.

Registered by errkb as ``errkb calc``. Errors print one line on stderr and exit 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import IO, Any

import click

from calculators.dtypes import LLAMA_CPP_CACHE_TYPES, PAGED_KV_DTYPES
from calculators.engines import ENGINES, SettingError
from calculators.engines.base import GiB
from calculators.estimate import Estimate, estimate
from calculators.gpus import get_gpu, gpu_settings, load_gpus
from calculators.models import ConfigError, ModelArch, arch_from_config, get_model


class OneLineError(click.UsageError):
    """A usage error shown as a single ``error: ...`` line on stderr (exit code 2)."""

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"error: {self.format_message()}", file=file or sys.stderr, err=True)


class OneLineCommand(click.Command):
    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except OneLineError:
            raise
        except click.UsageError as exc:
            raise OneLineError(exc.format_message()) from None


def _load_arch(model: str | None, config: Path | None) -> ModelArch:
    if (model is None) == (config is None):
        raise OneLineError("give exactly one of --model ID or --config PATH")
    if model is not None:
        try:
            return get_model(model)
        except KeyError:
            raise OneLineError(
                f"unknown model {model!r}; see the catalog ids or pass --config"
            ) from None
    assert config is not None
    try:
        data = json.loads(config.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise OneLineError(f"cannot read {config}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise OneLineError(f"{config} is not valid JSON: {exc.msg} (line {exc.lineno})") from None
    try:
        return arch_from_config(data, model_id=config.stem)
    except ConfigError as exc:
        raise OneLineError(f"bad config {config}: {exc}") from None


def _index_total(path: Path) -> int:
    """``metadata.total_size`` of a safetensors index: the checkpoint's tensor bytes."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise OneLineError(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise OneLineError(f"{path} is not valid JSON: {exc.msg} (line {exc.lineno})") from None
    total = data.get("metadata", {}).get("total_size") if isinstance(data, dict) else None
    if not isinstance(total, int) or isinstance(total, bool) or total <= 0:
        raise OneLineError(f"{path}: no positive integer metadata.total_size")
    return total


def _human(e: Estimate) -> str:
    def gib(x: int | None) -> str:
        return "n/a" if x is None else f"{x / GiB:.2f} GiB"

    rows = [
        ("model", e.model),
        ("engine", e.engine_version),
        ("context x seqs", f"{e.context} x {e.seqs}"),
        ("KV dtype", e.kv_dtype),
        ("KV per token", f"{e.kv_bytes_per_token:,} B"),
        ("KV (K / V)", f"{gib(e.kv_bytes)} ({gib(e.k_bytes)} / {gib(e.v_bytes)})"),
        ("weights", gib(e.weights_bytes)),
        ("overhead", gib(e.overhead_bytes)),
        ("total", gib(e.total_bytes)),
        ("memory", gib(e.vram_bytes)),
        ("KV budget", gib(e.kv_budget_bytes)),
        ("KV pool tokens", "n/a" if e.kv_cache_tokens is None else f"{e.kv_cache_tokens:,}"),
        ("max context", "n/a" if e.max_context is None else f"{e.max_context:,}"),
        ("max concurrency", "n/a" if e.max_concurrency is None else f"{e.max_concurrency:.2f}"),
        ("fits", "unknown (give --gpu or --vram-gib)" if e.fits is None else str(e.fits)),
    ]
    out = "\n".join(f"{k:>16}: {v}" for k, v in rows)
    for note in e.notes:
        out += f"\n            note: {note}"
    return out


@click.command("calc", cls=OneLineCommand)
@click.option("--model", "model", help="Catalog model id (or its Hugging Face repo).")
@click.option(
    "--config",
    "config",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Path to a Hugging Face config.json.",
)
@click.option(
    "--engine", type=click.Choice(sorted(ENGINES)), default="llama.cpp", show_default=True
)
@click.option(
    "--engine-version",
    "engine_version",
    default=None,
    help="Engine version/era to model (llama.cpp: 2024, 2025-04, 2025-05, b5913, "
    "2025-10; vLLM: v0, v1 or a release such as 0.10.1, whose hybrid KV "
    "cache manager sizes sliding-window layers by their window; "
    "Ollama: e.g. 0.11.4, the default).",
)
@click.option(
    "--context",
    type=click.IntRange(min=1),
    default=4096,
    show_default=True,
    help="Tokens per sequence (n_ctx per slot, max_model_len).",
)
@click.option(
    "--seqs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Parallel sequences (-np, OLLAMA_NUM_PARALLEL).",
)
@click.option(
    "--cache-type-k",
    type=click.Choice(LLAMA_CPP_CACHE_TYPES),
    default="f16",
    show_default=True,
    help="llama.cpp/Ollama K cache type.",
)
@click.option(
    "--cache-type-v",
    type=click.Choice(LLAMA_CPP_CACHE_TYPES),
    default="f16",
    show_default=True,
    help="llama.cpp/Ollama V cache type.",
)
@click.option(
    "--kv-cache-dtype",
    type=click.Choice(sorted(PAGED_KV_DTYPES)),
    default="auto",
    show_default=True,
    help="vLLM/SGLang KV cache dtype.",
)
@click.option(
    "--flash-attn/--no-flash-attn",
    "flash_attn",
    default=None,
    help="llama.cpp -fa / OLLAMA_FLASH_ATTENTION.",
)
@click.option(
    "--weights",
    default="bf16",
    show_default=True,
    help="Weights format: bf16, fp16, fp8, awq, gptq, bnb-nf4, mxfp4, gguf-q4_k ...",
)
@click.option("--gpu", "gpu", default=None, help="GPU catalog id (e.g. h100-80gb, rtx-4090).")
@click.option(
    "--vram-gib",
    "vram_gib",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Usable GPU memory in GiB instead of --gpu.",
)
@click.option(
    "--gpu-memory-utilization",
    type=click.FloatRange(0, 1, min_open=True),
    default=None,
    help="vLLM --gpu-memory-utilization.",
)
@click.option(
    "--mem-fraction-static",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=None,
    help="SGLang --mem-fraction-static.",
)
@click.option(
    "--tp",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Tensor parallel size (vLLM/SGLang).",
)
@click.option(
    "--weights-gib",
    type=click.FloatRange(min=0),
    default=None,
    help="Weights per GPU in GiB as a log printed them (vLLM 'Model loading took', "
    "llama.cpp 'model buffer size'); overrides --weights.",
)
@click.option(
    "--safetensors-index",
    "safetensors_index",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="The checkpoint's model.safetensors.index.json: weights are its "
    "metadata.total_size split over --tp (exact bytes, as the checkpoint is).",
)
@click.option(
    "--max-num-seqs", type=click.IntRange(min=1), default=None, help="vLLM --max-num-seqs."
)
@click.option(
    "--max-num-batched-tokens",
    type=click.IntRange(min=1),
    default=None,
    help="vLLM --max-num-batched-tokens.",
)
@click.option(
    "--block-size",
    type=click.IntRange(min=1),
    default=16,
    show_default=True,
    help="vLLM --block-size.",
)
@click.option("--enforce-eager", is_flag=True, help="vLLM --enforce-eager (no CUDA graphs).")
@click.option(
    "--cpu-offload-gb",
    type=click.FloatRange(min=0),
    default=0.0,
    show_default=True,
    help="vLLM --cpu-offload-gb: weights per GPU kept in CPU memory.",
)
@click.option(
    "--entrypoint",
    type=click.Choice(["serve", "llm"]),
    default="serve",
    show_default=True,
    help="vLLM: 'vllm serve' or the LLM class (they get different scheduler defaults).",
)
@click.option(
    "--sampler",
    type=click.Choice(["auto", "native", "flashinfer", "triton", "none"]),
    default="auto",
    show_default=True,
    help="vLLM top-k/top-p sampler at the profile run. auto follows the release: FlashInfer "
    "before 0.11.1 (as installed in the vLLM Docker image), native PyTorch (38 bytes per "
    "logit) from 0.11.1, the Triton kernel from 0.17, none (Model Runner V2's profile, dense "
    "models from 0.25). Give native for a plain pip install of an older release.",
)
@click.option(
    "--ubatch-size",
    type=click.IntRange(min=1),
    default=512,
    show_default=True,
    help="llama.cpp -ub/--ubatch-size.",
)
@click.option(
    "--batch-size",
    type=click.IntRange(min=1),
    default=2048,
    show_default=True,
    help="llama.cpp -b/--batch-size.",
)
@click.option(
    "--kv-unified/--no-kv-unified",
    "kv_unified",
    default=None,
    help="llama.cpp --kv-unified (default: the release's own choice).",
)
@click.option("--swa-full", is_flag=True, help="llama.cpp --swa-full (full-size SWA cache).")
@click.option(
    "--n-gpu-layers",
    type=click.IntRange(min=0),
    default=None,
    help="llama.cpp -ngl (default: every layer on the GPU).",
)
@click.option(
    "--chunked-prefill-size",
    type=click.IntRange(min=-1),
    default=None,
    help="SGLang --chunked-prefill-size (-1: off); from 0.5.3 it sets the default "
    "--mem-fraction-static.",
)
@click.option(
    "--cuda-graph-max-bs",
    type=click.IntRange(min=0),
    default=None,
    help="SGLang --cuda-graph-max-bs; from 0.5.3 it sets the default --mem-fraction-static.",
)
@click.option(
    "--language-model-only",
    is_flag=True,
    help="vLLM --language-model-only (0.17 and later; before, --limit-mm-per-prompt with "
    "every modality at 0): a multimodal model's vision tower is neither loaded nor profiled.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def calc(
    model: str | None,
    config: Path | None,
    engine: str,
    engine_version: str | None,
    context: int,
    seqs: int,
    cache_type_k: str,
    cache_type_v: str,
    kv_cache_dtype: str,
    flash_attn: bool | None,
    weights: str,
    gpu: str | None,
    vram_gib: float | None,
    gpu_memory_utilization: float | None,
    mem_fraction_static: float | None,
    tp: int,
    weights_gib: float | None,
    safetensors_index: Path | None,
    max_num_seqs: int | None,
    max_num_batched_tokens: int | None,
    block_size: int,
    enforce_eager: bool,
    cpu_offload_gb: float,
    entrypoint: str,
    sampler: str,
    ubatch_size: int,
    batch_size: int,
    kv_unified: bool | None,
    swa_full: bool,
    n_gpu_layers: int | None,
    chunked_prefill_size: int | None,
    cuda_graph_max_bs: int | None,
    language_model_only: bool,
    as_json: bool,
) -> None:
    """KV cache, weights and fit of a model on an engine and GPU."""
    arch = _load_arch(model, config)
    weights_bytes = None if weights_gib is None else int(weights_gib * GiB)
    if safetensors_index is not None:
        if weights_bytes is not None:
            raise OneLineError("give --weights-gib or --safetensors-index, not both")
        weights_bytes = _index_total(safetensors_index) // tp
    if gpu is not None and vram_gib is not None:
        raise OneLineError("give --gpu or --vram-gib, not both")
    vram: int | None = None
    from_gpu: dict[str, Any] = {}
    if gpu is not None:
        try:
            g = get_gpu(gpu)
        except KeyError:
            raise OneLineError(
                f"unknown GPU {gpu!r}; one of {', '.join(sorted(load_gpus()))}"
            ) from None
        from_gpu = gpu_settings(g)
        vram = from_gpu.pop("vram_bytes")
    elif vram_gib is not None:
        vram = int(vram_gib * GiB)
    try:
        est = estimate(
            arch,
            engine=engine,
            context=context,
            seqs=seqs,
            vram_bytes=vram,
            version=engine_version,
            cache_type_k=cache_type_k,
            cache_type_v=cache_type_v,
            kv_dtype=kv_cache_dtype,
            flash_attn=flash_attn,
            weights=weights,
            tp=tp,
            gpu_memory_utilization=gpu_memory_utilization,
            mem_fraction_static=mem_fraction_static,
            weights_bytes=weights_bytes,
            max_num_seqs=max_num_seqs,
            max_num_batched_tokens=max_num_batched_tokens,
            block_size=block_size,
            enforce_eager=enforce_eager,
            cpu_offload_bytes=int(cpu_offload_gb * GiB),
            entrypoint=entrypoint,
            sampler=sampler,
            n_ubatch=ubatch_size,
            n_batch=batch_size,
            kv_unified=kv_unified,
            swa_full=swa_full,
            n_gpu_layers=n_gpu_layers,
            chunked_prefill_size=chunked_prefill_size,
            cuda_graph_max_bs=cuda_graph_max_bs,
            language_model_only=language_model_only,
            **from_gpu,
        )
    except (SettingError, ValueError) as exc:
        raise OneLineError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(est.to_dict(), sort_keys=True))
    else:
        click.echo(_human(est))
