"""Normalisation: the rules that clean a line, and its tokens (Python and JavaScript alike).

The rules are regexes in the syntax both languages share, applied in order to every line;
replacements are literal text, so both read them the same way. `matcher.js` runs the same
rules from `matcher.json`.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import re
from collections.abc import Callable, Iterator

# (pattern, replacement): applied in order to every line. Replacements are literal text so that
# both languages read them the same way; patterns use the syntax Python and JavaScript share.
RULES: list[tuple[str, str]] = [
    # ANSI colours and cursor codes, also as a terminal or `cat -v` shows them ("^[[0;36m").
    (r"(\x1b|\^\[)\[[0-9;?]*[A-Za-z]", ""),
    # Markdown as people paste into issues: quote marks and code fences.
    (r"^\s*(>\s?)+", ""),
    (r"^\s*(```|~~~)[\w+-]*\s*$", ""),
    # syslog and journald, as `journalctl -u ollama` prints: "Jun 18 22:16:41 host ollama[1164]: "
    (r"^\s*[A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d \S+ [^\s:\[]+(\[\d+\])?: ", ""),
    # Docker Compose ("ollama  | ", "vllm-1 | ") and CI ("  | ") line prefixes.
    (r"^\s*([\w.-]+\s+)?\|\s", ""),
    # Go's log package, as Ollama up to 0.1.2x printed (LstdFlags | Lshortfile):
    # "2024/01/21 22:41:55 gpu.go:146: "
    (r"^\s*\d{4}/\d\d/\d\d \d\d:\d\d:\d\d(\.\d+)? ([\w.-]+\.go:\d+: )?", ""),
    # NCCL's C++ prefix: "host:1234:5678 [0] NCCL WARN ..."
    (r"^\s*[\w.-]+:\d+:\d+\s+\[\d+\]\s+", ""),
    # Ray workers and vLLM processes: "(RayWorkerVllm pid=123, ip=10.0.0.1) ", "(pid=7) "
    (r"^\s*\(([A-Za-z_]\w*\s+)?[a-z_]+=[^)]*\)\s*", ""),
    (r"^\s*\[rank\d+\]:\s*", ""),  # torchrun: "[rank0]: "
    # vLLM and most Python loggers: "(VllmWorker rank=0 pid=1) INFO 06-12 10:41:03 [engine.py:123] "
    (
        r"^\s*(\([A-Za-z_]+[^)]*\)\s*)?(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\s+\d\d-\d\d\s+[\d:.]+\s*(\[[^\]]*\]\s*)?",
        "",
    ),
    # Ollama/Go slog: time=... level=ERROR source=sched.go:123 msg="..."; without its time= too,
    # as wordings are stored and as journald or a trimmed paste shows it.
    (r"^\s*(time=\S+\s+)?level=\S+\s+(source=\S+\s+)?msg=", ""),
    # tqdm progress bars ("38%|██▊     | 3/8 [00:02<00:03,  1.28it/s]") vary in every paste.
    (r"\d+%\|[^|\n]*\|\s*[\d.]+[kMG]?/[\d.]+[kMG]?\s*\[[^\]\n]*\]", " progress "),
    (r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d([.,]\d+)?(Z|[+-]\d\d:?\d\d)?", " "),  # ISO timestamps
    (r"\b\d\d:\d\d:\d\d([.,]\d+)?\b", " "),  # bare clock times
    # TGI's launcher and router: "ERROR warmup{...}:warmup: text_generation_client: router/client/src/lib.rs:33: "
    (
        r"^\s*(ERROR|WARN|INFO|DEBUG)\s[^\n]*?text_generation_[a-z_]+(::[a-z_]+)*:\s*([\w/.-]+\.rs:\d+:\s*)?",
        "",
    ),
    # A quoted name ('Qwen2ForCausalLM', 'mllama') is the user's value, not the message's;
    # but the attribute or module an error names is the error ("no attribute 'Llama'" is not
    # "no attribute 'cadam32bit_grad_fp32'"), so those stay words, as does an error code
    # (rocBLAS's "hip error code: 'hipErrorInvalidImage'"), and the name a NameError reports;
    # the same contexts as matcher.NAMING, which makes such a name part of the error.
    (
        r"(?<!attribute )(?<!module named )(?<!import name )(?<!error code: )(?<!NameError: name )"
        r"'[A-Za-z_][\w.-]{0,80}'",
        " quoted ",
    ),
    # Names ggml fills into its CUDA/HIP error report (ggml-cuda.cu: "%s: %s failed" with the
    # operation, "current device: %d, in function %s at %s:%d" with the call site): which
    # operation failed is the log's, not the error's.
    (r"(?<=compute_forward: )[A-Z][A-Z0-9_]*(?= failed)", " quoted "),
    (r"(?<=, in function )[A-Za-z_]\w*(?= at )", " quoted "),
    # The model_type a loader names when it has no code for it (mlx-lm utils.py "Model type
    # {model_type} not supported.", mlx-swift-examples ModelFactory.swift "Unsupported model
    # type: {type}", transformers configuration_auto.py "has model type `{model_type}`"):
    # the user's model, not the error.
    (
        r"(?<=[Mm]odel type )(`[^`\s]{1,80}`|[A-Za-z_][\w.-]*(?= not supported))"
        r"|(?<=[Mm]odel type: )[A-Za-z_][\w.-]*",
        " quoted ",
    ),
    (r"0x[0-9a-fA-F]+", " hex "),
    (r"(/[\w.@+-]+){2,}/?", " path "),  # POSIX paths
    (r"[A-Za-z]:(\\[\w.@+-]+)+\\?", " path "),  # Windows paths
    (r"\\[nrt]", " "),  # escaped line breaks and tabs: a JSON log record's "msg"
    (r"\b\d+(\.\d+)?[ \t]?(bytes|[KMGT]i?B)\b", " size "),  # 154.25 MiB and 12.73 GiB alike
    (r"\d+(\.\d+)*", " 0 "),  # every number looks the same
]
TOKEN_RE = r"[a-z_]+|0"
# Words that say nothing about which error it is: never anchor words, never lexical terms.
STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "in",
        "is",
        "it",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "with",
    ]
)
PLACEHOLDERS = frozenset(
    {"0", "path", "hex", "size", "progress", "quoted"}
)  # tokens the rules write, not the log
WEAK = STOP | PLACEHOLDERS  # never anchor words, never lexical terms

# The lines PyTorch prints after *any* CUDA or HIP error (c10/cuda/CUDAException.cpp and its
# HIP twin): they say nothing about which error it was, so a stored wording does not keep
# them. Kept, they outweighed the one line that names the error, and an ECC error or a
# misaligned address matched the illegal-memory-access page.
TRAILER_PREFIXES = (
    "cuda kernel errors might be asynchronously reported",
    "hip kernel errors might be asynchronously reported",
    "for debugging consider passing cuda_launch_blocking",
    "for debugging consider passing amd_serialize_kernel",
    "compile with `torch_use_cuda_dsa`",
    "compile with `torch_use_hip_dsa`",
)


def is_trailer(line: str) -> bool:
    return line.strip().lower().startswith(TRAILER_PREFIXES)


# ASCII semantics for \\d, \\w, \\s and \\b, as in JavaScript.
_RULES = [(re.compile(p, re.ASCII), r) for p, r in RULES]
_TOKEN = re.compile(TOKEN_RE)
ANSI = _RULES[0][0]  # the first rule: colours, removed before anything else
LINE_BREAK = re.compile(r"\r\n|\r|\n")  # what JavaScript splits on, unlike str.splitlines


def split_lines(text: str) -> list[str]:
    """LINE_BREAK.split, at C speed when the text has no carriage returns."""
    return LINE_BREAK.split(text) if "\r" in text else text.split("\n")


def clean_line(line: str) -> str:
    """Apply RULES in order; cheap substring guards skip the rules that cannot apply.

    Each guard is a necessary condition for its rule to match (tests hold the guarded result
    equal to plain application); the browser simply runs every rule.
    """
    digits = _ANY_DIGIT.search(line) is not None  # no rule before the last one writes a digit
    for (pattern, replacement), guard in zip(_RULES, _GUARDS, strict=True):
        if guard(line, digits):
            line = pattern.sub(replacement, line)
    return line


def clean_line_unguarded(line: str) -> str:
    for pattern, replacement in _RULES:
        line = pattern.sub(replacement, line)
    return line


_ANY_DIGIT = re.compile(r"\d", re.ASCII)
_LEVEL_START = tuple("(DIWEC")  # what the log-prefix rule needs after leading whitespace
_WS = " \t\n\r\f\v"
_Guard = Callable[[str, bool], bool]
_GUARDS: list[_Guard] = [
    lambda line, digits: "\x1b" in line or "^[" in line,
    lambda line, digits: line.lstrip(_WS).startswith(">"),
    lambda line, digits: "```" in line or "~~~" in line,
    lambda line, digits: digits and ":" in line,
    lambda line, digits: "|" in line,
    lambda line, digits: digits and "/" in line,
    lambda line, digits: digits and "[" in line,
    lambda line, digits: line.lstrip(_WS).startswith("(") and "=" in line,
    lambda line, digits: "[rank" in line,
    lambda line, digits: line.lstrip(_WS).startswith(_LEVEL_START),
    lambda line, digits: "level=" in line,
    lambda line, digits: digits and "%|" in line,
    lambda line, digits: digits and "-" in line and ":" in line,
    lambda line, digits: digits and ":" in line,
    lambda line, digits: "text_generation_" in line,
    lambda line, digits: "'" in line,
    lambda line, digits: "compute_forward: " in line,
    lambda line, digits: ", in function " in line,
    lambda line, digits: "odel type" in line,
    lambda line, digits: "0x" in line,
    lambda line, digits: "/" in line,
    lambda line, digits: ":\\" in line,
    lambda line, digits: "\\" in line,
    lambda line, digits: digits and ("B" in line or "bytes" in line),
    lambda line, digits: digits,
]


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def content_tokens(text: str) -> list[str]:
    """Tokens that say which error it is: no STOP words, no placeholders."""
    return [t for t in tokens(text) if t not in WEAK]


class Lines:
    """The lines of a log joined once, for C-speed substring searches that report line numbers."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.text = "\n".join(lines)
        self.starts = [0, *itertools.accumulate(len(line) + 1 for line in lines)]

    def lines_with(self, word: str, before: int | None = None) -> Iterator[int]:
        """Indices of the lines that contain `word`, ascending, found as they are asked for;
        only lines before line `before` when it is given (the rest of the text is not read)."""
        text, starts = self.text, self.starts
        end = len(text) if before is None else starts[before]
        at = text.find(word, 0, end)
        while at >= 0:
            line = bisect.bisect_right(starts, at) - 1
            yield line
            at = text.find(word, starts[line + 1], end)

    def iter_containing(self, words: list[str], before: int | None = None) -> Iterator[int]:
        """`containing`, lazily: a caller that stops at the first line it wants does not
        search the rest of a long log, and one that needs no line from `before` on says so."""
        last = -1
        for line in heapq.merge(*(self.lines_with(w, before) for w in words)):
            if line != last:
                yield line
                last = line

    def containing(self, words: list[str]) -> list[int]:
        """Sorted indices of the lines that contain any of `words`."""
        return list(self.iter_containing(words))


ESCAPES = re.compile(r"\\[nrt]")  # as the rule in RULES, for the word search


def strip_colours(line: str) -> str:
    """The line as pasted, colours and surrounding space removed."""
    return ANSI.sub("", line).strip()


WORDS_ONLY = bytes(
    b if b == 0x0A or b == 0x5F or 0x61 <= b <= 0x7A else 0x20 for b in range(256)
)  # keeps "\n", "_" and a-z
