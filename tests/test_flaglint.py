"""Command linting: invented or too-new flags and environment variables are reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from errkb.checks.flaglint import env_names, lint_command, load_flags, python_kwargs, shell_flags
from errkb.entries.schema import Command
from tests.conftest import MakeRepo

DATA = load_flags(Path(__file__).parent / "fixtures" / "flags")


def lint(engine: str, versions: str, code: str, lang: str = "bash") -> list[str]:
    return lint_command(
        Command(engine=engine, versions=versions, code=code, lang=lang),  # type: ignore[arg-type]
        DATA,
    )


def test_the_seed_pages_invented_names_are_caught() -> None:
    # The page we studied: VLLM_MAX_BATCH_SIZE and max_seq_len= exist in no vLLM version.
    [env] = lint("vllm", ">=0.6.0", "VLLM_MAX_BATCH_SIZE=8 vllm serve m --max-model-len 4096")
    assert env == (
        "environment variable `VLLM_MAX_BATCH_SIZE` does not exist in vllm 0.6.6, 0.8.5 "
        "(no version has it)"
    )
    [kwarg] = lint(
        "vllm", ">=0.6.0", 'from vllm import LLM\nLLM(model="m", max_seq_len=4096)', "python"
    )
    assert kwarg.startswith("`max_seq_len` is not a vllm keyword argument in 0.6.6, 0.8.5")
    [flag] = lint("vllm", "*", "vllm serve m --max-seq-len 4096")
    assert flag.startswith("`--max-seq-len` is not a vllm option in 0.3.3, 0.6.6, 0.8.5")


def test_a_flag_newer_than_the_range_is_caught_with_where_it_exists() -> None:
    [msg] = lint(
        "vllm", ">=0.3.0", "python -m vllm.entrypoints.openai.api_server --kv-cache-dtype fp8"
    )
    assert msg == (
        "`--kv-cache-dtype` is not a vllm option in 0.3.3, which this command's versions "
        "'>=0.3.0' include (it exists in 0.6.6, 0.8.5)"
    )
    assert lint("vllm", ">=0.6.0", "vllm serve m --kv-cache-dtype fp8") == []


def test_env_checked_per_version_for_its_own_engine() -> None:
    assert lint("vllm", ">=0.8.0", "VLLM_USE_V1=0 vllm serve m") == []
    [msg] = lint("vllm", ">=0.6.0", "export VLLM_USE_V1=0")
    assert "does not exist in vllm 0.6.6 (it exists in 0.8.5)" in msg
    # Another engine's variable only has to exist in some version of that engine.
    assert lint("llama.cpp", "*", "VLLM_USE_V1=1 true") == []


def test_only_the_engines_own_programs_are_read() -> None:
    docker = (
        "docker run --gpus all --shm-size 1g -p 8000:8000 vllm/vllm-openai:v0.6.6 \\\n"
        "  --model m --max-model-len 8192 --tensor-parallel-size 2 && curl -s --fail localhost"
    )
    assert shell_flags("vllm", docker) == ["--model", "--max-model-len", "--tensor-parallel-size"]
    assert lint("vllm", ">=0.6.0", docker) == []
    assert shell_flags(
        "llama.cpp",
        "cmake -B build -DGGML_CUDA=ON && ./build/bin/llama-server -m x.gguf -ngl 99 -fa",
    ) == [
        "-m",
        "-ngl",
        "-fa",
    ]
    assert env_names("cmake -B build -DGGML_CUDA=ON") == []  # a CMake option, not a variable


@pytest.mark.parametrize(
    ("versions", "expected"),
    [
        (">=4000,<4500", ["-ctk"]),  # no snapshot inside: the newest before it (b3000) decides
        (">=4700", []),
    ],
)
def test_narrow_ranges_use_the_nearest_older_snapshot(versions: str, expected: list[str]) -> None:
    found = lint("llama.cpp", versions, "llama-server -m x.gguf -ctk q8_0")
    assert [m.split("`")[1] for m in found] == expected


def test_python_kwargs_reads_calls_only() -> None:
    code = "from vllm import LLM, SamplingParams\nllm = LLM(model='m', **extra)\nSamplingParams(max_tokens=8)"
    assert python_kwargs("vllm", code) == ["model"]
    assert python_kwargs("vllm", "this is ( not python") == []


def test_real_data_refuses_the_seed_pages_inventions() -> None:
    real = load_flags()
    # Missing data fails: a skip here would let the lint go blind for vLLM unnoticed.
    assert "vllm" in real, "errkb/data/flags/vllm.yaml is missing or names another engine"
    cmd = Command(
        engine="vllm",
        versions=">=0.6.0",
        code="VLLM_MAX_BATCH_SIZE=8 vllm serve m --max-seq-len 4096 --max-model-len 4096",
    )
    found = lint_command(cmd, real)
    assert [m.split("`")[1] for m in found] == ["--max-seq-len", "VLLM_MAX_BATCH_SIZE"]
    py = Command(
        engine="vllm", versions=">=0.6.0", lang="python", code="LLM(model='m', max_seq_len=1)"
    )
    assert [m.split("`")[1] for m in lint_command(py, real)] == ["max_seq_len"]


def test_check_reports_a_bad_flag_at_its_line(make_repo: MakeRepo) -> None:
    from tests.test_check import run_check

    repo = make_repo()
    path = repo / "errors" / "E0001.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace(
            "--gpu-memory-utilization 0.95", "--gpu-memory-utilization 0.95 --max-seq-len 8192"
        ),
        encoding="utf-8",
    )
    code, lines = run_check(repo)
    assert code == 1
    assert len(lines) == 1 and lines[0].startswith(
        "errors/E0001.yaml:32:15: solutions[0].commands[0].code: `--max-seq-len` is not a vllm option in"
    ), lines


def test_vllm_spellings_its_parser_accepts() -> None:
    code = "vllm serve m --max_model_len 4096 --gpu-memory-utilization.x 1 -O3"
    assert lint("vllm", ">=0.6.0", code) == []
