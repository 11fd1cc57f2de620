"""Time the fit grid the site build computes: `calculators.grid.fit_grid`, every cell of
GPU x model x setting, from a cold process (imports and catalog loading timed apart)."""

from __future__ import annotations

import time


def main() -> None:
    t0 = time.perf_counter()
    from calculators.gpus import load_gpus
    from calculators.grid import CONTEXTS, fit_grid
    from calculators.models import load_catalog

    load_catalog()
    load_gpus()
    t1 = time.perf_counter()
    cells = fit_grid()
    t2 = time.perf_counter()
    print(
        f"{len(cells)} cells ({len(CONTEXTS)} contexts each) in {t2 - t1:.3f} s "
        f"({(t2 - t1) / len(cells) * 1e6:.0f} us a cell); imports and catalogs {t1 - t0:.3f} s"
    )


if __name__ == "__main__":
    main()
