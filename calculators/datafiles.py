"""The package's cited data files (``calculators/data/*.yaml``), parsed."""

from __future__ import annotations

from importlib import resources
from typing import Any

import yaml

# libyaml parses the model catalog in a tenth of the pure-Python time, and every build
# that draws the fit tables reads it; PyYAML without libyaml still works, only slower.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_data(name: str) -> Any:
    text = resources.files("calculators").joinpath(f"data/{name}").read_text("utf-8")
    return yaml.load(text, Loader=_LOADER)
