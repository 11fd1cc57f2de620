"""Provoke errors the KB covers on a real GPU and record what PyTorch, Triton, NCCL and
Transformers print, with the GPU's memory as CUDA and nvidia-smi report it.

Run on a machine with one NVIDIA GPU: `python3 scripts/device_capture.py OUT.json [CASE...]`. Each
case runs in its own interpreter, so a sticky CUDA error in one cannot leak into the next.
The JSON holds, per case, the command's exit status and the tail of its output; the captures
that land in tests/fixtures/logs/ are copied from it unedited. No network is needed: the
Transformers cases read a local config.json and run with the Hub offline.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap

MEMORY = """
import subprocess, torch
def smi():
    return subprocess.run(["nvidia-smi", "--query-gpu=name,memory.total,memory.used,driver_version",
                           "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
print("nvidia-smi before CUDA:", smi())
free, total = torch.cuda.mem_get_info()
print(f"torch {torch.__version__} cuda {torch.version.cuda} nccl {torch.cuda.nccl.version()}")
print(f"after context: free {free} total {total} ({total / 2**30:.2f} GiB) "
      f"props.total_memory {torch.cuda.get_device_properties(0).total_memory}")
print("nvidia-smi after context:", smi())
x = torch.ones(1, device="cuda")
free1, _ = torch.cuda.mem_get_info()
print(f"after first tensor: free {free1} reserved {torch.cuda.memory_reserved()}")
a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
b = a @ a
torch.cuda.synchronize()
free2, _ = torch.cuda.mem_get_info()
print(f"after bf16 matmul: free {free2} reserved {torch.cuda.memory_reserved()} "
      f"allocated {torch.cuda.memory_allocated()}")
print(f"non-torch after matmul: {(total - free2 - torch.cuda.memory_reserved()) / 2**20:.1f} MiB")
print("nvidia-smi after matmul:", smi())
"""

NCCL_DUP = """
import os, torch, torch.distributed as dist, torch.multiprocessing as mp
def run(rank):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29533")
    torch.cuda.set_device(0)
    dist.init_process_group("nccl", rank=rank, world_size=2)
    t = torch.ones(1, device="cuda")
    dist.all_reduce(t)
    torch.cuda.synchronize()
    dist.destroy_process_group()
if __name__ == "__main__":
    mp.spawn(run, nprocs=2)
"""

TRITON_SMEM = """
import torch, triton, triton.language as tl
@triton.jit
def k(a, b, c, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    r = tl.arange(0, BM)[:, None] * BK + tl.arange(0, BK)[None, :]
    s = tl.arange(0, BK)[:, None] * BN + tl.arange(0, BN)[None, :]
    acc = tl.dot(tl.load(a + r), tl.load(b + s))
    tl.store(c + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], acc)
a = torch.randn(512, 512, device="cuda", dtype=torch.float16)
c = torch.empty(512, 512, device="cuda", dtype=torch.float32)
k[(1,)](a, a, c, BM=512, BN=512, BK=512)
torch.cuda.synchronize()
"""

ILLEGAL = """
import torch, triton, triton.language as tl
@triton.jit
def k(x, n):
    i = tl.arange(0, 128)
    tl.store(x + i + n, tl.load(x + i))
x = torch.zeros(128, device="cuda")
k[(1,)](x, 1 << 40)
torch.cuda.synchronize()
"""

MISALIGNED = """
import torch, cupy
k = cupy.RawKernel(r'''
extern "C" __global__ void k(char* p) { *(long long*)(p + 1) = 7; }
''', "k")
x = torch.zeros(64, dtype=torch.uint8, device="cuda")
k((1,), (1,), (x.data_ptr(),))
torch.cuda.synchronize()
"""

FORK = """
import multiprocessing as mp, torch
torch.zeros(1, device="cuda")
def child():
    torch.zeros(1, device="cuda")
if __name__ == "__main__":
    p = mp.get_context("fork").Process(target=child)
    p.start(); p.join()
    print("child exit code", p.exitcode)
"""

CASES: dict[str, tuple[str, dict[str, str]]] = {
    "memory": (MEMORY, {}),
    "oom_huge": (
        "import torch\ntorch.empty(200 * 2**30, dtype=torch.uint8, device='cuda')\n",
        {},
    ),
    "oom_filled": (
        "import torch\nkeep = [torch.empty(70 * 2**30, dtype=torch.uint8, device='cuda')]\n"
        "keep.append(torch.empty(12 * 2**30, dtype=torch.uint8, device='cuda'))\n",
        {},
    ),
    "oom_old_env": (
        "import torch\ntorch.empty(200 * 2**30, dtype=torch.uint8, device='cuda')\n",
        {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"},
    ),
    "oom_new_env": (
        "import torch\ntorch.empty(200 * 2**30, dtype=torch.uint8, device='cuda')\n",
        {"PYTORCH_ALLOC_CONF": "expandable_segments:True"},
    ),
    "assert_embedding": (
        "import torch\nw = torch.randn(10, 4, device='cuda')\n"
        "y = torch.nn.functional.embedding(torch.tensor([5000], device='cuda'), w)\n"
        "torch.cuda.synchronize()\n",
        {},
    ),
    "assert_embedding_blocking": (
        "import torch\nw = torch.randn(10, 4, device='cuda')\n"
        "y = torch.nn.functional.embedding(torch.tensor([5000], device='cuda'), w)\n"
        "torch.cuda.synchronize()\n",
        {"CUDA_LAUNCH_BLOCKING": "1"},
    ),
    "illegal_access": (ILLEGAL, {}),
    "misaligned": (MISALIGNED, {}),
    "fork": (FORK, {}),
    "bad_ordinal": ("import torch\ntorch.zeros(1, device='cuda:3')\n", {}),
    "no_visible": (
        "import torch\nprint(torch.cuda.is_available())\ntorch.zeros(1, device='cuda')\n",
        {"CUDA_VISIBLE_DEVICES": ""},
    ),
    "nccl_duplicate": (NCCL_DUP, {"NCCL_DEBUG": "WARN"}),
    "two_devices": (
        "import torch\ntorch.randn(2, 2, device='cuda') @ torch.randn(2, 2)\n",
        {},
    ),
    "multinomial_nan_cuda": (
        "import torch\np = torch.tensor([[float('nan'), 1.0]], device='cuda')\n"
        "print(torch.multinomial(p, 1))\ntorch.cuda.synchronize()\n",
        {},
    ),
    "multinomial_nan_cpu": (
        "import torch\nprint(torch.multinomial(torch.tensor([[float('nan'), 1.0]]), 1))\n",
        {},
    ),
    "cpu_half_matmul": (
        "import torch\na = torch.randn(4, 4, dtype=torch.half)\n"
        "print(torch.nn.functional.linear(a, a, a[0]))\nprint(torch.__version__)\n",
        {},
    ),
    "meta_copy": ("import torch\ntorch.empty(2, device='meta').to('cuda')\n", {}),
    "triton_smem": (TRITON_SMEM, {}),
    "hf_unknown_type": (
        "import sys, transformers\nprint(transformers.__version__)\n"
        "transformers.AutoConfig.from_pretrained(sys.argv[1])\n",
        {"HF_HUB_OFFLINE": "1"},
    ),
    "hf_offline": (
        "import transformers\ntransformers.AutoTokenizer.from_pretrained('Qwen/Qwen3-0.6B')\n",
        {"HF_HUB_OFFLINE": "1"},
    ),
    "hf_no_network": (
        "import transformers\ntransformers.AutoConfig.from_pretrained('Qwen/Qwen3-0.6B')\n",
        {"HF_HUB_ETAG_TIMEOUT": "5", "HF_HUB_DOWNLOAD_TIMEOUT": "5"},
    ),
}


def run_case(name: str, code: str, env: dict[str, str], workdir: str) -> dict[str, object]:
    # A file, not `-c`: Triton's JIT reads the kernel's source and spawn re-imports __main__.
    script = os.path.join(workdir, f"{name}.py")
    with open(script, "w", encoding="utf-8") as fh:
        fh.write(textwrap.dedent(code))
    argv = [sys.executable, script]
    if name == "hf_unknown_type":
        argv.append(workdir)
    try:
        done = subprocess.run(
            argv,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **env},
            capture_output=True,
            text=True,
            timeout=60,
            cwd=workdir,
        )
        rc, out = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as exc:
        rc, out = -1, f"timeout: {exc.stdout!r} {exc.stderr!r}"
    return {"env": env, "code": code, "rc": rc, "output": out[-8000:]}


def main() -> None:
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as workdir:
        with open(os.path.join(workdir, "config.json"), "w") as fh:
            json.dump({"model_type": "qwen9_moe", "architectures": ["Qwen9MoeForCausalLM"]}, fh)
        wanted = sys.argv[2:] or list(CASES)
        for name in wanted:
            code, env = CASES[name]
            results[name] = run_case(name, code, env, workdir)
            print(f"== {name}: rc {results[name]['rc']}", flush=True)  # type: ignore[index]
    with open(sys.argv[1], "w", encoding="utf-8") as fh:
        json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
