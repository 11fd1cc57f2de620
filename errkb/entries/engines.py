"""Every engine an entry can name, in one registry: the schema, the flag lint and the flag
extractor all read it, so adding an engine is one `EngineSpec` line (plus, for the fit tables,
a launch command in errkb/site/fitdata.py and an engine profile in calculators/)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EngineSpec:
    id: str  # as written in YAML
    # Shown on tabs and indexes; identical on every page so Material's linked tabs remember
    # the reader's choice.
    label: str
    repo: str | None = None  # GitHub repository scripts/extract_flags.py reads flags from
    env_prefixes: tuple[str, ...] = ()  # environment variables it owns, for the flag lint
    python_calls: tuple[str, ...] = ()  # constructors whose keyword arguments are its options
    # Its oldest release an entry may name. Libraries with no key of their own were once filed
    # under the engine the user ran, and their 0.x releases then read as that engine's
    # ("Transformers >=0.6.0" was PEFT 0.6.0); a range below the floor is refused.
    floor: str | None = None


REGISTRY: tuple[EngineSpec, ...] = (
    EngineSpec(
        "vllm",
        "vLLM",
        "vllm-project/vllm",
        ("VLLM_",),
        ("LLM", "EngineArgs", "AsyncEngineArgs"),
    ),
    EngineSpec("sglang", "SGLang", "sgl-project/sglang", ("SGLANG_", "SGL_"), ("Engine",)),
    EngineSpec("llama.cpp", "llama.cpp", "ggml-org/llama.cpp", ("LLAMA_ARG_", "GGML_")),
    EngineSpec("ollama", "Ollama", "ollama/ollama", ("OLLAMA_",)),
    EngineSpec("tgi", "TGI", "huggingface/text-generation-inference"),
    EngineSpec("tei", "TEI"),
    EngineSpec("pytorch", "PyTorch"),
    EngineSpec("nccl", "NCCL", "NVIDIA/nccl", ("NCCL_",)),
    # 2.0.0 is the first release under the name transformers (pytorch-transformers before).
    EngineSpec("transformers", "Transformers", floor="2.0.0"),
    EngineSpec("cuda", "CUDA / driver"),
    EngineSpec("rocm", "ROCm / HIP"),
    EngineSpec("mlx", "MLX"),
    EngineSpec("llama-cpp-python", "llama-cpp-python"),
    EngineSpec("lm-studio", "LM Studio"),
    EngineSpec("jan", "Jan"),
    EngineSpec("gpt4all", "GPT4All"),
    EngineSpec("text-generation-webui", "text-generation-webui"),
    EngineSpec("tensorrt-llm", "TensorRT-LLM"),
    EngineSpec("lmdeploy", "LMDeploy"),
    EngineSpec("exllamav2", "ExLlamaV2"),
    EngineSpec("ktransformers", "KTransformers"),
    EngineSpec("ipex-llm", "IPEX-LLM"),
    EngineSpec("bitsandbytes", "bitsandbytes"),
    # Training libraries, each versioned by its own releases.
    EngineSpec("peft", "PEFT"),
    EngineSpec("accelerate", "Accelerate"),
    EngineSpec("trl", "TRL"),
    EngineSpec("deepspeed", "DeepSpeed"),
    EngineSpec("unsloth", "Unsloth"),
    EngineSpec("axolotl", "Axolotl"),
    # Quantization tools run before serving, each versioned by its own releases.
    EngineSpec("llm-compressor", "LLM Compressor"),
    EngineSpec("autoawq", "AutoAWQ"),
    EngineSpec("auto-gptq", "AutoGPTQ"),
    EngineSpec("gptqmodel", "GPTQModel"),
    # Hugging Face's exporter (ONNX, OpenVINO), versioned by its own releases.
    EngineSpec("optimum", "Optimum"),
    EngineSpec("docker", "Docker"),
    # Deployment layers around the engines, for their own messages and releases.
    EngineSpec("kubernetes", "Kubernetes"),
    EngineSpec("gpu-operator", "NVIDIA GPU Operator"),
    EngineSpec("triton", "Triton Inference Server"),
    EngineSpec("localai", "LocalAI"),
    EngineSpec("mlc-llm", "MLC LLM"),
    # A client library, not an engine: its own errors against local OpenAI-compatible servers.
    EngineSpec("llama-index", "LlamaIndex"),
)

BY_ID: dict[str, EngineSpec] = {e.id: e for e in REGISTRY}
ENGINES: dict[str, str] = {e.id: e.label for e in REGISTRY}
