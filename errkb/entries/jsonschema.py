"""The JSON Schema of an entry, for editors (yaml-language-server) and other tools.

Committed at errkb/data/entry.schema.json; `errkb schema --check` fails when it
no longer matches the models, like FastAPI's generate/verify pairs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from errkb.entries.schema import Entry

SCHEMA_PATH = Path(__file__).parents[1] / "data" / "entry.schema.json"


def entry_schema() -> dict[str, Any]:
    schema = Entry.model_json_schema(mode="validation")
    # yaml-language-server supports draft-07 best; pydantic's output uses only the subset the two
    # drafts share ($defs refs are plain JSON pointers), so we declare draft-07.
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://errkb.github.io/errkb/schema/entry.schema.json",
        **schema,
    }


def schema_text() -> str:
    return json.dumps(entry_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"
