"""GPU catalog: the memory the driver reports, each figure with its source."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from calculators.datafiles import read_data

MiB = 1 << 20
GiB = 1 << 30


@dataclass(frozen=True, slots=True)
class Gpu:
    id: str
    name: str
    memory_mib: int  # total as nvidia-smi / the driver prints it
    source: str
    cuda_total_gib: float | None = None  # torch/cudaMemGetInfo total as vLLM logs it
    cuda_source: str = ""
    # NVML gives the device's memory total (nvidia-smi's memory.total); not on GB10, whose
    # memory is the host's: nvidia-smi prints [N/A] there (vLLM then takes its small defaults).
    nvml_memory: bool = True

    @property
    def vram_bytes(self) -> int:
        """Usable total: the CUDA-reported total when sourced, else the driver total."""
        if self.cuda_total_gib is not None:
            return int(self.cuda_total_gib * GiB)
        return self.memory_mib * MiB


@cache
def load_gpus() -> dict[str, Gpu]:
    out: dict[str, Gpu] = {}
    for g in read_data("gpus.yaml")["gpus"]:
        gid = str(g["id"])
        if gid in out:
            raise ValueError(f"duplicate GPU id {gid}")
        out[gid] = Gpu(
            id=gid,
            name=str(g["name"]),
            memory_mib=int(g["memory_mib"]),
            source=str(g["source"]),
            cuda_total_gib=float(g["cuda_total_gib"]) if g.get("cuda_total_gib") else None,
            cuda_source=str(g.get("cuda_source", "")),
            nvml_memory=bool(g.get("nvml_memory", True)),
        )
    return out


def gpu_settings(g: Gpu) -> dict[str, Any]:
    """The `Settings` fields a catalog GPU sets, the same for `errkb calc`, the grid and
    `estimate(gpu=...)`."""
    return {
        "vram_bytes": g.vram_bytes,
        "gpu_name": g.name,
        "device_mib": g.memory_mib,
        "nvml_memory": g.nvml_memory,
    }


def get_gpu(gpu_id: str) -> Gpu:
    gpus = load_gpus()
    key = gpu_id.strip().lower()
    for g in gpus.values():
        if g.id.lower() == key:
            return g
    raise KeyError(gpu_id)
