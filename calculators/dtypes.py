"""Element sizes of KV-cache and weight storage types.

Block-quantised ggml types store ``block_size`` elements in ``type_size`` bytes
(ggml ``type_traits``): q8_0 is 32 int8 values plus one fp16 scale, 34 bytes per
32 elements. Sizes are kept as exact fractions so byte counts stay integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class StorageType:
    """A storage type: ``type_size`` bytes hold ``block_size`` elements."""

    name: str
    block_size: int
    type_size: int

    @property
    def bytes_per_element(self) -> Fraction:
        return Fraction(self.type_size, self.block_size)

    @property
    def bits_per_weight(self) -> float:
        return float(self.bytes_per_element * 8)

    def row_bytes(self, n_elements: int) -> int:
        """Bytes of a row of ``n_elements`` (ggml_row_size); rows must fill whole blocks."""
        if n_elements % self.block_size:
            raise ValueError(
                f"{self.name} stores blocks of {self.block_size} elements; "
                f"a row of {n_elements} does not divide"
            )
        return n_elements // self.block_size * self.type_size


def _t(name: str, block: int, size: int) -> StorageType:
    return StorageType(name, block, size)


# ggml types (ggml/src/ggml.c type_traits: blck_size, type_size).
GGML_TYPES: dict[str, StorageType] = {
    t.name: t
    for t in (
        _t("f32", 1, 4),
        _t("f16", 1, 2),
        _t("bf16", 1, 2),
        _t("q8_0", 32, 34),
        _t("q4_0", 32, 18),
        _t("q4_1", 32, 20),
        _t("q5_0", 32, 22),
        _t("q5_1", 32, 24),
        _t("iq4_nl", 32, 18),
        _t("mxfp4", 32, 17),
        _t("q2_k", 256, 84),
        _t("q3_k", 256, 110),
        _t("q4_k", 256, 144),
        _t("q5_k", 256, 176),
        _t("q6_k", 256, 210),
        _t("q8_k", 256, 292),
        _t("iq1_s", 256, 50),
        _t("iq1_m", 256, 56),
        _t("iq2_xxs", 256, 66),
        _t("iq2_xs", 256, 74),
        _t("iq2_s", 256, 82),
        _t("iq3_xxs", 256, 98),
        _t("iq3_s", 256, 110),
        _t("iq4_xs", 256, 136),
        _t("tq1_0", 256, 54),
        _t("tq2_0", 256, 66),
    )
}

# Cache types llama.cpp accepts for --cache-type-k / --cache-type-v (common/arg.cpp).
LLAMA_CPP_CACHE_TYPES: tuple[str, ...] = (
    "f32",
    "f16",
    "bf16",
    "q8_0",
    "q4_0",
    "q4_1",
    "iq4_nl",
    "q5_0",
    "q5_1",
)

# vLLM --kv-cache-dtype / SGLang --kv-cache-dtype values and their element bytes.
# "auto" means the model dtype and is resolved by the caller.
PAGED_KV_DTYPES: dict[str, int] = {
    "auto": 0,
    "float32": 4,
    "fp32": 4,
    "float16": 2,
    "fp16": 2,
    "bfloat16": 2,
    "bf16": 2,
    "fp8": 1,
    "fp8_e4m3": 1,
    "fp8_e5m2": 1,
    "fp8_inc": 1,
    "fp8_ds_mla": 1,
}


def ggml_type(name: str) -> StorageType:
    key = name.strip().lower()
    try:
        return GGML_TYPES[key]
    except KeyError:
        raise ValueError(f"unknown ggml type {name!r}") from None


def torch_dtype_bytes(dtype: str | None) -> int:
    """Bytes per element of a Hugging Face ``torch_dtype`` (defaults to 2, bf16/fp16)."""
    if dtype is None:
        return 2
    d = dtype.lower().replace("torch.", "")
    if d in ("float32", "fp32"):
        return 4
    return 2
