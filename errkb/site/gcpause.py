"""Python's cyclic garbage collector, paused while the site plan is built (issue 17).

Building the plan allocates millions of small containers (postings, parsed YAML, pydantic
models) while thousands of long-lived entries are in memory, and each young collection that the
allocations trigger walks the older generations again as they fill: at 5,000 entries the
collector took half of the matcher data's time. Nothing the plan builds is a cycle to free
early, so the collector runs once, when the plan is done.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
