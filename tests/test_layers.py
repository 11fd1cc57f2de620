"""The package's layout stays true: no import circles, and no stage imports a later one.

Data flows one way: YAML -> entries -> (matcher) -> corpus checks -> site plan -> MkDocs. Every
import counts, including those under `if TYPE_CHECKING:` and inside functions, because a circle
there is still a circle a reader has to untangle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGES = ("errkb", "calculators")

# Stage of each part of the code, lowest first; a module may import its own stage and lower ones.
STAGES: tuple[tuple[str, ...], ...] = (
    ("errkb.settings", "errkb.mdtext", "errkb.memo"),  # the ground floor: imports nothing of ours
    ("errkb.entries",),  # one file in, one validated entry out
    ("calculators",),  # the memory core: knows nothing of entries or the site
    ("errkb.matcher", "errkb.match"),  # entries in, rankings out
    ("errkb.checks",),  # what needs the whole corpus
    ("errkb.site",),  # the corpus in, pages and JSON out; no MkDocs import
    ("errkb.cli",),
    ("hooks",),  # the MkDocs adapter
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files() -> list[Path]:
    files = [p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]
    return files + sorted((ROOT / "hooks").glob("*.py"))


MODULES = {module_name(p): p for p in source_files()}


def resolve(name: str) -> str | None:
    """The module of ours that `name` refers to (a module, or a name inside one), or None."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: str, path: Path) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (target := resolve(alias.name)) is not None:
                    yield node.lineno, target
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # `from pkg import sub` runs pkg/__init__.py and then the submodule: both count.
            if (target := resolve(base)) is not None:
                yield node.lineno, target
            for alias in node.names:
                if (sub := resolve(f"{base}.{alias.name}")) not in (None, target):
                    yield node.lineno, sub


GRAPH: dict[str, dict[str, int]] = {
    m: {t: line for line, t in imports_of(m, p) if t != m} for m, p in MODULES.items()
}


def stage_of(module: str) -> int:
    for i, prefixes in enumerate(STAGES):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return i
    raise AssertionError(f"{module} belongs to no stage: add it to STAGES in {__file__}")


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_walk_sees_the_imports() -> None:
    # Guards the guard: if resolution broke, every other test here would pass vacuously.
    assert len(MODULES) > 40
    assert "errkb.entries.schema" in GRAPH["errkb.entries.loader"]
    assert "errkb.site.plan" in GRAPH["hooks.errkb_pages"]
    assert cycles({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}) == [["a", "b", "c"]]


def test_no_import_circles() -> None:
    assert cycles(GRAPH) == []


def test_no_stage_imports_a_later_one() -> None:
    upward = [
        f"{MODULES[m].relative_to(ROOT)}:{line}: {m} (stage {stage_of(m)}) imports {t} "
        f"(stage {stage_of(t)})"
        for m, targets in sorted(GRAPH.items())
        for t, line in sorted(targets.items())
        if stage_of(t) > stage_of(m)
    ]
    assert upward == []


def test_the_site_stage_does_not_import_mkdocs() -> None:
    # `errkb generate` runs without MkDocs (Zensical runs no hooks); only hooks/ may import it.
    offenders = [
        f"{MODULES[m].relative_to(ROOT)}"
        for m in GRAPH
        if not m.startswith("hooks")
        for node in ast.walk(ast.parse(MODULES[m].read_text(encoding="utf-8")))
        if isinstance(node, ast.Import | ast.ImportFrom)
        and any(
            name.split(".")[0] in {"mkdocs", "material"}
            for name in (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
        )
    ]
    assert offenders == []


@pytest.mark.parametrize(
    "module", ["errkb.matcher", "errkb.checks.corpus", "errkb.cli", "calculators.cli"]
)
def test_light_parts_do_not_pull_the_site_stack(module: str) -> None:
    """The README's issue bot and `errkb check` install without the site extra."""
    code = (
        f"import sys, {module}\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & "
        "{'mkdocs', 'material', 'vl_convert', 'markdown', 'pymdownx', 'jinja2'})\n"
        "print(','.join(heavy))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""
