"""Results of pure functions of small inputs, kept on disk between builds.

Where the entry cache (`errkb.entries.cache`) keeps one file per entry, a memo keeps one file
per function: a dict from input to result under `.cache/errkb/memo/<name>.pickle`. Its
version is a digest of everything besides the input that decides a result (the function's
source, the data it reads), so a change to either starts an empty memo; each save keeps only
what that build asked for, so a memo does not grow with inputs nobody has any more. Only this
process's own results are ever written and read back, as with the entry cache; a file that
cannot be read is ignored and rewritten. `ERRKB_NO_CACHE` turns it off.

A memo is a `@persistent` function, whose results `remembered(root)` loads and saves around a
whole build or check (the command lint, the matcher's tokens, the pattern check's verdicts,
the id links of prose). With every entry but one unchanged, a build computes these for that
one entry only.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

MEMO_DIR = Path(".cache") / "errkb" / "memo"


def digest(paths: Iterable[Path], *extra: str) -> str:
    """A version string from files' names and bytes and any further strings."""
    h = hashlib.sha256()
    for text in extra:
        h.update(text.encode() + b"\0")
    for path in sorted(paths):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


class _Persistent(Generic[K, V]):
    """A pure function of one hashable argument, with its results remembered."""

    def __init__(self, fn: Callable[[K], V], name: str, sources: tuple[Path, ...]) -> None:
        self.fn, self.name, self.sources = fn, name, sources
        self.values: dict[K, V] = {}
        self.used: set[K] = set()
        self.computed = 0
        self.__doc__ = fn.__doc__

    def __call__(self, arg: K) -> V:
        return self.get(arg, lambda: self.fn(arg))

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The result for `key`, from `compute()` when it is not remembered. For results whose
        inputs are too large to be the key (an entry's page): `key` must decide the result,
        as digests of every input do."""
        self.used.add(key)
        try:
            return self.values[key]
        except KeyError:
            value = self.values[key] = compute()
            self.computed += 1
            return value

    def many(self, keys: Iterable[K]) -> list[V]:
        """`[self(k) for k in keys]` in one loop: the pattern check asks about 500,000 keys at
        5,000 entries, and two calls a key were most of its time."""
        values, used, fn = self.values, self.used, self.fn
        out: list[V] = []
        for key in keys:
            used.add(key)
            if key in values:
                out.append(values[key])
            else:
                value = values[key] = fn(key)
                self.computed += 1
                out.append(value)
        return out

    @functools.cached_property
    def version(self) -> str:
        # Once per process: the results in memory are those of the code this process runs,
        # even if the files change under a long `mkdocs serve`.
        return digest(self.sources, self.name)


_persistent: list[_Persistent[Any, Any]] = []
_depth = 0  # `remembered` inside `remembered` (a build loads the corpus) adds nothing


def persistent(name: str, *sources: Path) -> Callable[[Callable[[K], V]], _Persistent[K, V]]:
    """Remember a pure function's results in memory, and on disk between the builds that
    `remembered(root)` wraps. `sources`: the files whose code decides the results (the
    function's module and what it calls), digested into the memo's version. The function
    must return values nobody mutates: callers share them."""

    def wrap(fn: Callable[[K], V]) -> _Persistent[K, V]:
        memo: _Persistent[K, V] = _Persistent(fn, name, sources)
        _persistent.append(memo)
        return memo

    return wrap


def keyed(name: str, *sources: Path) -> _Persistent[Any, Any]:
    """A memo filled through `get(key, compute)`, remembered like `persistent` results."""

    def unkeyed(_: object) -> object:
        raise TypeError(f"memo {name!r} is filled through get(key, compute)")

    memo: _Persistent[Any, Any] = _Persistent(unkeyed, name, sources)
    _persistent.append(memo)
    return memo


@contextmanager
def remembered(root: Path) -> Iterator[None]:
    """Load every persistent memo's results from root's cache, and save them after."""
    global _depth
    if _depth or os.environ.get("ERRKB_NO_CACHE"):
        yield
        return
    for memo in _persistent:
        memo.used, memo.computed = set(), 0
        if memo.values:  # already in memory: this process built before (`mkdocs serve`)
            continue
        memo.values = read_memo(root / MEMO_DIR / f"{memo.name}.pickle", memo.version)
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
    for memo in _persistent:
        if not memo.used:  # not this run's business (`errkb check` tokenises no log)
            continue
        if not memo.computed and len(memo.used) == len(memo.values):
            continue
        memo.values = {k: memo.values[k] for k in memo.used}  # forget what no build asks for
        write_pickle(root / MEMO_DIR / f"{memo.name}.pickle", (memo.version, memo.values))


def read_memo(path: Path, version: str) -> dict[Any, Any]:
    """The results saved at `path` for this version; empty if none can be read."""
    try:
        with path.open("rb") as fh:
            saved, values = pickle.load(fh)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        return {}
    except (TypeError, ValueError):  # not a (version, dict) pair: an old or foreign file
        return {}
    return values if saved == version and isinstance(values, dict) else {}


def write_pickle(path: Path, value: object) -> None:
    """Write atomically (a reader sees the old file or the new one); errors are ignored."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        tmp.replace(path)
    except OSError:  # a read-only checkout works too, only without the memo
        pass
