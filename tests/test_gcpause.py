"""The collector skips the site plan's objects while the build uses them, and a process that
plans again frees the earlier plan's cycles instead of keeping them."""

from __future__ import annotations

import gc
import weakref

from errkb.site.gcpause import collector_paused


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_a_plan_is_frozen_and_the_next_plan_frees_its_garbage() -> None:
    try:
        with collector_paused():
            assert not gc.isenabled()
            gone = weakref.ref(_Node())  # garbage made while planning
        assert gc.isenabled() and gc.get_freeze_count() > 0
        gc.collect()
        assert gone() is not None, "a collection walked the frozen plan"
        with collector_paused():
            assert gone() is None, "planning again kept the earlier plan's cycles"
    finally:
        gc.unfreeze()
