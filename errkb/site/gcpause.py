"""Python's cyclic garbage collector, kept off the site plan (issue 17).

Building the plan allocates millions of small containers (postings, parsed YAML, pydantic
models) while thousands of long-lived entries are in memory, and each young collection that the
allocations trigger walks the older generations again as they fill: at 5,000 entries the
collector took half of the matcher data's time. So it is paused while the plan is built.

The plan then lives as long as the build, and a collection that walks it costs about 0.8 s at
5,000 entries: the first one after the pause (every object is young), and then every full
collection MkDocs' own allocations trigger, four in the time it takes to allocate two million
lists. So the plan's objects are frozen (`gc.freeze`) where the pause ends: later collections
walk only what was made after it. A process that plans again (`mkdocs serve`, the tests) first
unfreezes and collects once, so an earlier plan that is garbage is freed, not kept.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    if gc.get_freeze_count():
        gc.unfreeze()
        gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
