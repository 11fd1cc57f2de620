"""Extract the CLI flags, environment variables and Python kwargs an engine version knows.

Reads an unpacked source tree of one released engine version (a PyPI sdist for vLLM and
SGLang, a `git archive` of the release tag for the others) without importing or building
anything, and prints one snapshot of ``errkb/data/flags/<engine>.yaml``:

    python scripts/extract_flags.py vllm /tmp/wf/src/vllm-0.6.6.post1 0.6.6.post1
    python scripts/extract_flags.py --header vllm   # the file header

Python sources are read with ``ast``; C/C++, Go and Rust sources with regular expressions.
"""

from __future__ import annotations

import argparse
import ast
import functools
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from errkb.entries.engines import REGISTRY

HELP_FLAGS = {"-h", "--help"}  # added by argparse / cobra / clap to every parser
# Engines with flag data: those whose registry entry names a repository.
REPOS = {e.id: e.repo for e in REGISTRY if e.repo}
ENGINES = tuple(REPOS)
FLAG_RE = re.compile(r"^--?[A-Za-z0-9][A-Za-z0-9_.-]*$")
ENV_RE = re.compile(r"^[A-Z][A-Z0-9_]*$")
ENV_GETTERS = {
    "getenv",
    "get_bool_env_var",
    "get_int_env_var",
    "get_float_env_var",
    "get_str_env_var",
    "envs_is_set",
}


@dataclass
class Snapshot:
    """The names one engine version knows, and the files they were read from."""

    version: str
    sources: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    env: set[str] = field(default_factory=set)
    kwargs: set[str] | None = None


# --------------------------------------------------------------------------- Python (ast)


@dataclass
class ClassInfo:
    """A class definition: its annotated fields (name -> annotation source) and bases."""

    name: str
    bases: list[str]
    fields: dict[str, str]
    path: Path


def parse(path: Path) -> ast.Module:
    """Parse a file; one the running Python cannot parse counts as empty (reported on stderr)."""
    return _parse_cached(str(path))


@functools.cache
def _parse_cached(name: str) -> ast.Module:
    path = Path(name)
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        return ast.parse(text, filename=str(path))
    except SyntaxError as exc:
        print(f"warning: skipped {path}: {exc}", file=sys.stderr)
        return ast.Module(body=[], type_ignores=[])


def class_fields(node: ast.ClassDef) -> dict[str, str]:
    out: dict[str, str] = {}
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            ann = ast.unparse(stmt.annotation)
            if "ClassVar" not in ann and "InitVar" not in ann:
                out[stmt.target.id] = ann
    return out


def index_classes(files: Iterable[Path]) -> dict[str, ClassInfo]:
    classes: dict[str, ClassInfo] = {}
    for path in files:
        for node in ast.walk(parse(path)):
            if isinstance(node, ast.ClassDef) and node.name not in classes:
                bases = [ast.unparse(b).split(".")[-1] for b in node.bases]
                classes[node.name] = ClassInfo(node.name, bases, class_fields(node), path)
    return classes


def all_fields(name: str, classes: dict[str, ClassInfo]) -> dict[str, str]:
    """Fields of a class including inherited ones (bases first, as dataclasses order them)."""
    info = classes.get(name)
    if info is None:
        return {}
    out: dict[str, str] = {}
    for base in info.bases:
        out.update(all_fields(base, classes))
    out.update(info.fields)
    return out


def is_bool_annotation(ann: str) -> bool:
    return re.search(r"\bbool\b", ann) is not None


def str_consts(nodes: Iterable[ast.expr]) -> list[str]:
    return [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def negations(flag: str, enable_disable: bool) -> list[str]:
    """The extra spellings argparse.BooleanOptionalAction (or vLLM's subclass) registers."""
    if not flag.startswith("--"):
        return []
    out = ["--no-" + flag[2:]]
    if enable_disable:
        for prefix, inverse in (("--enable-", "--disable-"), ("--disable-", "--enable-")):
            if flag.startswith(prefix):
                out.append(inverse + flag.removeprefix(prefix))
    return out


@dataclass
class ArgContext:
    """What an ``add_argument`` call needs to be expanded the way argparse would."""

    classes: dict[str, ClassInfo]
    bool_optional_fields: bool  # get_kwargs() gives bool fields BooleanOptionalAction
    enable_disable: bool  # FlexibleArgumentParser registers EnableDisableAction
    used_classes: set[str] = field(default_factory=set)
    registered: set[str] = field(default_factory=set)  # X in `X.add_cli_args(parser)` calls


def kwargs_sources(func: ast.AST) -> dict[str, str]:
    """Map ``x_kwargs`` variables to the class given to ``get_kwargs(Class)`` in a function."""
    out: dict[str, str] = {}
    for node in ast.walk(func):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        call = node.value
        name = ast.unparse(call.func).split(".")[-1]
        if name in {"get_kwargs", "_compute_kwargs"} and call.args:
            cls = ast.unparse(call.args[0]).split(".")[-1]
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = cls
    return out


def _spread_sources(value: ast.expr) -> list[ast.expr]:
    """What a ``**value`` argument spreads: ``**kw["x"]``, or each ``**kw["x"]`` inside a
    dict display such as ``**{**kw["x"], "default": None}`` (vLLM 0.12 and later)."""
    if isinstance(value, ast.Dict):
        return [v for k, v in zip(value.keys, value.values, strict=True) if k is None]
    return [value]


def call_is_bool_optional(call: ast.Call, kw_vars: dict[str, str], ctx: ArgContext) -> bool:
    for kw in call.keywords:
        if kw.arg == "action" and "BooleanOptionalAction" in ast.unparse(kw.value):
            return True
        if kw.arg is not None or not ctx.bool_optional_fields:
            continue
        if isinstance(kw.value, ast.Dict) and any(
            isinstance(k, ast.Constant)
            and k.value == "action"
            and "BooleanOptionalAction" in ast.unparse(v)
            for k, v in zip(kw.value.keys, kw.value.values, strict=True)
        ):
            return True
        for spread in _spread_sources(kw.value):
            if not isinstance(spread, ast.Subscript):
                continue
            var = ast.unparse(spread.value)
            key = spread.slice
            cls = kw_vars.get(var)
            if cls and isinstance(key, ast.Constant) and isinstance(key.value, str):
                ctx.used_classes.add(cls)
                ann = all_fields(cls, ctx.classes).get(key.value, "")
                if is_bool_annotation(ann):
                    return True
    return False


def dynamic_fields(
    call: ast.Call,
    loop: ast.For | None,
    kw_vars: dict[str, str],
    owner: str | None,
    ctx: ArgContext,
) -> list[tuple[str, bool]]:
    """``for key, value in X_kwargs.items(): add_argument(f"--{key.replace('_', '-')}")``."""
    if loop is None or not any(isinstance(a, ast.JoinedStr) for a in call.args):
        return []
    iterated = ast.unparse(loop.iter)
    var = iterated.removesuffix(".items()")
    cls = kw_vars.get(var)
    if cls in {"cls", "self"}:
        cls = owner
    if cls is None:
        return []
    subclasses = [c.name for c in ctx.classes.values() if cls in c.bases]
    targets = [c for c in [cls, *subclasses] if c in ctx.registered] or [cls]
    out: list[tuple[str, bool]] = []
    for name in targets:
        ctx.used_classes.add(name)
        for fname, ann in all_fields(name, ctx.classes).items():
            bool_opt = ctx.bool_optional_fields and is_bool_annotation(ann)
            out.append(("--" + fname.replace("_", "-"), bool_opt))
    return out


def walk_with_loops(
    node: ast.AST, loop: ast.For | None = None
) -> Iterator[tuple[ast.AST, ast.For | None]]:
    yield node, loop
    for child in ast.iter_child_nodes(node):
        yield from walk_with_loops(child, node if isinstance(node, ast.For) else loop)


def functions_with_owner(tree: ast.Module) -> Iterator[tuple[ast.AST, str | None]]:
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield item, node.name
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node, None
    yield tree, None  # module-level code (old api_server.py scripts)


def registered_classes(paths: Iterable[Path]) -> set[str]:
    """Classes whose ``add_cli_args`` the entry points call, e.g. ``FrontendArgs``."""
    out: set[str] = set()
    for path in paths:
        out |= set(re.findall(r"\b(\w+)\.add_cli_args\(", path.read_text(encoding="utf-8")))
    return out


def argparse_flags(path: Path, ctx: ArgContext) -> set[str]:
    """Every option string the ``add_argument`` calls in one file register."""
    flags: set[str] = set()
    seen: set[int] = set()
    for func, owner in functions_with_owner(parse(path)):
        kw_vars = kwargs_sources(func)
        for node, loop in walk_with_loops(func):
            if id(node) in seen or not isinstance(node, ast.Call):
                continue
            if not (isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"):
                continue
            seen.add(id(node))
            options = [s for s in str_consts(node.args) if FLAG_RE.match(s)]
            bool_opt = call_is_bool_optional(node, kw_vars, ctx)
            pairs = [(o, bool_opt) for o in options]
            pairs += dynamic_fields(node, loop, kw_vars, owner, ctx)
            for opt, is_bool in pairs:
                flags.add(opt)
                if is_bool:
                    flags.update(negations(opt, ctx.enable_disable))
    return flags


def env_reads(tree: ast.AST, prefixes: tuple[str, ...]) -> set[str]:
    """Names read with os.getenv / os.environ.get / os.environ[...] / get_*_env_var(...)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        name: str | None = None
        if isinstance(node, ast.Call) and node.args:
            func = ast.unparse(node.func)
            last = func.split(".")[-1]
            first = node.args[0]
            if (last in ENV_GETTERS or func.endswith("environ.get")) and isinstance(
                first, ast.Constant
            ):
                name = first.value if isinstance(first.value, str) else None
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value).endswith("environ"):
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                name = node.slice.value
        elif (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Constant)
            and any(ast.unparse(c).endswith("environ") for c in node.comparators)
        ):
            # "VLLM_X" in os.environ
            name = node.left.value if isinstance(node.left.value, str) else None
        if name and ENV_RE.match(name) and name.startswith(prefixes):
            out.add(name)
    return out


def dict_keys(tree: ast.Module, var: str) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        target: ast.expr | None = None
        value: ast.expr | None = None
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        if isinstance(target, ast.Name) and target.id == var and isinstance(value, ast.Dict):
            out.update(s for s in str_consts(k for k in value.keys if k is not None))
    return out


def init_params(path: Path, cls: str) -> set[str]:
    for node in ast.walk(parse(path)):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    a = item.args
                    names = [x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]]
                    return {n for n in names if n != "self"}
    return set()


def py_files(root: Path, package: str) -> list[Path]:
    return sorted(p for p in (root / package).rglob("*.py") if "tests" not in p.parts)


def blob(engine: str, tag: str, rel: str) -> str:
    return f"https://github.com/{REPOS[engine]}/blob/{tag}/{rel}"


VLLM_ARG_FILES = (
    "vllm/engine/arg_utils.py",
    "vllm/entrypoints/openai/cli_args.py",
    "vllm/entrypoints/common/cli_args.py",
    "vllm/entrypoints/openai/api_server.py",
    "vllm/entrypoints/api_server.py",
    "vllm/entrypoints/cli/serve.py",
    "vllm/entrypoints/cli/main.py",
    "vllm/scripts.py",
)


def vllm_arg_files(root: Path) -> list[str]:
    """The fixed list plus wherever this version defines the server parser or FrontendArgs."""
    rels = [r for r in VLLM_ARG_FILES if (root / r).is_file()]
    for path in sorted((root / "vllm/entrypoints").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        defines = "def make_arg_parser(" in text or "class FrontendArgs" in text
        if defines and "run_batch" not in rel and rel not in rels:
            rels.append(rel)
    return rels


def vllm_context(root: Path) -> ArgContext:
    arg_utils = (root / "vllm/engine/arg_utils.py").read_text(encoding="utf-8")
    compute = re.search(r"def (_compute_kwargs|get_kwargs)\(.*?(?=\ndef )", arg_utils, re.S)
    bool_opt = bool(compute and "BooleanOptionalAction" in compute.group(0))
    argparse_utils = [root / "vllm/utils/argparse_utils.py", root / "vllm/utils/__init__.py"]
    enable_disable = any(
        p.is_file()
        and 'register("action", BooleanOptionalAction, EnableDisableAction'
        in p.read_text(encoding="utf-8").replace("'", '"')
        for p in argparse_utils
    )
    return ArgContext(index_classes(py_files(root, "vllm")), bool_opt, enable_disable)


def extract_vllm(root: Path, version: str, tag: str) -> Snapshot:
    snap = Snapshot(version, flags=set(HELP_FLAGS), kwargs=set())
    ctx = vllm_context(root)
    arg_files = vllm_arg_files(root)
    ctx.registered = registered_classes(root / rel for rel in arg_files)
    used: list[str] = []
    for rel in arg_files:
        found = argparse_flags(root / rel, ctx)
        if found:
            snap.flags |= found
            used.append(rel)
    for cls in sorted(ctx.used_classes):
        info = ctx.classes.get(cls)
        if info:
            rel = info.path.relative_to(root).as_posix()
            if rel not in used:
                used.append(rel)
    envs = root / "vllm/envs.py"
    if envs.is_file():
        snap.env |= dict_keys(parse(envs), "environment_variables")
        used.append("vllm/envs.py")
    for path in py_files(root, "vllm"):
        snap.env |= env_reads(parse(path), ("VLLM_",))
    assert snap.kwargs is not None
    snap.kwargs |= set(all_fields("EngineArgs", ctx.classes))
    llm = root / "vllm/entrypoints/llm.py"
    snap.kwargs |= init_params(llm, "LLM")
    used.append("vllm/entrypoints/llm.py")
    snap.sources = [blob("vllm", tag, rel) for rel in used]
    return snap


SGLANG_ARG_FILES = ("python/sglang/srt/server_args.py", "python/sglang/launch_server.py")


def sglang_envs_class(tree: ast.Module) -> set[str]:
    """``class Envs: SGLANG_X = EnvBool(False)`` in sglang/srt/environ.py."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else []
                for t in targets:
                    if isinstance(t, ast.Name) and re.match(r"^SGL(ANG)?_[A-Z0-9_]+$", t.id):
                        out.add(t.id)
    return out


def extract_sglang(root: Path, version: str, tag: str) -> Snapshot:
    snap = Snapshot(version, flags=set(HELP_FLAGS), kwargs=set())
    # A git checkout has python/sglang/; the sdist has sglang/ at its root.
    base = root / "python" if (root / "python/sglang").is_dir() else root
    classes = index_classes([base / "sglang/srt/server_args.py"])
    ctx = ArgContext(classes, bool_optional_fields=False, enable_disable=False)
    used: list[str] = []
    for rel in SGLANG_ARG_FILES:
        path = root / rel if (root / rel).is_file() else base / rel.removeprefix("python/")
        if path.is_file():
            found = argparse_flags(path, ctx)
            if found:
                snap.flags |= found
                used.append(rel)
    environ = base / "sglang/srt/environ.py"
    if environ.is_file():
        snap.env |= sglang_envs_class(parse(environ))
        used.append("python/sglang/srt/environ.py")
    for path in py_files(base, "sglang"):
        snap.env |= env_reads(parse(path), ("SGLANG_", "SGL_"))
    assert snap.kwargs is not None
    snap.kwargs |= set(all_fields("ServerArgs", classes))
    snap.sources = [blob("sglang", tag, rel) for rel in used]
    return snap


# --------------------------------------------------------------------------- C / C++ (llama.cpp)

C_STRING = r'"((?:[^"\\]|\\.)*)"'
LLAMA_ARG_FILES = (
    "common/arg.cpp",
    "common/common.cpp",
    "examples/server/server.cpp",
    "tools/server/server.cpp",
)


def brace_lists_after(text: str, start: int) -> Iterator[str]:
    """The ``{...}`` initializer lists that open the call whose ``(`` ends at ``start``."""
    i = start
    while True:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i >= len(text) or text[i] != "{":
            return
        end = text.index("}", i)
        yield text[i + 1 : end]
        i = end + 1
        while i < len(text) and text[i] in " \t\r\n,":
            i += 1


def llama_flags(text: str) -> set[str]:
    flags: set[str] = set()
    for m in re.finditer(r"\b(?:common_arg|llama_arg|gpt_arg)\s*\(", text):
        for group in brace_lists_after(text, m.end()):
            flags.update(s for s in re.findall(C_STRING, group) if FLAG_RE.match(s))
    for m in re.finditer(r"\barg\s*==\s*" + C_STRING, text):
        if FLAG_RE.match(m.group(1)):
            flags.add(m.group(1))
    return flags


def c_env_names(text: str, prefixes: tuple[str, ...]) -> set[str]:
    names = set(re.findall(r"\bset_env\s*\(\s*" + C_STRING, text))
    names |= set(re.findall(r"\bgetenv\s*\(\s*" + C_STRING, text))
    return {n for n in names if ENV_RE.match(n) and n.startswith(prefixes)}


def source_files(root: Path, suffixes: tuple[str, ...]) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        if path.suffix in suffixes and path.is_file():
            yield path


def extract_llama(root: Path, version: str, tag: str) -> Snapshot:
    snap = Snapshot(version)
    used: list[str] = []
    for rel in LLAMA_ARG_FILES:
        path = root / rel
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            snap.flags |= llama_flags(text)
            used.append(rel)
    for path in source_files(root, (".c", ".cpp", ".h", ".cu", ".cuh", ".m", ".mm")):
        text = path.read_text(encoding="utf-8", errors="replace")
        found = c_env_names(text, ("LLAMA_", "GGML_"))
        if found:
            snap.env |= found
            rel = path.relative_to(root).as_posix()
            if rel not in used:
                used.append(rel)
    snap.sources = [blob("llama.cpp", tag, rel) for rel in used]
    return snap


def extract_nccl(root: Path, version: str, tag: str) -> Snapshot:
    snap = Snapshot(version)
    used: list[str] = []
    for path in source_files(root, (".c", ".cc", ".cpp", ".h", ".cu", ".cuh")):
        text = path.read_text(encoding="utf-8", errors="replace")
        found = {
            "NCCL_" + n for n in re.findall(r"\bNCCL_PARAM\s*\(\s*\w+\s*,\s*" + C_STRING, text)
        }
        # 2.29+: DEFINE_NCCL_PARAM(name, type, NCCL_KEY, ...) stringifies the key
        found |= set(re.findall(r"\bDEFINE_NCCL_PARAM\s*\(\s*\w+\s*,[^,]+,\s*(NCCL_\w+)", text))
        # ncclGetEnv("NCCL_X"), getenv(...), ncclGetLevel(&v, "NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL"):
        # every whole string literal that is an NCCL_ name is an environment variable read.
        found |= set(re.findall(r"\"(NCCL_[A-Z0-9_]+)\"", text))
        if found:
            snap.env |= found
            used.append(path.relative_to(root).as_posix())
    snap.sources = [blob("nccl", tag, rel) for rel in used]
    return snap


# --------------------------------------------------------------------------- Go (ollama)

OLLAMA_ENV_FILES = ("envconfig/config.go", "server/envconfig/config.go")
COBRA_DEFINE = re.compile(
    r"\.(?:Persistent)?Flags\(\)\.((?:Bool|String|Int|Uint|Float|Duration|Count|Var)\w*)\(([^)]*)"
)
GO_ENV_READ = re.compile(
    r"\b(?:Getenv|LookupEnv|Var|Bool|Uint|Uint64|String)\(\s*\"(OLLAMA_[A-Z0-9_]+)\""
)


def go_flags(text: str) -> set[str]:
    """cobra flag definitions: Flags().StringP("name", "n", ...), BoolVar(&x, "name", ...)."""
    flags: set[str] = set()
    for m in COBRA_DEFINE.finditer(text):
        method, strings = m.group(1), re.findall(C_STRING, m.group(2))
        if not strings:
            continue
        flags.add("--" + strings[0])
        if method.endswith("P") and len(strings) > 1 and strings[1]:
            flags.add("-" + strings[1])
    return {f for f in flags if FLAG_RE.match(f)}


def extract_ollama(root: Path, version: str, tag: str) -> Snapshot:
    snap = Snapshot(version, flags=set(HELP_FLAGS))
    used: list[str] = []
    for path in source_files(root / "cmd", (".go",)):
        found = go_flags(path.read_text(encoding="utf-8", errors="replace"))
        if found and not path.name.endswith("_test.go"):
            snap.flags |= found
            used.append(path.relative_to(root).as_posix())
    for rel in OLLAMA_ENV_FILES:
        path = root / rel
        if path.is_file():
            snap.env |= set(
                re.findall(r"\"(OLLAMA_[A-Z0-9_]+)\"", path.read_text(encoding="utf-8"))
            )
            used.append(rel)
    for path in source_files(root, (".go",)):
        rel = path.relative_to(root).as_posix()
        if path.name.endswith("_test.go") or rel.startswith("integration/"):
            continue
        found = set(GO_ENV_READ.findall(path.read_text(encoding="utf-8", errors="replace")))
        if found - snap.env:
            snap.env |= found
            used.append(rel)
    snap.sources = [blob("ollama", tag, rel) for rel in used]
    return snap


# --------------------------------------------------------------------------- Rust (TGI)


def clap_fields(text: str, struct: str) -> Iterator[tuple[str, str]]:
    """(attributes, field name) pairs of a ``struct`` in Rust source."""
    m = re.search(r"struct\s+" + struct + r"\s*\{", text)
    if not m:
        return
    depth, i = 1, m.end()
    while depth and i < len(text):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    body = text[m.end() : i - 1]
    attrs: list[str] = []
    for line in body.splitlines():
        s = line.strip()
        if s.startswith("#["):
            attrs.append(s)
        elif s.startswith("///") or s.startswith("//") or not s:
            continue
        else:
            fm = re.match(r"(?:pub\s+)?(\w+)\s*:", s)
            if fm:
                yield " ".join(attrs), fm.group(1)
            attrs = []


def tgi_snapshot_names(text: str) -> tuple[set[str], set[str]]:
    flags: set[str] = set()
    env: set[str] = set()
    attrs_joined = ""
    for attrs, name in clap_fields(text, "Args"):
        attrs_joined += attrs
        if "long" in re.findall(r"\b(long|short|env)\b", attrs):
            long = re.search(r"\blong\s*=\s*\"([^\"]+)\"", attrs)
            flags.add("--" + (long.group(1) if long else name.replace("_", "-")))
        short = re.search(r"\bshort\s*=\s*'(\w)'", attrs)
        if short:
            flags.add("-" + short.group(1))
        elif re.search(r"\bshort\b(?!\s*=)", attrs):
            flags.add("-" + name[0])
        env_named = re.search(r"\benv\s*=\s*\"([A-Z0-9_]+)\"", attrs)
        if env_named:
            env.add(env_named.group(1))
        elif re.search(r"\benv\b(?!\s*=)", attrs):
            env.add(name.upper())
    env |= set(re.findall(r"env::var(?:_os)?\(\s*\"([A-Z][A-Z0-9_]*)\"", text))
    flags |= HELP_FLAGS
    if re.search(r"#\[(?:clap|command)\([^]]*\bversion\b[^]]*\]\s*struct\s+Args\b", text):
        flags |= {"--version", "-V"}
    return flags, env


def extract_tgi(root: Path, version: str, tag: str) -> Snapshot:
    snap = Snapshot(version)
    rel = "launcher/src/main.rs"
    flags, env = tgi_snapshot_names((root / rel).read_text(encoding="utf-8"))
    snap.flags, snap.env = flags, env
    snap.sources = [blob("tgi", tag, rel)]
    return snap


# --------------------------------------------------------------------------- output

EXTRACTORS = {
    "vllm": extract_vllm,
    "sglang": extract_sglang,
    "llama.cpp": extract_llama,
    "ollama": extract_ollama,
    "tgi": extract_tgi,
    "nccl": extract_nccl,
}
TAG_FORMATS = {
    "vllm": "v{}",
    "sglang": "v{}",
    "llama.cpp": "b{}",
    "ollama": "v{}",
    "tgi": "v{}",
    "nccl": "v{}-1",
}


def flow(items: Iterable[str]) -> str:
    return "[" + ", ".join(sorted(set(items))) + "]"


def header(engine: str) -> str:
    return (
        "# Generated by scripts/extract_flags.py from the engine's released sources;"
        " do not edit by hand.\n"
        f"engine: {engine}\nsnapshots:\n"
    )


def render(snap: Snapshot) -> str:
    lines = [f'  - version: "{snap.version}"', "    sources:"]
    lines += [f"      - {url}" for url in snap.sources]
    lines.append(f"    flags: {flow(snap.flags)}")
    lines.append(f"    env: {flow(snap.env)}")
    if snap.kwargs is not None:
        lines.append(f"    kwargs: {flow(snap.kwargs)}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--header", action="store_true", help="print the file header only")
    parser.add_argument("--tag", help="git tag the sources were read at (default per engine)")
    parser.add_argument("engine", choices=ENGINES)
    parser.add_argument("root", nargs="?", type=Path, help="unpacked source tree")
    parser.add_argument("version", nargs="?", help="PEP 440 version (llama.cpp: build number)")
    args = parser.parse_args(argv)
    if args.header:
        sys.stdout.write(header(args.engine))
        return 0
    if args.root is None or args.version is None:
        parser.error("root and version are required")
    tag = args.tag or TAG_FORMATS[args.engine].format(args.version)
    snap = EXTRACTORS[args.engine](args.root, args.version, tag)
    sys.stdout.write(render(snap))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
