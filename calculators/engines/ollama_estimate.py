"""Ollama's own memory estimate: what decides how many layers it puts on the GPU.

Ollama 0.3 to 0.11 does not ask llama.cpp what a model needs. Before it starts the runner it
estimates the memory itself (``llm/memory.go`` ``EstimateGPULayers``, with the graph sizes of
``GraphSize`` in ``llm/ggml.go``, from 0.6 ``fs/ggml/ggml.go``), offloads as many layers as
that estimate fits into the GPU's *free* memory, and logs the result in one line::

    msg="offload to cuda" layers.model=33 layers.offload=33 ... memory.required.full="5.6 GiB"
    memory.required.kv="1.0 GiB" memory.weights.total="4.1 GiB" memory.graph.full="560.0 MiB"

So whether every layer is on the GPU (and the model runs at GPU speed) follows this estimate,
not llama.cpp's buffers. Read from the source at v0.3.6, v0.5.7 and v0.11.4 (the same
arithmetic for the architectures below, except that llama's full graph gains its vocabulary
term in 0.3.10):

* context = ``num_ctx x OLLAMA_NUM_PARALLEL`` (the runner's ``--ctx-size``), batch =
  ``min(context, num_batch)`` (512 unless set);
* KV per layer = context x (key_length + value_length) x head_count_kv x bytes per element
  (f16 2, q8_0 1, q4_0 0.5; a quantised type only with flash attention);
* each layer: its tensors' bytes in the GGUF file plus its KV; one more ``blk.0`` "as a
  buffer"; the output layer: ``output_norm`` plus ``output`` (``token_embd`` when tied);
* the graph: a per-architecture formula (llama and mistral, qwen2, gemma and gemma2 here;
  others fall back to ``GQA x KV / 6``), full when every layer is offloaded, partial otherwise;
* a minimum of 457 MiB per CUDA or ROCm GPU (512 MiB on Metal), plus ``OLLAMA_GPU_OVERHEAD``.

Every layer is offloaded only if the GPU's free memory exceeds the minimum, the layers, the
output layer and the larger of the two graphs; ``memory.required.full`` prints the same sum with
the full graph. "Free" is what the driver reports when the model loads: the card's total less
what the display and other processes hold, which no config can know.
"""

from __future__ import annotations

from dataclasses import dataclass

from calculators.engines.base import parse_release
from calculators.gguf import stored_tensors
from calculators.models import ModelArch

MiB = 1 << 20
MINIMUM_MEMORY = {"cuda": 457 * MiB, "rocm": 457 * MiB, "metal": 512 * MiB}
KV_BYTES = {"f16": 2.0, "q8_0": 1.0, "q4_0": 0.5}
FIRST, LAST = (0, 3, 0), (0, 11, 99)  # releases whose llm/memory.go this follows
# Before 0.3.10 llama's full-offload graph has no output (vocabulary) term.
LLAMA_VOCAB_GRAPH = (0, 3, 10)
# From 0.6.1 (commit 033cec23) memory.weights.total leaves the KV out and counts the output layer.
WEIGHTS_WITHOUT_KV = (0, 6, 1)
DEFAULT_BATCH = 512

# The GGUF architecture llama.cpp's converter writes for a config's model_type.
GGUF_ARCH = {"mistral": "llama", "mixtral": "llama"}


@dataclass(frozen=True, slots=True)
class OllamaEstimate:
    context: int  # the runner's --ctx-size
    batch: int
    kv_bytes: int
    layer_bytes: tuple[int, ...]  # each repeating layer's weights (KV not included)
    output_bytes: int
    graph_full: int
    graph_partial: int
    minimum: int
    overhead: int
    release: tuple[int, int, int] = LAST

    @property
    def weights_total(self) -> int:
        """``memory.weights.total`` as the release logs it: up to 0.6.0 the layers with their
        KV, from 0.6.1 the layers and the output layer."""
        if self.release >= WEIGHTS_WITHOUT_KV:
            return sum(self.layer_bytes) + self.output_bytes
        return sum(self.layer_bytes) + self.kv_bytes

    @property
    def required_full(self) -> int:
        """``memory.required.full`` for one GPU that takes every layer."""
        n = len(self.layer_bytes)
        kv_layer = self.kv_bytes // n
        return (
            self.minimum
            + self.layer_bytes[0]
            + kv_layer
            + sum(self.layer_bytes)
            + self.kv_bytes
            + self.output_bytes
            + self.graph_full
        )

    @property
    def free_needed(self) -> int:
        """Free GPU memory above which Ollama puts every layer on the GPU: each layer is placed
        only while the free memory exceeds what is placed so far plus the larger graph."""
        placed = self.required_full - self.graph_full
        return self.overhead + placed + max(self.graph_full, self.graph_partial)


def release_of(version: str) -> tuple[int, int, int]:
    """(major, minor, patch) of an Ollama version such as ``v0.9.0-rc1``; ValueError if none."""
    parsed = parse_release(version)
    if parsed is None:
        raise ValueError(f"unknown Ollama version {version!r}")
    return parsed


def covers(version: str) -> bool:
    """Whether `version` sizes its offload with the estimate modelled here."""
    try:
        return FIRST <= release_of(version) <= LAST
    except ValueError:
        return False


def _layer_and_output_bytes(arch: ModelArch, file_type: str) -> tuple[tuple[int, ...], int]:
    per_layer = [0] * arch.n_layers
    output = 0
    output_norm = 0
    embd = 0
    for t, size in stored_tensors(arch, file_type):
        if t.layer >= 0:
            per_layer[t.layer] += size
        elif t.kind == "output":
            output = size
        elif t.kind == "token_embd":
            embd = size
        elif t.kind == "norm" and not output_norm:
            output_norm = size
    return tuple(per_layer), output_norm + (output if output else embd)


def _graph(
    arch: ModelArch, context: int, batch: int, kv_total: int, release: tuple[int, int, int]
) -> tuple[int, int]:
    """(full, partial) graph bytes, as ``GraphSize`` computes them."""
    embd, heads, heads_kv = arch.hidden_size, arch.n_heads, arch.n_kv_heads
    vocab = arch.vocab_size
    head_k = arch.head_dim
    embd_heads = embd // heads
    family = GGUF_ARCH.get(arch.model_type, arch.model_type)
    if family == "llama":
        full = 4 * batch * (1 + 4 * embd + context * (1 + heads))
        if release >= LLAMA_VOCAB_GRAPH:
            full = max(full, 4 * batch * (embd + vocab))
        partial = 4 * batch * embd + max(
            4 * batch * (1 + embd + max(context, embd))
            + embd * embd * 9 // 16
            + 4 * context * (batch * heads + embd_heads * heads_kv),
            4 * batch * (embd + vocab) + embd * vocab * 105 // 128,
        )
        return full, partial
    if family == "qwen2":
        full = max(
            4 * batch * (embd + vocab), 4 * batch * (1 + 2 * embd + context + context * heads)
        )
        partial = max(
            4 * batch * (embd + vocab) + embd * vocab * 105 // 128,
            4 * (batch * (1 + 2 * embd + context * (1 + heads)) + embd * (1 + context)),
        )
        return full, partial
    if family in ("gemma", "gemma2"):
        full = max(
            4 * batch * (embd + vocab),
            4 * batch * (2 + context + context * heads + 2 * embd + 2 * head_k * heads),
        )
        partial = max(
            4 * embd * batch + embd * vocab * 105 // 128 + 4 * vocab * batch,
            4 * batch * (2 * embd + 1 + 2 * head_k * heads + context + context * heads)
            + 4 * head_k * context * 8
            + embd * head_k * heads * 9 // 16,
        )
        return full, partial
    partial = heads // max(heads_kv, 1) * kv_total // 6
    return partial, partial


def ollama_estimate(
    arch: ModelArch,
    file_type: str,
    *,
    num_ctx: int,
    parallel: int = 1,
    num_batch: int = DEFAULT_BATCH,
    kv_cache_type: str = "f16",
    library: str = "cuda",
    gpu_overhead: int = 0,
    version: str = "0.11.4",
) -> OllamaEstimate:
    """Ollama's estimate for a dense model in GGUF `file_type` (Q4_K_M, Q4_0, Q8_0, F16 ...)."""
    if arch.moe is not None or arch.mla is not None or arch.n_linear_layers:
        raise ValueError(f"{arch.id}: Ollama's estimate is modelled for dense models only")
    context = num_ctx * parallel
    batch = min(context, num_batch)
    per_elem = KV_BYTES.get(kv_cache_type.lower(), 2.0)
    kv_layer = int(context * 2 * arch.head_dim * arch.n_kv_heads * per_elem)
    kv_total = kv_layer * arch.n_layers
    layers, output = _layer_and_output_bytes(arch, file_type)
    release = release_of(version)
    full, partial = _graph(arch, context, batch, kv_total, release)
    if library == "metal":
        partial = full  # "on metal there's no partial offload overhead"
    return OllamaEstimate(
        context=context,
        batch=batch,
        kv_bytes=kv_total,
        layer_bytes=layers,
        output_bytes=output,
        graph_full=full,
        graph_partial=partial,
        minimum=MINIMUM_MEMORY[library],
        overhead=gpu_overhead,
        release=release,
    )
