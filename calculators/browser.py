"""`errkb calc` as the "Will it run?" page runs it in Pyodide (errkb/site/browsercalc.py).

The page passes a pasted config.json (and, optionally, a safetensors index) with the same
options the terminal command takes; the CLI itself parses them, so the page cannot drift
from `errkb calc --config`.
"""

from __future__ import annotations

import io
import json
import tempfile
from contextlib import redirect_stdout
from pathlib import Path

import click

from calculators.cli import calc


def calc_json(config_text: str, args: list[str], index_text: str | None = None) -> str:
    """`errkb calc --config CONFIG ARGS --json`: `{"result": ...}` or `{"error": "..."}`."""
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "config.json"
        config.write_text(config_text, encoding="utf-8")
        argv = ["--config", str(config), *args, "--json"]
        if index_text is not None:
            index = Path(tmp) / "model.safetensors.index.json"
            index.write_text(index_text, encoding="utf-8")
            argv += ["--safetensors-index", str(index)]
        out = io.StringIO()
        try:
            with redirect_stdout(out):
                calc.main(argv, prog_name="errkb calc", standalone_mode=False)
        except click.ClickException as exc:
            # Paths are the page's temporary files: name what the reader pasted instead.
            message = exc.format_message().replace(str(config), "config.json")
            return json.dumps({"error": message.replace(tmp + "/", "")})
    return json.dumps({"result": json.loads(out.getvalue())})
