"""Time the GPU x model x weights x KV dtype x engine grid the site build computes."""

from __future__ import annotations

import contextlib
import time

from calculators import estimate, load_catalog, load_gpus


def main() -> None:
    models = list(load_catalog().values())
    gpus = list(load_gpus().values())
    n = 0
    t0 = time.perf_counter()
    for m in models:
        for g in gpus:
            for weights in ("bf16", "gguf-q4_k"):
                for engine, kv in (("llama.cpp", {"cache_type_k": "f16"}),
                                   ("llama.cpp", {"cache_type_k": "q8_0",
                                                  "cache_type_v": "q8_0",
                                                  "flash_attn": True}),
                                   ("ollama", {}), ("vllm", {"kv_dtype": "auto"}),
                                   ("vllm", {"kv_dtype": "fp8"}), ("sglang", {})):
                    with contextlib.suppress(ValueError):
                        estimate(m, engine=engine, context=8192, gpu=g, weights=weights, **kv)
                    n += 1
    dt = time.perf_counter() - t0
    print(f"{n} estimates in {dt:.3f} s ({dt / n * 1e6:.0f} us each)")


if __name__ == "__main__":
    main()
