"""Weight bytes by storage format.

Parameter counts come from the architecture (every MoE expert counted, since every
expert is resident). Bytes per parameter by format:

* ``bf16`` / ``fp16``: 2; ``fp32``: 4; ``fp8`` / ``int8`` (w8a8): 1 plus negligible scales.
* ``awq`` / ``gptq`` (int4, group 128): 4 bits + one fp16 scale and one 4-bit zero per
  128 weights = 4.15625 bits on the quantised linear layers; embeddings and the LM head
  stay fp16.
* ``bnb-nf4``: 4 bits + double-quantised absmax (8 bits per 64, fp32 per 256 blocks) =
  4.127 bits on linear layers; ``bnb-int8``: 8 bits + one fp32 scale per row.
* ``mxfp4``: 4.25 bits (32 fp4 values + an e8m0 scale) on MoE experts, bf16 elsewhere
  (how gpt-oss ships).
* GGUF ggml types (``q4_k``, ``q8_0``, ``iq4_xs`` ...): exact block sizes from ggml's
  type traits, applied to every linear weight; token embeddings use the same type.
* GGUF mixed *file* types (``gguf-q4_k_m``, ``gguf-q5_k_m``, ``gguf-q3_k_m``) of dense
  models: every tensor in the type llama-quantize gives it (``calculators.gguf``), exact to
  the byte on llama.cpp's own CI logs.

These are the language model's bytes. A multimodal checkpoint's vision tower is
``vision_bytes``, which the engines that load it (vLLM, SGLang) add: 16-bit whatever the text
weights' format (quantised VL checkpoints leave the tower unconverted), and nothing for a GGUF,
which holds the text model only (the tower is the separate ``mmproj`` file).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from calculators.dtypes import GGML_TYPES
from calculators.gguf import MIXED_FILE_TYPES, file_bytes, file_type_of
from calculators.models import ModelArch, param_breakdown

# Bits per parameter on quantised linear layers, and what unquantised tensors keep.
_FORMAT_BITS: dict[str, Fraction] = {
    "fp32": Fraction(32),
    "bf16": Fraction(16),
    "fp16": Fraction(16),
    "fp8": Fraction(8),
    "int8": Fraction(8),
    "w8a8": Fraction(8),
    "awq": Fraction(4) + Fraction(16, 128) + Fraction(4, 128),
    "gptq": Fraction(4) + Fraction(16, 128) + Fraction(4, 128),
    "gptq-int8": Fraction(8) + Fraction(16, 128) + Fraction(8, 128),
    "bnb-nf4": Fraction(4) + Fraction(8, 64) + Fraction(32, 64 * 256),
    "bnb-int8": Fraction(8),
}

WEIGHT_FORMATS: tuple[str, ...] = (
    *_FORMAT_BITS,
    "mxfp4",
    *(f"gguf-{t}" for t in GGML_TYPES),
    *(f"gguf-{t.lower()}" for t in MIXED_FILE_TYPES),
)


@lru_cache(maxsize=8192)
def weights_bytes(arch: ModelArch, fmt: str = "bf16", tp: int = 1) -> int:
    """Resident weight bytes per GPU for ``fmt`` (split evenly over ``tp`` GPUs)."""
    if tp < 1:
        raise ValueError("tensor parallel size must be >= 1")
    f = fmt.strip().lower()
    if f in ("auto", "model"):
        f = "fp32" if (arch.torch_dtype or "").endswith("float32") else "bf16"
    if f.startswith("gguf-"):
        f = f[5:]
    file_type = file_type_of(f, arch)
    if file_type is not None:  # each tensor in the type llama-quantize gives it
        return file_bytes(arch, file_type) // tp
    p = param_breakdown(arch)
    if f in GGML_TYPES:
        t = GGML_TYPES[f]
        total = p.total * t.bytes_per_element
    elif f == "mxfp4":
        total = Fraction(p.experts) * Fraction(17, 32) + (p.total - p.experts) * 2
    elif f in _FORMAT_BITS:
        bits = _FORMAT_BITS[f]
        if f in ("fp32", "bf16", "fp16"):
            total = p.total * bits / 8
        else:
            # Quantisers leave embeddings and the LM head in 16 bits.
            total = p.linear * bits / 8 + (p.embedding + p.lm_head) * 2
    else:
        raise ValueError(f"unknown weights format {fmt!r}; one of: {', '.join(WEIGHT_FORMATS)}")
    return int(total) // tp


def model_width(arch: ModelArch) -> int:
    """Bytes per element of the model's own dtype (its unquantised tensors and buffers)."""
    return 4 if (arch.torch_dtype or "").endswith("float32") else 2


def vision_bytes(arch: ModelArch, fmt: str = "bf16", tp: int = 1) -> int:
    """The vision tower's bytes on one of ``tp`` GPUs: 0 for a text-only model or a GGUF."""
    v = arch.vision
    f = fmt.strip().lower()
    if v is None or not (f in _FORMAT_BITS or f in ("auto", "model", "mxfp4")):
        return 0
    return (v.sharded // tp + v.replicated) * model_width(arch)
