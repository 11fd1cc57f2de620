"""The package's cited data files (``calculators/data/*.yaml``), parsed."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def read_data(name: str) -> Any:
    data = resources.files("calculators").joinpath("data")
    # The in-browser build (errkb/site/browsercalc.py) ships the data as JSON, because
    # Pyodide's core has no PyYAML; the repository holds only the YAML.
    twin = data.joinpath(name.rsplit(".", 1)[0] + ".json")
    if twin.is_file():
        return json.loads(twin.read_text("utf-8"))
    import yaml

    # libyaml parses the model catalog in a tenth of the pure-Python time, and every build
    # that draws the fit tables reads it; PyYAML without libyaml still works, only slower.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(data.joinpath(name).read_text("utf-8"), Loader=loader)
