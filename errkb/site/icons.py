"""The chrome's icons as one cached SVG sprite instead of inline copies in every page.

Material draws each header and button icon inline: about 3 KB of path data repeated in every
page a reader opens. The templates in hooks/overrides <use> symbols of this sprite instead,
built from the icons of the installed Material, so the drawing stays Material's.
"""

from __future__ import annotations

import re
from importlib import resources

SPRITE = "assets/images/icons.svg"

# Every icon hooks/overrides draws from the sprite (tests/test_site_build.py checks the pages
# ask for no other).
ICONS = (
    "material/library",  # the logo
    "material/menu",
    "material/brightness-7",
    "material/brightness-4",
    "material/magnify",
    "material/github",
    "material/file-edit-outline",
    "material/arrow-up",
)

_SVG_RE = re.compile(r"<svg\b[^>]*?\bviewBox=\"([^\"]+)\"[^>]*>(.*)</svg>", re.S)


def symbol_id(icon: str) -> str:
    return icon.replace("/", "-")


def _symbol(icon: str) -> str:
    path = resources.files("material") / "templates" / ".icons" / f"{icon}.svg"
    match = _SVG_RE.search(path.read_text(encoding="utf-8"))
    if match is None:
        raise ValueError(f"{icon}: not an SVG icon of the installed Material")
    view_box, body = match.groups()
    return f'<symbol id="{symbol_id(icon)}" viewBox="{view_box}">{body.strip()}</symbol>'


def sprite() -> str:
    symbols = "".join(_symbol(icon) for icon in ICONS)
    return f'<svg xmlns="http://www.w3.org/2000/svg">{symbols}</svg>\n'
