"""What every engine profile takes and returns."""

from __future__ import annotations

from dataclasses import dataclass, field

GiB = 1 << 30
MiB = 1 << 20


def parse_release(version: str | None) -> tuple[int, int, int] | None:
    """(major, minor, patch) of a release such as ``0.5.7``, ``v0.10.1.1``, ``0.5.10.post1``
    or ``0.9.0-rc1`` (a missing patch is 0); None when it does not start with two numbers."""
    parts = (version or "").strip().lower().lstrip("v").split("-")[0].split(".")
    nums: list[int] = []
    for part in parts[:3]:
        digits = "".join(ch for ch in part if ch.isdigit()) if part[:1].isdigit() else ""
        if not digits:
            break
        nums.append(int(digits))
    if len(nums) < 2:
        return None
    return (nums[0], nums[1], nums[2] if len(nums) > 2 else 0)


class SettingError(ValueError):
    """An impossible or contradictory setting (bad dtype, TP that does not divide ...)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Engine-independent request; each profile reads the fields it understands."""

    engine: str = "llama.cpp"
    context: int = 4096  # tokens per sequence (n_ctx per slot / max_model_len)
    seqs: int = 1  # parallel sequences (llama.cpp -np, OLLAMA_NUM_PARALLEL, concurrency)
    tp: int = 1
    weights: str = "bf16"
    weights_bytes: int | None = None  # measured/printed weights per GPU, overrides format
    kv_dtype: str = "auto"  # vLLM / SGLang --kv-cache-dtype
    cache_type_k: str = "f16"  # llama.cpp / Ollama
    cache_type_v: str = "f16"
    flash_attn: bool | None = None  # llama.cpp -fa; Ollama OLLAMA_FLASH_ATTENTION
    version: str | None = None
    n_ubatch: int = 512
    swa_full: bool = False
    kv_unified: bool | None = None
    vram_bytes: int | None = None  # usable device memory per GPU (CUDA-reported total)
    gpu_memory_utilization: float | None = None
    mem_fraction_static: float | None = None
    block_size: int = 16
    max_num_batched_tokens: int | None = None
    max_num_seqs: int | None = None
    available_kv_bytes: int | None = None  # vLLM/SGLang: printed KV memory, overrides budget
    activation_bytes: int | None = None  # vLLM: printed activation peak, overrides heuristic
    non_torch_bytes: int | None = None  # vLLM: printed non-torch memory, overrides heuristic
    gpu_name: str | None = None  # vLLM picks its scheduler defaults by device name and size
    entrypoint: str = "serve"  # vLLM: "serve" (OpenAI server) or "llm" (the LLM class)
    # vLLM's top-k/top-p sampler at the profile run: "flashinfer" where FlashInfer is
    # installed and used (the vLLM Docker image before 0.11.1, which the calibration logs
    # ran), "native" PyTorch otherwise; "auto" picks by release (vllm.sampler_of).
    sampler: str = "auto"
    cpu_offload_bytes: int = 0  # vLLM --cpu-offload-gb, per GPU
    enforce_eager: bool = False  # vLLM --enforce-eager: no CUDA graphs
    device_mib: int | None = None  # nvidia-smi memory.total (SGLang sizes its defaults by it)
    nvml_memory: bool = True  # NVML reports the device's memory (False: GB10's unified memory)
    n_batch: int = 2048  # llama.cpp -b/--batch-size
    n_gpu_layers: int | None = None  # llama.cpp -ngl (None: all layers on the GPU)
    # SGLang --chunked-prefill-size (-1: off) and --cuda-graph-max-bs; None: the device's default
    chunked_prefill_size: int | None = None
    cuda_graph_max_bs: int | None = None
    # vLLM --language-model-only (0.17+; --limit-mm-per-prompt with every modality at 0 before):
    # a multimodal checkpoint's vision tower is neither built nor profiled.
    language_model_only: bool = False


@dataclass(slots=True)
class EngineResult:
    engine_version: str
    kv_bytes: int
    k_bytes: int
    v_bytes: int
    kv_bytes_per_token: int
    state_bytes: int = 0  # recurrent state of linear layers (all sequences)
    weights_bytes: int = 0
    overhead_bytes: int = 0  # compute buffers / activations / non-torch / graphs
    kv_budget_bytes: int | None = None
    kv_cache_tokens: int | None = None  # paged pool capacity (vLLM/SGLang)
    # "Maximum concurrency" where the engine does not compute it as pool tokens / context
    # (vLLM's hybrid KV cache manager counts sliding-window layers by their window).
    max_concurrency: float | None = None
    kv_cache_blocks: int | None = None  # vLLM num_gpu_blocks (pool blocks, all groups)
    cells: int | None = None  # llama.cpp KV cells of the full-attention cache
    cells_swa: int | None = None  # llama.cpp KV cells of the SWA cache
    kv_dtype: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def total_bytes(self) -> int:
        return self.weights_bytes + self.kv_bytes + self.state_bytes + self.overhead_bytes
