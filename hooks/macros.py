"""mkdocs-macros module: only `define_env`, the part Zensical's macros also run.

Hand-written pages opt in with `render_macros: true`; generated pages never do.
"""

from __future__ import annotations

from typing import Any

from errkb.entries.schema import CATEGORIES, ENGINES


def define_env(env: Any) -> None:
    env.variables["errkb_engines"] = ENGINES
    env.variables["errkb_categories"] = CATEGORIES
