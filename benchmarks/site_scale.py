"""How the site build scales with the number of entries: prints figures, asserts nothing.

Run from the repository root, on demand (never in the unit tests):

    python benchmarks/site_scale.py                  # N = 100, 1,000 and 5,000
    python benchmarks/site_scale.py --sizes 1000 --serve
    python benchmarks/site_scale.py --sizes 1000 --profile

For each N it writes N synthetic, schema-valid entries into errors/ of a temporary copy of the
repository (never into the real errors/), then, each in a fresh Python process:

- builds the site with our hook (`mkdocs build --strict` in-process), timing our own work
  (the hook's events: load and validate, entry and index pages, the JSON API and matcher data,
  marker tables) apart from MkDocs, Material and the other plugins;
- runs `errkb generate --out` and builds that tree with its hook-free config (the bare build
  of the same Markdown);
- with --serve, times what `mkdocs serve` does after one entry file is edited.

It also measures the pages (entry page HTML median and max, total site, search index) and runs
benchmarks/calc_grid.py. Synthetic entries are derived from the real entries and the test
fixtures (their prose, commands and sources), with new ids, slugs, titles, engines, categories,
message wordings, related links and dates; entry i is the same whatever N is.

Timings are wall-clock seconds (CPU seconds in brackets) and depend on the machine and its load:
compare ratios within one run, not seconds across machines.
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import datetime as dt
import functools
import gzip
import io
import json
import os
import pstats
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: benchmark this checkout's errkb
    sys.path.insert(0, str(ROOT))

from errkb.checks.corpus import Corpus, compute_backlinks  # noqa: E402
from errkb.entries.engines import ENGINES  # noqa: E402
from errkb.entries.loader import load_dir  # noqa: E402
from errkb.entries.lock import Lock  # noqa: E402
from errkb.entries.schema import Entry  # noqa: E402
from errkb.settings import load_settings  # noqa: E402
from errkb.site.budget import ENTRY_PAGE_BUDGET  # noqa: E402
from errkb.site.plan import plan_from_corpus  # noqa: E402

# The build is "as of" this day (SOURCE_DATE_EPOCH), so pages and dates are stable.
TODAY = dt.date(2026, 11, 20)
EPOCH = int(dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC).timestamp())
SIZES = (100, 1_000, 5_000)

QUALIFIERS = [
    "at startup",
    "under load",
    "after an upgrade",
    "in Docker",
    "on WSL2",
    "with LoRA adapters",
    "with speculative decoding",
    "with tensor parallelism",
    "with pipeline parallelism",
    "on consumer GPUs",
    "with a quantized checkpoint",
    "with long prompts",
    "with multimodal inputs",
    "on the first request",
    "after hours of serving",
    "with prefix caching",
    "on multi-node setups",
    "with CUDA graphs",
    "with a custom chat template",
    "behind a reverse proxy",
    "in Kubernetes",
    "with FP8 weights",
    "on MIG partitions",
    "after a driver update",
]
CATEGORY_WEIGHTS = {
    "memory": 30,
    "driver": 15,
    "multi-gpu": 12,
    "model": 18,
    "serving": 15,
    "install": 10,
}
SEVERITY_WEIGHTS = {"fatal": 55, "error": 30, "hang": 8, "warning": 7}
NOISE = [
    "rank {r}",
    "device cuda:{r}",
    "pid {p}",
    "worker {r}",
    "tp_rank={r}",
    "request {h}",
    "step {p}",
]


# ---------------------------------------------------------------------------------------------
# Synthetic corpus


def templates(shape: str = "rich") -> list[dict[str, Any]]:
    """Valid entries to derive from, as plain data (someone's invalid work in progress skipped).

    rich: the real entries and the fixtures (pages like the published ones); light: the
    fixtures alone (short entries, about the size the issue measured).
    """
    out: list[dict[str, Any]] = []
    paths = sorted((ROOT / "errors").glob("E*.yaml")) if shape == "rich" else []
    paths += sorted((ROOT / "tests" / "fixtures" / "valid").glob("*.yaml"))
    for path in paths:
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            Entry.model_validate(data)
        except Exception:  # someone's half-written entry: not a template
            continue
        out.append(data)
    if not out:
        raise SystemExit("no valid entry to derive synthetic entries from")
    return out


def _slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _engine_map(rng: random.Random, used: list[str]) -> dict[str, str]:
    if rng.random() < 0.4:
        return {e: e for e in ENGINES}
    names = list(ENGINES)
    shuffled = names[:]
    rng.shuffle(shuffled)
    return dict(zip(names, shuffled, strict=True))


def _vary_message(text: str, rng: random.Random, i: int, j: int) -> str:
    def number(m: re.Match[str]) -> str:
        digits = m.group(0)
        if rng.random() < 0.5 or len(digits) > 6:
            return digits
        return str(
            rng.randint(10 ** (len(digits) - 1) if len(digits) > 1 else 0, 10 ** len(digits) - 1)
        )

    varied = re.sub(r"\d+", number, text)
    noise = rng.choice(NOISE).format(r=rng.randint(0, 7), p=i * 10 + j, h=f"{i:04x}{j:02x}")
    lines = varied.split("\n")
    lines[0] = f"{lines[0]} ({noise}, E{i:04d})" if len(lines[0]) < 1900 else lines[0]
    return "\n".join(lines)[:2000]


def _group_end(regex: str) -> int:
    depth, k = 0, 0
    while k < len(regex):
        if regex[k] == "\\":
            k += 2
            continue
        depth += {"(": 1, ")": -1}.get(regex[k], 0)
        if depth == 0:
            return k
        k += 1
    return -1


def _own_pattern(regex: str, i: int) -> str:
    """The pattern, each top-level branch also requiring this entry's id later on the line.

    Branches keep their literal text outside groups, so the matcher's literal prefilter
    works on them as on the real patterns.
    """
    branches, depth, start, k = [], 0, 0, 0
    while k < len(regex):
        ch = regex[k]
        if ch == "\\":
            k += 2
            continue
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "|" and depth == 0:
            branches.append(regex[start:k])
            start = k + 1
        k += 1
    branches.append(regex[start:])
    if len(branches) == 1 and regex.startswith("(") and _group_end(regex) == len(regex) - 1:
        return _own_pattern(regex[3:-1] if regex.startswith("(?:") else regex[1:-1], i)
    return "|".join(rf"{b}.*\bE{i:04d}\b" for b in branches)


def synthetic_entry(i: int, pool: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    """Entry number i (1-based): the same whatever the corpus size, so sizes compare."""
    rng = random.Random(seed * 1_000_003 + i)
    data = copy.deepcopy(pool[rng.randrange(len(pool))])
    emap = _engine_map(rng, data["engines"])
    data["id"] = f"E{i:04d}"
    data["engines"] = list(dict.fromkeys(emap[e] for e in data["engines"]))
    primary = ENGINES[data["engines"][0]]
    base = re.sub(r"^[^:]{1,30}:\s*", "", data["title"]).rstrip(".")
    quals = rng.sample(QUALIFIERS, rng.choice((0, 1, 1, 2)))
    title = f"{primary}: {base}" + "".join(f" {q}" for q in quals)
    data["title"] = title[:190].strip()
    data["slug"] = f"{_slugify(data['title'])[:60].strip('-')}-{i}"
    data["former_slugs"] = [f"{data['slug']}-old"] if rng.random() < 0.03 else []
    if rng.random() < 0.3:
        data["category"] = rng.choices(list(CATEGORY_WEIGHTS), list(CATEGORY_WEIGHTS.values()))[0]
    data["severity"] = rng.choices(list(SEVERITY_WEIGHTS), list(SEVERITY_WEIGHTS.values()))[0]
    messages = data["messages"]
    if len(messages) > 1 and rng.random() < 0.3:
        messages = messages[: rng.randint(1, len(messages))]
    data["messages"] = [
        {**m, "engine": emap[m["engine"]], "text": _vary_message(m["text"], rng, i, j)}
        for j, m in enumerate(messages)
    ]
    # Patterns as often as in the real corpus, tied to this entry's own wording (its id is in
    # its first line) so that clones of one template do not match each other's messages.
    data["patterns"] = [
        {**p, "engine": emap[p["engine"]], "regex": _own_pattern(p["regex"], i)}
        for p in data.get("patterns", [])
    ]
    for key in ("solutions", "alternatives"):
        sols = data.get(key, [])
        if len(sols) > 1 and rng.random() < 0.4:
            sols = sols[: rng.randint(1, len(sols))]
        data[key] = [
            # A command keeps its engine: its flags are that engine's, and the build lints them.
            {**s, "commands": list(s.get("commands", []))}
            for s in sols
        ]
    used = {m["engine"] for m in data["messages"]}
    used |= {
        c["engine"] for k in ("solutions", "alternatives") for s in data[k] for c in s["commands"]
    }
    data["engines"] = list(dict.fromkeys([*data["engines"], *sorted(used)]))
    # Related: mostly neighbours (entries written around the same time), sometimes one of the
    # first ten (the generic errors everyone links to). Only earlier ids, so entry i never
    # depends on N.
    related: list[str] = []
    if i > 1:
        for _ in range(rng.choice((0, 1, 1, 2, 2, 3))):
            lo = max(1, i - 50)
            related.append(f"E{rng.randint(lo, i - 1):04d}")
        if i > 10 and rng.random() < 0.15:
            related.append(f"E{rng.randint(1, 10):04d}")
    data["related"] = list(dict.fromkeys(related))
    verified = data["verified"]
    verified["date"] = TODAY - dt.timedelta(days=rng.randint(0, 400))
    verified["versions"] = {emap[k]: v for k, v in verified["versions"].items()}
    data.pop("retired", None)
    if i > 10 and rng.random() < 0.02:
        data["retired"] = {
            "date": verified["date"],
            "reason": "Merged into a broader entry; this page is kept so links keep working.",
            "superseded_by": f"E{rng.randint(1, i - 1):04d}",
        }
    Entry.model_validate(data)  # fail here, not in the middle of a build
    return data


def make_repo(dest: Path, n: int, seed: int, shape: str = "rich") -> Path:
    """A repository copy with n synthetic entries and their lock."""
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "mkdocs.yml"):
        shutil.copy2(ROOT / name, dest / name)
    for name in ("docs", "hooks", "calculators/data"):  # the fit pages' sources, for --dirty
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    if (ROOT / ".cache").is_dir():  # the fit grid and charts, keyed by their sources: warm, as on
        shutil.copytree(ROOT / ".cache", dest / ".cache")  # a contributor's machine
    (dest / "errors").mkdir()
    pool = templates(shape)
    for i in range(1, n + 1):
        text = yaml.safe_dump(
            synthetic_entry(i, pool, seed), sort_keys=False, allow_unicode=True, width=100
        )
        (dest / "errors" / f"E{i:04d}.yaml").write_text(text, encoding="utf-8")
    # Each entry was validated as it was made; the cross-entry checks run in the builds (they
    # are part of what is timed there), not here as well.
    items, problems = load_dir(dest / "errors", dest)
    if problems:
        raise SystemExit("\n".join(d.render() for d in problems[:20]))
    items.sort(key=lambda item: item.entry.id)
    corpus = Corpus(tuple(items), compute_backlinks([item.entry for item in items]))
    plan = plan_from_corpus(corpus, load_settings(dest, today=TODAY), Lock())
    Lock(exists=False).updated(items, plan.index_urls()).write(dest)
    return dest


# ---------------------------------------------------------------------------------------------
# Child processes: one build each, timed from inside


class Clock:
    def __init__(self) -> None:
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            w, c = time.perf_counter(), time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.wall[name] = self.wall.get(name, 0.0) + time.perf_counter() - w
                self.cpu[name] = self.cpu.get(name, 0.0) + time.process_time() - c

        return timed

    def dump(self) -> dict[str, Any]:
        return {"wall": self.wall, "cpu": self.cpu}


def _quiet() -> None:
    import logging

    logging.getLogger("mkdocs").setLevel(logging.ERROR)


def child_build(
    config_file: str, site_dir: str, ours: bool, generate_to: str | None = None
) -> dict[str, Any]:
    """Build one site in this process; with `ours`, time our hook and errkb's parts.

    With `generate_to`, then write what `errkb generate --out` writes (write_generated) from
    the plan this build made, instead of loading and checking the corpus a second time.
    """
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    import errkb.site.api
    import errkb.site.fitplan
    import errkb.site.plan

    _quiet()
    clock = Clock()
    if ours:
        # The plan looks these up in their modules at call time, so patching times them.
        names = ["load_corpus", "index_pages", "api_files", "stale_charts"]
        fit_names = ["load_or_compute", "fit_pages", "fit_assets"]  # fit tables
        for module, wanted in ((errkb.site.plan, names), (errkb.site.fitplan, fit_names)):
            for name in wanted:
                if hasattr(module, name):
                    setattr(module, name, clock.wrap(name, getattr(module, name)))
        pages: Any = errkb.site.plan._EntryPages  # an entry's page and its evidence page
        for method in ("page", "evidence"):
            setattr(pages, method, clock.wrap("entry_pages", getattr(pages, method)))
        plans: list[Any] = []
        plan_from_corpus = errkb.site.plan.plan_from_corpus

        def keep_plan(*args: Any, **kwargs: Any) -> Any:
            plans.append(plan_from_corpus(*args, **kwargs))
            return plans[-1]

        errkb.site.plan.plan_from_corpus = keep_plan
        api: Any = errkb.site.api  # matcher_data is imported there, not exported
        api.matcher_data = clock.wrap("matcher_data", api.matcher_data)
    w, c = time.perf_counter(), time.process_time()
    config = load_config(config_file, strict=True, site_dir=site_dir)
    if ours:
        for event, handlers in config.plugins.events.items():
            for k, handler in enumerate(handlers):
                code = getattr(handler, "__code__", None)
                if code is not None and code.co_filename.endswith("errkb_pages.py"):
                    handlers[k] = clock.wrap(f"hook:{event}", handler)
    build(config)
    clock.wall["total"] = time.perf_counter() - w
    clock.cpu["total"] = time.process_time() - c
    if ours and generate_to:
        from errkb.site.generate import write_generated

        clock.wrap("generate", write_generated)(plans[-1], Path(generate_to))
    import resource

    return {**clock.dump(), "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def edit_entry(path: Path) -> None:
    """Change one entry's prose, as a pull request would."""
    text = path.read_text(encoding="utf-8")
    # Prose a reader would edit; the summary has a length limit the edit could break.
    edited_text = re.sub(
        r"^cause: (?:[|>][-+]?\n\s+|[\"']|)", r"\g<0>Edited. ", text, count=1, flags=re.M
    )
    assert edited_text != text, "no cause block to edit"
    path.write_text(edited_text, encoding="utf-8")


def child_serve(config_file: str, site_dir: str, edit: str) -> dict[str, Any]:
    """What `mkdocs serve` does on a save: a fresh config and a full build, twice.

    The first build is the one serve makes at start; then one entry file is edited and the
    site is rebuilt exactly as serve's watcher does (with --dirty when ERRKB_DIRTY is set).
    """
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    _quiet()
    dirty = bool(os.environ.get("ERRKB_DIRTY"))
    url = "http://127.0.0.1:8000/errkb/"
    out: dict[str, Any] = {}
    edited = 0.0
    for step in ("start", "rebuild"):
        if step == "rebuild":
            time.sleep(0.05)  # mtimes: the edit is later than every page of the first build
            path = Path(edit)
            edit_entry(path)
            edited = path.stat().st_mtime
        w, c = time.perf_counter(), time.process_time()
        config = load_config(config_file, site_dir=site_dir)
        config.plugins.on_startup(command="serve", dirty=dirty)
        build(config, serve_url=url, dirty=dirty)
        out[step] = time.perf_counter() - w
        out[f"{step}_cpu"] = time.process_time() - c
    pages = list(Path(site_dir).rglob("*.html"))
    out["pages"] = len(pages)
    out["rewritten"] = sum(1 for p in pages if p.stat().st_mtime >= edited)
    return out


def _pythonpath() -> str:
    """This checkout first, so the children time this errkb whatever is installed."""
    return os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)


def run_child(args: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    full_env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "SOURCE_DATE_EPOCH": str(EPOCH),
        "PYTHONPATH": _pythonpath(),
        # Synthetic entries are measured (the entry-page weights below), not held to the
        # budget a reviewed entry is: one cloned from a heavy page would stop the build.
        "ERRKB_PAGE_BUDGET": "0",
        **(env or {}),
    }
    proc = subprocess.run(
        [sys.executable, __file__, "--child", *args],
        capture_output=True,
        text=True,
        env=full_env,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"child {args} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


# ---------------------------------------------------------------------------------------------
# Measuring a built site


INDEX_GLOBS = (
    "index.html",
    "errors/index.html",
    "errors/page/*/index.html",
    "engines/**/*.html",
    "categories/**/*.html",
    "gpus/index.html",
    "models/index.html",
)
# What a reader types first: words from a title every corpus has (entry 1 is the KV cache one).
SEARCH_QUERY = "no available memory for the cache blocks"


def _linked_assets(site: Path, page: Path) -> int:
    """Bytes of the stylesheets and scripts a page links (same site only)."""
    html = page.read_text(encoding="utf-8")
    total = 0
    for ref in re.findall(r'(?:href|src)="([^"]+\.(?:css|js))"', html):
        path = (page.parent / ref).resolve()
        if path.is_file() and path.is_relative_to(site.resolve()):
            total += path.stat().st_size
    return total


def first_search(site: Path, query: str = SEARCH_QUERY) -> dict[str, Any] | None:
    """What a reader's first search downloads: every /pagefind/ response while the search page
    answers `query` in headless Chromium (None without Chromium and playwright)."""
    if not (site / "pagefind" / "pagefind.js").is_file():
        return None
    try:
        from playwright.sync_api import sync_playwright

        from tests.browser import serve
    except ImportError:
        return None
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return None
    fetched: dict[str, int] = {}
    with serve(site) as base, sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-background-networking"]
        )
        page = browser.new_page()

        bodies: dict[str, bytes] = {}

        def on_response(response: Any) -> None:
            if "/pagefind/" in response.url:
                bodies[response.url.split("?")[0]] = response.body()

        page.on("response", on_response)
        page.goto(base + "search/?q=" + query.replace(" ", "+"))
        page.wait_for_selector(".errkb-search-list li", timeout=60_000)
        page.wait_for_timeout(500)
        results = page.locator(".errkb-search-list li").count()
        browser.close()
    fetched = {url: len(body) for url, body in bodies.items()}
    # Pagefind writes its index, fragments and WebAssembly gzipped already; a static host
    # (GitHub Pages) gzips the loader and worker scripts and the entry JSON on the wire.
    wire = sum(
        len(gzip.compress(body, mtime=0)) if url.endswith((".js", ".json")) else len(body)
        for url, body in bodies.items()
    )
    kinds: dict[str, int] = {}
    for url, size in fetched.items():
        name = url.rsplit("/", 1)[-1]
        kind = "index" if "/index/" in url else "fragment" if "/fragment/" in url else name
        kinds[kind] = kinds.get(kind, 0) + size
    return {
        "bytes": sum(fetched.values()),
        "wire": wire,
        "files": len(fetched),
        "results": results,
        "kinds": kinds,
    }


def site_sizes(site: Path, slugs: list[str]) -> dict[str, Any]:
    pages = [(site / "errors" / s / "index.html").read_bytes() for s in slugs]
    entry_sizes = [len(p) for p in pages]
    articles = [p.index(b"</article>") - p.index(b"<article") for p in pages]
    total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    html = [p for p in site.rglob("*.html")]
    biggest = max(html, key=lambda p: p.stat().st_size)
    indexes = sorted({p for g in INDEX_GLOBS for p in site.glob(g)})
    biggest_index = max(indexes, key=lambda p: p.stat().st_size)
    bundle = site / "pagefind"
    search_files = [p for p in bundle.rglob("*") if p.is_file()] if bundle.is_dir() else []
    material = site / "search" / "search_index.json"
    return {
        "entry_median": statistics.median(entry_sizes),
        "entry_max": max(entry_sizes),
        "entry_over": sum(n > ENTRY_PAGE_BUDGET for n in entry_sizes),
        "entry_gz_median": statistics.median(len(gzip.compress(p, mtime=0)) for p in pages),
        "article_median": statistics.median(articles),
        "home": (site / "index.html").stat().st_size,
        "index_max": (biggest_index.relative_to(site).as_posix(), biggest_index.stat().st_size),
        "index_pages": len(indexes),
        "assets": _linked_assets(site, site / "errors" / slugs[0] / "index.html"),
        "total": total,
        "files": sum(1 for p in site.rglob("*") if p.is_file()),
        "search_bundle": sum(p.stat().st_size for p in search_files),
        "search_files": len(search_files),
        "material_search": material.stat().st_size if material.is_file() else 0,
        "biggest_page": (biggest.relative_to(site).as_posix(), biggest.stat().st_size),
    }


def kb(n: float) -> str:
    return f"{n / 1024:,.1f} KB"


def mb(n: float) -> str:
    return f"{n / 1024 / 1024:,.1f} MB"


# ---------------------------------------------------------------------------------------------


def zensical_build(binary: str, config: Path, site: Path) -> dict[str, Any]:
    """Build the generated tree with Zensical (no hooks run; errkb's Markdown extension is
    imported from this checkout), timing it from outside like the other builds."""
    before = os.times()
    w = time.perf_counter()
    proc = subprocess.run(
        [binary, "build", "-f", str(config)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": _pythonpath(), "SOURCE_DATE_EPOCH": str(EPOCH)},
    )
    wall = time.perf_counter() - w
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    out: dict[str, Any] = {"wall": wall, "cpu": cpu, "ok": proc.returncode == 0}
    if proc.returncode != 0:
        out["error"] = (proc.stderr or proc.stdout)[-600:]
    built = config.parent / "site"
    if built.is_dir():
        shutil.rmtree(site, ignore_errors=True)
        shutil.move(str(built), site)
    return out


def measure(
    n: int,
    work: Path,
    seed: int,
    serve: bool,
    shape: str,
    skip_bare: bool = False,
    zensical: str | None = None,
) -> dict[str, Any]:
    t = time.perf_counter()
    repo = make_repo(work / f"repo-{n}", n, seed, shape)
    made = time.perf_counter() - t
    slugs = []
    for p in sorted((repo / "errors").glob("E*.yaml")):
        slugs.append(yaml.safe_load(p.read_text(encoding="utf-8"))["slug"])
    full = run_child(
        ["build", str(repo / "mkdocs.yml"), str(work / f"site-{n}"), "ours", str(work / f"gen-{n}")]
    )
    generate = full["wall"]["generate"]
    # The same build again: every entry is now in the content-addressed entry cache, as on a
    # contributor's machine and in `mkdocs serve` (CI's first build is the cold one above).
    warm = run_child(["build", str(repo / "mkdocs.yml"), str(work / f"warm-{n}"), "ours"])
    shutil.rmtree(work / f"warm-{n}", ignore_errors=True)
    # And once more after one entry changed, as a pull request's build with main's cache: only
    # what that entry touches misses the entry cache and the memos.
    edit_entry(repo / "errors" / f"E{n // 3:04d}.yaml")
    warm_edit = run_child(["build", str(repo / "mkdocs.yml"), str(work / f"warm-{n}"), "ours"])
    shutil.rmtree(work / f"warm-{n}", ignore_errors=True)
    if skip_bare:  # MkDocs' share of the full build stands in for the bare build
        fw, fc = full["wall"], full["cpu"]
        ours_w = sum(v for k, v in fw.items() if k.startswith("hook:"))
        ours_c = sum(v for k, v in fc.items() if k.startswith("hook:"))
        bare = {
            "wall": {"total": fw["total"] - ours_w},
            "cpu": {"total": fc["total"] - ours_c},
            "maxrss_mb": 0.0,
        }
        (work / f"bare-{n}").mkdir()
    else:
        bare = run_child(
            ["build", str(work / f"gen-{n}" / "mkdocs.yml"), str(work / f"bare-{n}"), "bare"]
        )
    sizes = site_sizes(work / f"site-{n}", slugs)
    sizes["first_search"] = first_search(work / f"site-{n}")
    bare_sizes = sizes if skip_bare else site_sizes(work / f"bare-{n}", slugs)
    zen = None
    if zensical:
        zen = zensical_build(zensical, work / f"gen-{n}" / "mkdocs.yml", work / f"zensical-{n}")
        if zen["ok"]:
            zen["sizes"] = site_sizes(work / f"zensical-{n}", slugs)
    result = {
        "n": n,
        "made": made,
        "full": full,
        "generate": generate,
        "warm": warm,
        "warm_edit": warm_edit,
        "bare": bare,
        "sizes": sizes,
        "bare_sizes": bare_sizes,
        "zensical": zen,
    }
    if serve:
        edit = str(repo / "errors" / f"E{n // 2:04d}.yaml")
        serve_site = str(work / f"serve-{n}")
        result["serve"] = run_child(["serve", str(repo / "mkdocs.yml"), serve_site, edit])
        result["serve_dirty"] = run_child(
            ["serve", str(repo / "mkdocs.yml"), serve_site + "-dirty", edit], {"ERRKB_DIRTY": "1"}
        )
    shutil.rmtree(work / f"gen-{n}")
    shutil.rmtree(work / f"bare-{n}")
    shutil.rmtree(work / f"zensical-{n}", ignore_errors=True)
    return result


def report(r: dict[str, Any]) -> None:
    n = r["n"]
    full, bare = r["full"], r["bare"]
    fw, fc = full["wall"], full["cpu"]
    hooks = [k for k in fw if k.startswith("hook:")]
    ours_w = sum(fw[k] for k in hooks)
    ours_c = sum(fc[k] for k in hooks)
    bare_w, bare_c = bare["wall"]["total"], bare["cpu"]["total"]
    s = r["sizes"]
    print(f"\n=== N = {n:,} entries ===")
    print(
        f"full build (ours + MkDocs)   {fw['total']:7.2f} s  [{fc['total']:.2f} s CPU]"
        f"  peak RSS {full['maxrss_mb']:.0f} MB"
    )
    print(
        f"bare build (generated tree)  {bare_w:7.2f} s  [{bare_c:.2f} s CPU]"
        + (
            f"  peak RSS {bare['maxrss_mb']:.0f} MB"
            if bare["maxrss_mb"]
            else "  (--skip-bare: the full build less our work)"
        )
    )
    print(
        f"our own work                 {ours_w:7.2f} s  [{ours_c:.2f} s CPU]"
        f"  = {100 * ours_w / bare_w:.1f}% of the bare build [{100 * ours_c / bare_c:.1f}% CPU]"
    )
    search_w = fw.get("hook:post_build", 0.0)
    print(
        f"  less the search index        {ours_w - search_w:7.2f} s"
        f"  = {100 * (ours_w - search_w) / bare_w:.1f}% (Pagefind, {search_w:.2f} s, replaces"
        " Material's search plugin, which the bare build no longer runs)"
    )
    for label, key in (
        ("again, entry cache warm", "warm"),
        ("again, one entry edited", "warm_edit"),
    ):
        ww = r[key]["wall"]
        warm_w = sum(v for k, v in ww.items() if k.startswith("hook:"))
        warm_search = ww.get("hook:post_build", 0.0)
        print(
            f"{label:<29}{warm_w:7.2f} s  = {100 * warm_w / bare_w:.1f}%;"
            f" less the search index {warm_w - warm_search:.2f} s"
            f" = {100 * (warm_w - warm_search) / bare_w:.1f}%"
            f" (load + validate {ww.get('load_corpus', 0.0):.2f} s, full build {ww['total']:.2f} s)"
        )
    parts = [
        ("load + validate (load_corpus)", "load_corpus"),
        ("entry pages (render)", "entry_pages"),
        ("index pages", "index_pages"),
        ("JSON API + matcher data", "api_files"),
        ("  of which matcher data", "matcher_data"),
        ("fit grid (load or compute)", "load_or_compute"),
        ("fit pages", "fit_pages"),
        ("fit assets", "fit_assets"),
        ("committed charts current?", "stale_charts"),
        ("hook on_config (plan, all above)", "hook:config"),
        ("hook on_files (add pages)", "hook:files"),
        ("hook on_page_markdown (tables)", "hook:page_markdown"),
        ("hook on_page_content (search marks)", "hook:page_content"),
        ("hook on_post_page (compact HTML)", "hook:post_page"),
        ("hook on_post_build (search index)", "hook:post_build"),
    ]
    ww, ew = r["warm"]["wall"], r["warm_edit"]["wall"]
    print(f"  {'(cold build; then warm, one entry edited)':<32}")
    for label, key in parts:
        if key in fw:
            print(
                f"  {label:<32} {fw[key]:6.2f} s  [{fc[key]:.2f} s CPU];"
                f" warm {ww.get(key, 0.0):.2f} s, edited {ew.get(key, 0.0):.2f} s"
            )
    print(
        f"per entry: full {1000 * fw['total'] / n:.2f} ms, bare {1000 * bare_w / n:.2f} ms,"
        f" ours {1000 * ours_w / n:.2f} ms"
    )
    print(f"errkb generate --out (write) {r['generate']:7.2f} s (from the full build's plan)")
    print(
        f"entry page HTML              median {kb(s['entry_median'])}, max {kb(s['entry_max'])};"
        f" {s['entry_over']:,} over the {ENTRY_PAGE_BUDGET // 1024} KB budget"
    )
    print(
        f"  of which content (<article>) median {kb(s['article_median'])};"
        f" gzipped page median {kb(s['entry_gz_median'])}"
    )
    print(f"largest page                 {s['biggest_page'][0]} {kb(s['biggest_page'][1])}")
    print(
        f"site                         {mb(s['total'])} in {s['files']:,} files"
        f" (bare build: {mb(r['bare_sizes']['total'])})"
    )
    print(
        f"home page                    {kb(s['home'])}; largest index page"
        f" {s['index_max'][0]} {kb(s['index_max'][1])} (of {s['index_pages']:,} index pages)"
    )
    print(f"CSS + JS an entry page links {kb(s['assets'])}")
    print(
        f"search bundle (Pagefind)     {mb(s['search_bundle'])} in {s['search_files']:,} files"
        + (
            f"; Material search_index.json {mb(s['material_search'])}"
            if s["material_search"]
            else ""
        )
    )
    fs = s.get("first_search")
    if fs:
        print(
            f"first search downloads       {kb(fs['bytes'])} in {fs['files']} files,"
            f" {kb(fs['wire'])} on the wire with the scripts gzipped"
            f" ({fs['results']} results shown for '{SEARCH_QUERY}')"
        )
        print("  " + ", ".join(f"{k} {kb(v)}" for k, v in sorted(fs["kinds"].items())))
    else:
        print("first search downloads       (not measured: needs Chromium and playwright)")
    zen = r.get("zensical")
    if zen:
        if zen["ok"]:
            zs = zen["sizes"]
            print(
                f"Zensical build (generated)   {zen['wall']:7.2f} s  [{zen['cpu']:.2f} s CPU]"
                f" = {zen['wall'] / bare_w:.2f}x the bare Material build;"
                f" entry page median {kb(zs['entry_median'])}, max {kb(zs['entry_max'])}"
            )
        else:
            print(f"Zensical build failed: {zen['error']}")
    if "serve" in r:
        sv, sd = r["serve"], r["serve_dirty"]
        for label, x in (("mkdocs serve", sv), ("mkdocs serve --dirty", sd)):
            print(
                f"{label}, edit one entry: first build {x['start']:.2f} s"
                f" [{x['start_cpu']:.2f} s CPU], rebuild {x['rebuild']:.2f} s"
                f" [{x['rebuild_cpu']:.2f} s CPU], {x['rewritten']:,} of {x['pages']:,}"
                " HTML files rewritten"
            )


def summary(results: list[dict[str, Any]]) -> None:
    print("\n=== Summary ===")
    print(
        "| N | full build | bare build | ours | ours/bare | ours/bare, warm, less search |"
        " the same, one entry edited |"
        " home / largest index page | entry page median / max (over 30 KB) | first search |"
        " Zensical |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        fw = r["full"]["wall"]
        ours = sum(v for k, v in fw.items() if k.startswith("hook:"))
        bare = r["bare"]["wall"]["total"]
        s = r["sizes"]
        fs = s.get("first_search")
        zen = r.get("zensical")
        zen_s = f"{zen['wall']:.1f} s" if zen and zen["ok"] else "n/a"
        ww = r["warm"]["wall"]
        warm = sum(v for k, v in ww.items() if k.startswith("hook:")) - ww.get(
            "hook:post_build", 0.0
        )
        ew = r["warm_edit"]["wall"]
        edit = sum(v for k, v in ew.items() if k.startswith("hook:")) - ew.get(
            "hook:post_build", 0.0
        )
        print(
            f"| {r['n']:,} | {fw['total']:.1f} s | {bare:.1f} s | {ours:.2f} s | "
            f"{100 * ours / bare:.1f}% | {100 * warm / bare:.1f}% | {100 * edit / bare:.1f}% | "
            f"{kb(s['home'])} / {kb(s['index_max'][1])} | "
            f"{kb(s['entry_median'])} / {kb(s['entry_max'])} ({s['entry_over']:,}) | "
            f"{kb(fs['bytes']) + ' (' + kb(fs['wire']) + ' gz)' if fs else 'n/a'} | "
            f"{zen_s} |"
        )
    if len(results) > 1:
        a, b = results[0], results[-1]
        scale = b["n"] / a["n"]

        def ours(r: dict[str, Any]) -> float:
            return sum(v for k, v in r["full"]["wall"].items() if k.startswith("hook:"))

        print(
            f"N x{scale:g}: full build x{b['full']['wall']['total'] / a['full']['wall']['total']:.1f},"
            f" bare build x{b['bare']['wall']['total'] / a['bare']['wall']['total']:.1f},"
            f" our work x{ours(b) / ours(a):.1f},"
            f" site x{b['sizes']['total'] / a['sizes']['total']:.1f}"
        )


def fit_grid() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "calc_grid.py")],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    print(f"\nfull fit grid (benchmarks/calc_grid.py): {proc.stdout.strip()}")


def profile_plan(n: int, work: Path, seed: int, shape: str) -> None:
    """cProfile the plan builder alone (what the hook's on_config runs) on n entries."""
    from errkb.site.plan import build_site_plan

    repo = make_repo(work / f"profile-{n}", n, seed, shape)
    settings = load_settings(repo, today=TODAY)
    prof = cProfile.Profile()
    prof.enable()
    plan = build_site_plan(settings)
    prof.disable()
    assert plan.ok, plan.diagnostics[:5]
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(35)
    print(out.getvalue())


def machine() -> None:
    import platform

    import material
    import mkdocs

    cpu = ""
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        cpu = next(
            (
                ln.split(":", 1)[1].strip()
                for ln in lscpu.splitlines()
                if ln.startswith("Model name")
            ),
            "",
        )
    except OSError:
        pass
    mem = ""
    try:
        meminfo = Path("/proc/meminfo").read_text()
        kib = int(re.search(r"MemTotal:\s+(\d+)", meminfo).group(1))  # type: ignore[union-attr]
        mem = f"{kib / 1024 / 1024:.1f} GiB"
    except (OSError, AttributeError):
        pass
    print(
        f"machine: {os.cpu_count()} CPUs ({cpu}), {mem} RAM, load average "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}; Python {platform.python_version()}, "
        f"MkDocs {mkdocs.__version__}, Material {material.__version__}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="e.g. 100,1000,5000")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--shape",
        choices=("rich", "light"),
        default="rich",
        help="entries like the real ones, or like the fixtures",
    )
    parser.add_argument("--serve", action="store_true", help="also time a serve rebuild")
    parser.add_argument("--profile", action="store_true", help="cProfile the plan builder")
    parser.add_argument(
        "--skip-bare",
        action="store_true",
        help="no bare build: compare our work with the rest of the full build instead",
    )
    parser.add_argument(
        "--keep", type=Path, help="work here and keep the trees (default: a temp dir)"
    )
    parser.add_argument(
        "--zensical",
        metavar="BIN",
        help="also build the generated tree with this zensical executable",
    )
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        if kind == "build":
            result = child_build(rest[0], rest[1], rest[2] == "ours", *rest[3:])
        else:
            result = child_serve(*rest)
        print(json.dumps(result))
        return
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s]
    if max(sizes) > 9_999:
        raise SystemExit("ids have four digits: at most 9,999 entries")
    machine()
    print(f"entries: {args.shape} (see --shape)")
    work = args.keep or Path(tempfile.mkdtemp(prefix="errkb-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        if args.profile:
            for n in sizes:
                profile_plan(n, work, args.seed, args.shape)
            return
        results = []
        for n in sizes:
            results.append(
                measure(n, work, args.seed, args.serve, args.shape, args.skip_bare, args.zensical)
            )
            report(results[-1])
        summary(results)
        fit_grid()
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
