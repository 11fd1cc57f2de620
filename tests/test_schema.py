"""The entry models: what they accept, what they refuse, and the committed JSON Schema."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from errkb.cli import cli
from errkb.entries.schema import Entry
from tests.conftest import ROOT, fixture_text


def fixture_data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(fixture_text("E0001.yaml"))
    return data


def errors_for(**changes: Any) -> list[str]:
    data = fixture_data()
    data.update(changes)
    with pytest.raises(ValidationError) as info:
        Entry.model_validate(data)
    return [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in info.value.errors()]


def test_fixture_is_valid() -> None:
    entry = Entry.model_validate(fixture_data())
    assert entry.id == "E0001" and entry.solutions[0].anchor == "raise-utilization"


@pytest.mark.parametrize(
    ("cause", "needle"),
    [
        ("Run <script>alert(1)</script>", "raw HTML is not allowed"),
        ("<!-- hidden -->", "raw HTML is not allowed"),
        ("[click](javascript:alert(1))", "link target 'javascript:alert(1' is not allowed"),
        ("[x]( JavaScript:alert(1))", "is not allowed"),
        ("[x](data:text/html,hi)", "link target 'data:text/html,hi' is not allowed"),
        ("[ref]: javascript:alert(1)", "is not allowed"),
        ("Text\n{: onclick=alert(1) }", "attribute lists"),
        ("## Heading", "headings are not allowed"),
    ],
)
def test_prose_refuses_markup_injection(cause: str, needle: str) -> None:
    assert any(needle in e for e in errors_for(cause=cause))


@pytest.mark.parametrize(
    "cause",
    ["See [E0001](E0001.md).", "See [rel](../x.md).", "See [below](#fix).", "[ref]: E0002.md"],
)
def test_prose_refuses_relative_links(cause: str) -> None:
    # Entry pages are generated from slugs: a relative target passed this check and then
    # broke the strict build (E0075's first draft linked entries as `E0001.md`).
    assert any("is a relative path" in e for e in errors_for(cause=cause))


def test_prose_allows_markdown_and_https_links() -> None:
    cause = (
        "Use `a <b>` in code, **bold**, [doc](https://example.org/x), `[rel](../x.md)`.\n\n"
        "```bash\n# a shell comment, not a heading\necho '<tag>' {: x}\n```\n"
    )
    entry = Entry.model_validate({**fixture_data(), "cause": cause})
    assert "**bold**" in entry.cause


@pytest.mark.parametrize(
    ("field", "value", "needle"),
    [
        ("title", "A <b>title</b>", "must be plain text"),
        ("title", "Two\nlines", "must be a single line"),
        ("title", "&lt;script&gt;", "must be plain text"),
        ("summary", 'He said "hi"', "must not contain"),
        ("slug", "Has Spaces", "String should match pattern"),
        ("slug", "index", "reserved"),
        ("id", "E42", "String should match pattern"),
        ("category", "gpu", "Input should be"),
    ],
)
def test_plain_fields(field: str, value: str, needle: str) -> None:
    assert any(needle in e for e in errors_for(**{field: value}))


def test_engines_must_cover_messages_and_commands() -> None:
    assert any("engines must list llama.cpp" in e for e in errors_for(engines=["vllm"]))


def test_a_library_range_filed_under_transformers_is_refused() -> None:
    # E0331 once filed PEFT's releases under `transformers`, so its page read "Transformers
    # >=0.6.0"; each library now has its own key and the floor catches the next slip.
    data = fixture_data()
    message = {**data["messages"][0], "engine": "transformers", "versions": ">=0.6.0,<0.17.0"}
    data["messages"] = [*data["messages"], message]
    data["engines"] = [*data["engines"], "transformers"]
    with pytest.raises(ValidationError) as info:
        Entry.model_validate(data)
    assert "Transformers has no release 0.6.0 (its first is 2.0.0)" in str(info.value)
    message["engine"] = "peft"
    data["engines"] = [*data["engines"][:-1], "peft"]
    assert Entry.model_validate(data).messages[-1].engine == "peft"
    message.update(engine="transformers", versions=">=4.30,<5")
    data["engines"] = [*data["engines"][:-1], "transformers"]
    assert Entry.model_validate(data).messages[-1].versions == ">=4.30,<5"


def test_solution_anchor_must_not_clash_with_sections() -> None:
    data = fixture_data()
    data["solutions"][0]["anchor"] = "cause"
    with pytest.raises(ValidationError, match="clash with page sections: cause"):
        Entry.model_validate(data)


def test_version_fields() -> None:
    data = fixture_data()
    data["verified"]["versions"] = {"vllm": "latest"}
    with pytest.raises(ValidationError, match="'latest' is not a version"):
        Entry.model_validate(data)
    data["verified"]["versions"] = {"llama.cpp": "b4567", "vllm": "0.10.1.post1"}
    assert Entry.model_validate(data).verified.versions["llama.cpp"] == "b4567"


def test_committed_json_schema_is_current() -> None:
    result = CliRunner().invoke(cli, ["schema", "--check"])
    assert result.exit_code == 0, result.output


def test_every_entry_declares_the_schema_for_editors() -> None:
    modeline = "# yaml-language-server: $schema=../errkb/data/entry.schema.json"
    missing = [
        p.name
        for p in sorted((ROOT / "errors").glob("E*.yaml"))
        if modeline not in p.read_text(encoding="utf-8").splitlines()[:3]
    ]
    assert missing == []


def test_the_engine_registry_is_the_one_list() -> None:
    """errkb/entries/engines.py feeds the schema (and its JSON Schema), the flag lint and the
    flag extractor; nothing else keeps a list of engines."""
    import json

    from errkb.checks.flaglint import ENV_OWNERS, env_names
    from errkb.entries.engines import BY_ID, REGISTRY
    from errkb.entries.jsonschema import SCHEMA_PATH

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    enums = [
        prop["enum"]
        for d in schema["$defs"].values()
        for name, prop in d.get("properties", {}).items()
        if name == "engine"
    ]
    assert len(enums) >= 3  # Command, Message, MatchPattern
    assert all(e == [x.id for x in REGISTRY] for e in enums)
    assert {engine for _, engine in ENV_OWNERS} == {e.id for e in REGISTRY if e.env_prefixes}
    assert env_names("SGLANG_X=1 SGL_Y=2 VLLM_Z=3 -DGGML_CUDA=ON") == [
        "SGLANG_X",
        "SGL_Y",
        "VLLM_Z",
    ]
    assert BY_ID["vllm"].label == "vLLM"


# The one regex has_heading replaced (slow: it backtracked across every line).
_OLD_HEADING_RE = re.compile(r"^ {0,3}#{1,6}(\s|$)|\S[^\n]*\n {0,3}(=+|-+) *$", re.MULTILINE)


@given(st.text(alphabet=" =-#\n\r\ta\u00a0\x1c", max_size=40))
@settings(max_examples=3000, deadline=None)
def test_has_heading_agrees_with_the_single_regex(text: str) -> None:
    from errkb.entries.schema import has_heading

    assert has_heading(text) == bool(_OLD_HEADING_RE.search(text)), repr(text)


def test_platforms_are_known_and_listed_once() -> None:
    assert any("cuda" in e for e in errors_for(platforms=["metal", "opencl"]))
    assert any("must not repeat a platform" in e for e in errors_for(platforms=["cuda", "cuda"]))
    data = fixture_data()
    data["platforms"] = ["rocm", "cpu"]
    assert Entry.model_validate(data).platforms == ["rocm", "cpu"]
    assert Entry.model_validate(fixture_data()).platforms == []  # back-end independent
