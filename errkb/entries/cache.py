"""A content-addressed cache of loaded entries: unchanged YAML is not parsed or validated again.

The key is the file's bytes, its path and the source of the code that turns bytes into an
entry (this package), so any change to either misses the cache. Values are pickles under
`.cache/errkb/entries/` in the checkout (git-ignored; CI starts from a clean clone and fills
its own): only this process's own results are ever read back, never anything from a pull
request. A cache file that cannot be read is ignored and rewritten.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TypeVar

import pydantic

from errkb.memo import write_pickle

T = TypeVar("T")

CACHE_DIR = Path(".cache") / "errkb" / "entries"

# The same results kept in memory for the process: `mkdocs serve` loads the corpus on every
# save, and unpickling 1,000 entries costs more than all the rest of an unchanged load.
_memory: dict[str, object] = {}
_MEMORY_MAX = 50_000


@cache
def code_version() -> str:
    """Digest of everything that decides what a file loads into."""
    digest = hashlib.sha256(pydantic.VERSION.encode())
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def cached(root: Path, rel: str, raw: bytes, compute: Callable[[], T]) -> T:
    """`compute()`'s result for this file's bytes, from the cache when it has it."""
    if os.environ.get("ERRKB_NO_CACHE"):
        return compute()
    key = hashlib.sha256(code_version().encode() + b"\0" + rel.encode() + b"\0" + raw).hexdigest()
    # Per checkout, like the files: the same bytes in another checkout fill that one's cache.
    memory_key = f"{_resolved(root)}\0{key}"
    if memory_key in _memory:
        return _memory[memory_key]  # type: ignore[return-value]
    path = root / CACHE_DIR / key[:2] / f"{key}.pickle"
    try:
        with path.open("rb") as fh:
            value: T = pickle.load(fh)
        _remember(memory_key, value)
        return value
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
        pass
    value = compute()
    _remember(memory_key, value)
    write_pickle(path, value)  # a read-only checkout loads too, only without the cache
    return value


@cache
def _resolved(root: Path) -> Path:
    return root.resolve()  # once per checkout, not per entry (a system call per path part)


def _remember(key: str, value: object) -> None:
    if len(_memory) >= _MEMORY_MAX:
        _memory.clear()
    _memory[key] = value
