"""Weights as vLLM holds them after loading ("Model loading took X GiB"), for MXFP4 MoE
checkpoints, whose kernels repack and pad the experts.

Read from vLLM's source (``model_executor/layers/quantization/mxfp4.py`` and the Marlin,
``triton_kernels`` and FlashInfer TRT-LLM MoE paths of 0.10.1, 0.11.0, 0.14.1 and 0.19.0). Per MoE
layer and expert, with ``H`` the hidden size and ``I`` the expert width on one GPU:

* Marlin (A100, consumer cards, and Hopper up to 0.11): ``H`` padded to a multiple of 256,
  ``I`` to 128; 4.25 bits a weight (fp4 and one e8m0 scale per 32) for the three matrices,
  BF16 biases.
* ``triton_kernels`` (Hopper, bundled from 0.12): ``I`` padded to 64, the swizzled layout's
  own padding (to 16 and 32 before 0.17, to 64 from 0.17), both the original and the
  swizzled scales kept, FP32 biases.
* FlashInfer TRT-LLM (Blackwell data-centre GPUs): both padded to 256, FP32 biases.

Everything else stays BF16, split over the tensor-parallel GPUs. These reproduce the
printed weights of gpt-oss-20b on an A100 (13.72 GiB), gpt-oss-120b on an H100 under 0.10.1
(65.97 GiB) and 0.14.1 (64.38 GiB) and on four A100s (17.22 GiB) within 0.4% (the rotary
cache, the attention sinks and the allocator's 2 MiB rounding are left out); unpadded bytes
per parameter, as a checkpoint stores them, were 12 to 25% low.
"""

from __future__ import annotations

from calculators.models import ModelArch, param_breakdown
from calculators.weights import model_width, vision_bytes, weights_bytes

# Hopper's default MXFP4 MoE backend by release (a pip install, no environment variables):
# Marlin up to 0.11 (unless triton_kernels is installed separately), the triton_kernels copy
# bundled from 0.12, whose swizzled layout pads the weights to 64 from 0.17.
TRITON_HOPPER_FROM = (0, 12)
TRITON_PADDED_FROM = (0, 17)
_HOPPER = ("h100", "h200", "h20", "gh200", "h800")
_BLACKWELL_DC = ("b200", "b300", "gb200", "gb300")


def _up(x: int, m: int) -> int:
    return -(-x // m) * m


def mxfp4_backend(gpu_name: str | None, release: tuple[int, int] | None) -> str:
    name = (gpu_name or "").lower()
    if any(k in name for k in _BLACKWELL_DC):
        return "trtllm"
    if any(k in name for k in _HOPPER) and release is not None and release >= TRITON_HOPPER_FROM:
        return "triton" if release >= TRITON_PADDED_FROM else "triton-unpadded"
    return "marlin"


def _expert_bytes(backend: str, hidden: int, inter: int) -> int:
    """One expert of one layer: w13 (gate and up), w2, their scales and biases."""
    h = hidden
    if backend == "marlin":
        hp, ip = _up(h, 256), _up(inter, 128)
        return 3 * ip * hp * 17 // 32 + (2 * ip + hp) * 2
    if backend == "triton-unpadded":  # 0.12 to 0.16: the swizzle pads to 16 and 32 only
        ip = _up(inter, 64)
        w13 = _up(2 * ip, 16) * _up(h // 2, 32) + _up(2 * ip, 256) * _up(h // 32, 2)
        w13 += 2 * ip * (h // 32)  # the unswizzled scales stay allocated
        w2 = _up(h, 16) * _up(ip // 2, 32) + _up(h, 256) * _up(ip // 32, 2) + h * (ip // 32)
        return w13 + w2 + (2 * ip + h) * 4
    if backend == "triton":
        ip = _up(inter, 64)
        w13 = _up(h // 2, 64) * _up(2 * ip, 64) + _up(2 * ip, 256) * _up(h // 32, 2)
        w13 += 2 * ip * (h // 32)  # the unswizzled scales stay allocated
        w2 = _up(ip // 2, 64) * _up(h, 64) + _up(h, 256) * _up(ip // 32, 2) + h * (ip // 32)
        return w13 + w2 + (2 * ip + h) * 4
    hp, ip = _up(h, 256), _up(inter, 256)
    return 3 * ip * hp * 17 // 32 + (2 * ip + hp) * 4 + 12


def vllm_weights_bytes(
    arch: ModelArch,
    fmt: str,
    tp: int,
    gpu_name: str | None = None,
    release: tuple[int, int] | None = None,
    language_model_only: bool = False,
) -> int:
    """Bytes of weights per GPU after vLLM loads them; other formats as the checkpoint is.

    With a multimodal checkpoint's vision tower, and the M-RoPE table of Qwen-VL models, which
    loading allocates and "Model loading took" counts: 4 x max_position_embeddings rows (0.25
    GiB for Qwen3-VL's 262,144 positions). `language_model_only`: no tower is built (the text
    model's M-RoPE table stays)."""
    extra = 0 if language_model_only else vision_bytes(arch, fmt, tp)
    if arch.vision is not None:
        extra += arch.vision.rope_cache_elems * model_width(arch)
    moe = arch.moe
    if fmt.strip().lower() != "mxfp4" or moe is None:
        return weights_bytes(arch, fmt, tp) + extra
    p = param_breakdown(arch)
    rest = (p.total - p.experts) * 2 // tp
    n_moe = arch.n_layers - min(moe.dense_layers, arch.n_layers)
    backend = mxfp4_backend(gpu_name, release)
    per_expert = _expert_bytes(backend, arch.hidden_size, moe.expert_intermediate // tp)
    return rest + n_moe * moe.n_experts * per_expert + extra
