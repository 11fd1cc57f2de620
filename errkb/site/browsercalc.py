"""The calculator in the reader's browser: Pyodide (from the npm registry) running the same
`calculators` package, so a pasted config.json is answered by `errkb calc` itself, not by a
second implementation of its formulas in JavaScript (issue 15).

The build ships two things under `assets/pyodide/`: Pyodide's runtime, fetched once with
`npm pack` at a pinned version and checked against the registry's integrity hash, and a zip of
the `calculators` package with its data as JSON and Click, which its CLI is written in. The
"Will it run?" page loads them only when a reader asks for a model the catalog lacks.

Without npm the build still succeeds: the page says the in-browser calculator is not in this
build and prints the `errkb calc` command instead.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import logging
import os
import shutil
import subprocess
import tarfile
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import yaml

from calculators.grid import source_key
from errkb.memo import digest

log = logging.getLogger("mkdocs.hooks.errkb.browsercalc")

PYODIDE_VERSION = "314.0.7"
# `npm view pyodide@314.0.7 dist.integrity`: the tarball is checked before anything is used.
PYODIDE_INTEGRITY = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
# What `loadPyodide()` fetches at start-up; the type definitions and source maps stay out.
RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
SITE_DIR = f"assets/pyodide/{PYODIDE_VERSION}"
RUNTIME_JSON = "api/v1/fit/runtime.json"
# The only data file `errkb calc --config` reads; the model catalog stays server-side.
DATA_FILES = ("gpus.yaml",)


@dataclass(frozen=True)
class BrowserCalc:
    """Site path -> file to copy, and the JSON that tells the page where they are."""

    files: dict[str, Path]
    runtime_json: str


class RuntimeUnavailable(RuntimeError):
    pass


def _npm() -> str | None:
    return shutil.which("npm")


def default_cache() -> Path:
    """Per user, not per checkout: test builds in temporary copies reuse one download."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "errkb" / "pyodide"


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def fetch_runtime(cache: Path) -> Path:
    """Pyodide's runtime files in `cache`, fetched with `npm pack` the first time."""
    target = cache / f"pyodide-{PYODIDE_VERSION}"
    if all((target / name).is_file() for name in RUNTIME_FILES):
        return target
    npm = _npm()
    if npm is None:
        raise RuntimeUnavailable("npm is not installed")
    cache.mkdir(parents=True, exist_ok=True)
    try:
        proc = subprocess.run(
            [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent", "--pack-destination", cache],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RuntimeUnavailable(f"npm pack failed: {exc}") from None
    tarball = cache / f"pyodide-{PYODIDE_VERSION}.tgz"
    if proc.returncode != 0 or not tarball.is_file():
        raise RuntimeUnavailable(f"npm pack failed: {proc.stderr.strip()[:300]}")
    data = tarball.read_bytes()
    tarball.unlink()
    if _integrity(data) != PYODIDE_INTEGRITY:
        raise RuntimeUnavailable(f"pyodide {PYODIDE_VERSION} tarball failed its integrity check")
    partial = cache / f"pyodide-{PYODIDE_VERSION}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir()
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for name in RUNTIME_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise RuntimeUnavailable(f"pyodide tarball has no {name}")
            (partial / name).write_bytes(member.read())
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)
    return target


def _package_files(package: str) -> list[tuple[str, bytes]]:
    root = Path(str(resources.files(package)))
    return [
        (f"{package}/{p.relative_to(root).as_posix()}", p.read_bytes())
        for p in sorted(root.rglob("*.py"))
        if "__pycache__" not in p.parts
    ]


def calculators_zip() -> bytes:
    """The `calculators` package and Click, byte-reproducible (fixed times, sorted names).

    The data goes in as JSON: Pyodide's core has no PyYAML, and `read_data` prefers a JSON
    twin when one sits beside the YAML."""
    members = _package_files("calculators") + _package_files("click")
    data = resources.files("calculators").joinpath("data")
    for name in DATA_FILES:
        parsed = yaml.safe_load(data.joinpath(name).read_text("utf-8"))
        twin = json.dumps(parsed, sort_keys=True, separators=(",", ":")).encode("utf-8")
        members.append((f"calculators/data/{Path(name).stem}.json", twin))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, content in sorted(members):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, content)
    return out.getvalue()


def _zip_name(cache: Path) -> str:
    """The package zip's file name in `cache`, zipped only when its sources changed.

    Zipping at the highest compression takes a tenth of a second, so a build looks up the
    name it wrote last time for the same calculators, Click and zipping code."""
    key = digest([Path(__file__)], source_key(), _click_version())[:16]
    pointer = cache / f"errkb-calculators-{key}.name"
    try:
        name = pointer.read_text("utf-8").strip()
        if (cache / name).is_file():
            return name
    except OSError:
        pass
    package = calculators_zip()
    name = f"errkb-calculators-{hashlib.sha256(package).hexdigest()[:12]}.zip"
    zip_path = cache / name
    if not zip_path.is_file():
        zip_path.write_bytes(package)
    with contextlib.suppress(OSError):  # zipped again next time, nothing worse
        pointer.write_text(name + "\n", "utf-8")
    return name


def browser_calc(cache: Path | None = None) -> BrowserCalc:
    """Files for the site, and `runtime.json`; without a runtime, only a JSON that says so."""
    cache = cache or default_cache()
    try:
        runtime = fetch_runtime(cache)
    except RuntimeUnavailable as exc:
        log.info("errkb: in-browser calculator left out of this build (%s)", exc)
        return BrowserCalc({}, _runtime_json(None, None))
    name = _zip_name(cache)
    files = {f"{SITE_DIR}/{n}": runtime / n for n in RUNTIME_FILES}
    files[f"{SITE_DIR}/{name}"] = cache / name
    return BrowserCalc(files, _runtime_json(f"{SITE_DIR}/", f"{SITE_DIR}/{name}"))


def _runtime_json(runtime: str | None, package: str | None) -> str:
    data = {
        "pyodide": runtime,
        "pyodide_version": PYODIDE_VERSION if runtime else None,
        "calculators": package,
        "click_version": _click_version() if runtime else None,
    }
    return json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n"


def _click_version() -> str:
    from importlib.metadata import version

    return version("click")
