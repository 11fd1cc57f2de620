"""calculators: errkb's shared KV-memory core.

Public API (stable; the site build calls these):

* ``load_catalog() -> dict[str, ModelArch]``: the cited model catalog
  (``data/models.yaml``); ``get_model(id)`` looks one up (id or Hugging Face repo).
* ``arch_from_config(config: dict) -> ModelArch``: parse a Hugging Face ``config.json``
  (nested ``text_config`` included). Raises ``ConfigError`` (``ValueError``).
* ``load_gpus() -> dict[str, Gpu]``: the cited GPU catalog (``data/gpus.yaml``);
  ``get_gpu(id)``.
* ``estimate(arch, engine=..., context=..., seqs=..., gpu=... | vram_bytes=...,
  kv_dtype=..., cache_type_k=..., cache_type_v=..., weights=..., tp=...,
  gpu_memory_utilization=..., mem_fraction_static=..., flash_attn=..., version=...)
  -> Estimate``: every figure ``errkb calc --json`` prints (``Estimate.to_dict()``).
  Raises ``SettingError`` (``ValueError``) for impossible settings.
* ``max_context(arch, **settings)`` and ``max_concurrency(arch, **settings)``: solvers.
* ``weights_bytes(arch, fmt, tp)``: resident weights per GPU for a format.

Engines: ``"llama.cpp"``, ``"ollama"``, ``"vllm"``, ``"sglang"``; each profile names the
version whose rules it models (``Estimate.engine_version``).
"""

from calculators.engines.base import SettingError, Settings
from calculators.estimate import Estimate, estimate, max_concurrency, max_context
from calculators.gpus import Gpu, get_gpu, load_gpus
from calculators.models import ConfigError, ModelArch, arch_from_config, get_model, load_catalog
from calculators.weights import WEIGHT_FORMATS, weights_bytes

__all__ = [
    "WEIGHT_FORMATS",
    "ConfigError",
    "Estimate",
    "Gpu",
    "ModelArch",
    "SettingError",
    "Settings",
    "arch_from_config",
    "estimate",
    "get_gpu",
    "get_model",
    "load_catalog",
    "load_gpus",
    "max_concurrency",
    "max_context",
    "weights_bytes",
]
