"""Command linting: every flag and environment variable must exist in the versions named.

The data is errkb/data/flags/<engine>.yaml: snapshots of each engine's CLI flags, environment
variables and Python keyword arguments at released versions, extracted from the released
sources by scripts/extract_flags.py. A command is checked against every snapshot inside its
`versions` range (or, when none falls inside, the newest one before it), so a flag that
appeared later than the range claims, or a name that never existed, is reported.
"""

from __future__ import annotations

import ast
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml
from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from errkb.entries import schema
from errkb.entries.diagnostics import Diagnostic
from errkb.entries.engines import REGISTRY
from errkb.entries.loader import LoadedEntry
from errkb.entries.schema import Command
from errkb.memo import persistent

FLAGS_DIR = Path(__file__).parents[1] / "data" / "flags"

# Environment variables are checked against the engine that owns their prefix (longest first,
# so SGLANG_ is not read as SGL_).
ENV_OWNERS: tuple[tuple[str, str], ...] = tuple(
    sorted(
        ((prefix, e.id) for e in REGISTRY for prefix in e.env_prefixes),
        key=lambda pair: -len(pair[0]),
    )
)
# A CMake option (-DGGML_CUDA=ON) is not an environment variable.
# Compiled once: a corpus's own patterns soon evict re's shared cache.
_FLAG_RE = re.compile(r"--?[A-Za-z]")
_LLAMA_BIN_RE = re.compile(r"llama-[a-z0-9-]+(\.exe)?")
_OPT_LEVEL_RE = re.compile(r"-O\d*")
_ENV_RE = re.compile(
    r"(?<![A-Za-z0-9_$-])(?<!-D)((?:"
    + "|".join(re.escape(prefix[:-1]) for prefix, _ in ENV_OWNERS)
    + r")_[A-Z0-9_]+)"
)
_SEPARATORS = frozenset({"|", "||", "&&", ";", "&", ";;", "(", ")"})
_KWARG_CALLS = {e.id: frozenset(e.python_calls) for e in REGISTRY if e.python_calls}


@dataclass(frozen=True)
class Snapshot:
    version: str
    flags: frozenset[str]
    env: frozenset[str]
    kwargs: frozenset[str]
    key: Version  # `version` parsed once, for ordering and range tests


@dataclass(frozen=True)
class EngineFlags:
    engine: str
    snapshots: tuple[Snapshot, ...]  # oldest first

    def in_range(self, versions: str) -> list[Snapshot]:
        if versions.strip() == "*":
            return list(self.snapshots)
        spec = SpecifierSet(versions)
        inside = [s for s in self.snapshots if spec.contains(s.key, prereleases=True)]
        if inside:
            return inside
        # No snapshot inside a narrow range: the newest one before it is the best evidence.
        lows = [_as_version(x.version) for x in spec if x.operator in (">=", ">", "==", "~=")]
        floor = max(lows) if lows else None
        before = [s for s in self.snapshots if floor is not None and s.key <= floor]
        return before[-1:] if before else list(self.snapshots[:1])


def _as_version(text: str) -> Version:
    try:
        return Version(text.removeprefix("b"))
    except InvalidVersion:
        return Version("0")


# Our own data files, not entries: libyaml's loader when PyYAML was built with it.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def load_flags(directory: Path = FLAGS_DIR) -> dict[str, EngineFlags]:
    out: dict[str, EngineFlags] = {}
    for path in sorted(directory.glob("*.yaml")):
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
        snaps = [
            Snapshot(
                version=str(s["version"]),
                flags=frozenset(s.get("flags") or ()),
                env=frozenset(s.get("env") or ()),
                kwargs=frozenset(s.get("kwargs") or ()),
                key=_as_version(str(s["version"])),
            )
            for s in data["snapshots"]
        ]
        snaps.sort(key=lambda s: s.key)
        out[str(data["engine"])] = EngineFlags(str(data["engine"]), tuple(snaps))
    return out


def _logical_lines(code: str) -> list[str]:
    return code.replace("\\\r\n", " ").replace("\\\n", " ").splitlines()


def _tokens(line: str) -> list[str]:
    try:
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        return list(lexer)
    except ValueError:  # unbalanced quotes in a shown snippet: fall back to plain words
        return line.split()


def _program_end(engine: str, tokens: list[str], i: int) -> int | None:
    """Index after the program (and subcommand) that starts at tokens[i], if it is the engine's."""
    tok = tokens[i]
    base = tok.rsplit("/", 1)[-1]
    nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
    if engine == "vllm":
        if base == "vllm" and nxt in ("serve", "bench", "chat", "complete"):
            return i + 2
        if tok in ("vllm.entrypoints.openai.api_server", "vllm.entrypoints.api_server"):
            return i + 1
        if tok.startswith("vllm/vllm-openai"):
            return i + 1
    if engine == "sglang" and tok == "sglang.launch_server":
        return i + 1
    if engine == "sglang" and base == "sglang" and nxt == "serve":
        return i + 2
    if engine == "llama.cpp" and (
        _LLAMA_BIN_RE.fullmatch(base) or (tok.startswith("./") and base in ("main", "server"))
    ):
        return i + 1
    if engine == "ollama" and base == "ollama" and nxt and not nxt.startswith("-"):
        return i + 2
    if engine == "tgi" and (
        base == "text-generation-launcher" or "text-generation-inference:" in tok
    ):
        return i + 1
    return None


def shell_flags(engine: str, code: str) -> list[str]:
    """Flags passed to the engine's own programs in a shell snippet, in order."""
    found: list[str] = []
    for line in _logical_lines(code):
        tokens = _tokens(line)
        i = 0
        while i < len(tokens):
            end = _program_end(engine, tokens, i)
            if end is None:
                i += 1
                continue
            i = end
            while i < len(tokens) and tokens[i] not in _SEPARATORS:
                tok = tokens[i]
                if _FLAG_RE.match(tok):
                    found.append(tok.split("=", 1)[0])
                i += 1
    return found


def _canonical(engine: str, flag: str) -> str | None:
    """The spelling the snapshots store, or None for one they cannot judge. vLLM also accepts
    `--max_model_len` (0.5.5 on) and dotted sub-keys (`--compilation-config.level`); its `-O3`
    shorthand is rewritten by its own parser, which the snapshots do not model."""
    if engine != "vllm":
        return flag
    flag = flag.split(".", 1)[0]
    if _OPT_LEVEL_RE.fullmatch(flag):
        return None
    return "--" + flag[2:].replace("_", "-") if flag.startswith("--") else flag


def python_kwargs(engine: str, code: str) -> list[str]:
    names = _KWARG_CALLS.get(engine)
    if not names:
        return []
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            if name in names:
                found.extend(k.arg for k in node.keywords if k.arg is not None)
    return found


def env_names(code: str) -> list[str]:
    return _ENV_RE.findall(code)


def _owner(name: str) -> str:
    return next(engine for prefix, engine in ENV_OWNERS if name.startswith(prefix))


def _versions_text(snaps: list[Snapshot]) -> str:
    if len(snaps) > 4:
        return f"{snaps[0].version} to {snaps[-1].version} ({len(snaps)} releases read)"
    return ", ".join(s.version for s in snaps)


def lint_command(command: Command, data: dict[str, EngineFlags]) -> list[str]:
    """What is wrong with one command, as sentences (empty when it is fine)."""
    problems: list[str] = []
    known = data.get(command.engine)
    if known is not None:
        snaps = known.in_range(command.versions)
        names: list[tuple[str, str]] = []
        if command.lang == "python":
            names += [(k, "kwargs") for k in python_kwargs(command.engine, command.code)]
        else:
            names += [(f, "flags") for f in shell_flags(command.engine, command.code)]
        checked: list[tuple[str | None, str]] = [
            (_canonical(command.engine, n) if k == "flags" else n, k) for n, k in names
        ]
        for name, kind in dict.fromkeys((n, k) for n, k in checked if n is not None):
            lacking = [s for s in snaps if name not in getattr(s, kind)]
            if not lacking:
                continue
            having = [s for s in known.snapshots if name in getattr(s, kind)]
            what = "keyword argument" if kind == "kwargs" else "option"
            where = f" (it exists in {_versions_text(having)})" if having else ""
            problems.append(
                f"`{name}` is not a {command.engine} {what} in {_versions_text(lacking)}, which "
                f"this command's versions {command.versions!r} include{where}"
            )
    for name in dict.fromkeys(env_names(command.code)):
        owner = _owner(name)
        flags = data.get(owner)
        if flags is None:
            continue
        if owner == command.engine:
            lacking = [s for s in flags.in_range(command.versions) if name not in s.env]
        else:
            lacking = [] if any(name in s.env for s in flags.snapshots) else list(flags.snapshots)
        if not lacking:
            continue
        having = [s for s in flags.snapshots if name in s.env]
        where = f" (it exists in {_versions_text(having)})" if having else " (no version has it)"
        problems.append(
            f"environment variable `{name}` does not exist in {owner} {_versions_text(lacking)}{where}"
        )
    return problems


def lint_entries(
    items: list[LoadedEntry], data: dict[str, EngineFlags] | None = None
) -> list[Diagnostic]:
    """Every command's problems, at the line of its code. Without `data`, against the shipped
    flags, through a memo that `errkb.memo.remembered` keeps between builds, so a build lints
    only the commands it has not seen with this data and this code."""
    out: list[Diagnostic] = []
    for item in items:
        for section in ("solutions", "alternatives"):
            for i, solution in enumerate(getattr(item.entry, section)):
                for j, command in enumerate(solution.commands):
                    if data is None:
                        key = (command.engine, command.lang, command.versions, command.code)
                        messages: Sequence[str] = _lint_shipped(key)
                    else:
                        messages = lint_command(command, data)
                    for message in messages:
                        line, col = item.position(section, i, "commands", j, "code")
                        out.append(
                            Diagnostic(
                                item.path, line, col, f"{section}[{i}].commands[{j}].code", message
                            )
                        )
    return out


@cache
def _shipped_flags() -> dict[str, EngineFlags]:
    return load_flags()


# What decides a command's lint besides the command: this code, the schema and engine registry
# (the entries package) and the flag data.
@persistent(
    "flaglint",
    Path(__file__),
    *FLAGS_DIR.glob("*.yaml"),
    *Path(schema.__file__ or "").parent.glob("*.py"),
)
def _lint_shipped(key: tuple[str, str, str, str]) -> tuple[str, ...]:
    engine, lang, versions, code = key
    command = Command.model_construct(engine=engine, lang=lang, versions=versions, code=code)
    return tuple(lint_command(command, _shipped_flags()))
