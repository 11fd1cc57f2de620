"""The entry schema: one pydantic model per concept of an error entry.

Entries come from strangers' pull requests, so every text field is validated
here, before anything renders it: prose may use Markdown but never raw HTML,
attribute lists or non-https links, and plain-text fields may hold no markup.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import Annotated, Literal

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    HttpUrl,
    StringConstraints,
    ValidationInfo,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from errkb.entries.engines import BY_ID, ENGINES
from errkb.entries.jsregex import js_regex_error

CATEGORIES: dict[str, str] = {
    "memory": "Memory and KV cache",
    "driver": "Drivers, CUDA and hardware",
    "multi-gpu": "Multi-GPU and NCCL",
    "model": "Models, formats and tokenizers",
    "serving": "Serving and the engine process",
    "install": "Installation and platforms",
}
Category = Literal["memory", "driver", "multi-gpu", "model", "serving", "install"]

SEVERITIES: dict[str, str] = {
    "fatal": "The process exits or never starts",
    "error": "A request or operation fails; the process lives",
    "hang": "Nothing fails, nothing progresses",
    "warning": "Logged; work goes on, possibly degraded",
}
Severity = Literal["fatal", "error", "hang", "warning"]

# Where the error happens: the GPU back-end (or the CPU) that prints it or that it is about.
# An entry lists none when the back-end does not matter (a gated repository, a port in use).
PLATFORMS: dict[str, str] = {
    "cuda": "NVIDIA CUDA",
    "rocm": "AMD ROCm",
    "metal": "Apple Metal",
    "vulkan": "Vulkan",
    "sycl": "Intel (SYCL, oneAPI)",
    "cpu": "CPU only",
}
Platform = Literal["cuda", "rocm", "metal", "vulkan", "sycl", "cpu"]

# What applying a solution takes, and what it gives up: shown beside each solution's title
# and in the engine pages' triage, the way the better error sites show difficulty.
EFFORTS: dict[str, str] = {
    "setting": "a setting and a restart",
    "code": "a change to your code or requests",
    "reinstall": "a reinstall or another build",
    "model": "another model file or checkpoint",
    "system": "a driver, OS or container change",
    "hardware": "more or different hardware",
}
Effort = Literal["setting", "code", "reinstall", "model", "system", "hardware"]
TRADES: dict[str, str] = {
    "nothing": "nothing",
    "context": "context length",
    "throughput": "throughput",
    "latency": "latency",
    "concurrency": "requests at once",
    "quality": "output quality",
    "memory": "memory headroom",
}
Trade = Literal["nothing", "context", "throughput", "latency", "concurrency", "quality", "memory"]

ID_RE = r"^E[0-9]{4}$"
SLUG_RE = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
ANCHOR_RE = r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$"
# Section anchors of the page skeleton; a solution anchor may not take one.
RESERVED_ANCHORS = frozenset(
    {
        "top",
        "messages",
        "fit",
        "cause",
        "quick-check",
        "solutions",
        "example",
        "alternatives",
        "detection",
        "prevention",
        "related",
        "backlinks",
        "sources",
        "verified",
        "retired",
        "feedback",
        "permalink",
    }
)

# Raw HTML, HTML comments and processing instructions. Python-Markdown passes
# these through untouched, so they are refused rather than escaped.
_HTML_RE = re.compile(r"<\s*[a-zA-Z!/?]")
# attr_list syntax: `{: onclick=...}` or `{#id .cls key=val}` would let an entry set
# attributes on the elements around it.
_ATTR_LIST_RE = re.compile(r"\{\s*[:#.]|\{\s*[A-Za-z_-]+\s*=")
# Markdown links and images; the target must be an https:// URL.
_MD_LINK_RE = re.compile(r"\]\(\s*<?([^)\s>]*)")
_MD_REF_DEF_RE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
# A heading: an ATX line (`## x`), or a setext underline (`===`, `---`) under a line with text.
# The underline is found first and its line above read after: one regex spanning both lines
# backtracked over every character of every line (90% of validating an entry).
_ATX_HEADING_RE = re.compile(r"^ {0,3}#{1,6}(\s|$)", re.MULTILINE)
_SETEXT_UNDERLINE_RE = re.compile(r"^ {0,3}(=+|-+) *$", re.MULTILINE)


def has_heading(text: str) -> bool:
    if _ATX_HEADING_RE.search(text):
        return True
    for match in _SETEXT_UNDERLINE_RE.finditer(text):
        end = match.start() - 1  # the newline before the underline
        if end >= 0 and text[text.rfind("\n", 0, end) + 1 : end].strip():
            return True
    return False


_ENTITY_RE = re.compile(r"&#?[A-Za-z0-9]+;")
_AUTOLINK_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


# `[text](E0001)`: another entry, by id; the corpus check resolves it, the renderer links it.
ENTRY_LINK_TARGET_RE = re.compile(r"E\d{4}")
# Compiled once here: a corpus's own patterns soon evict re's shared cache of 512.
_NOT_NEWLINE_RE = re.compile(r"[^\n]")
_TAG_CHARS_RE = re.compile(r"[<>`]")
_BUILD_RE = re.compile(r"b[0-9]+")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _check_link_target(target: str) -> None:
    if _AUTOLINK_SCHEME_RE.match(target) and not target.lower().startswith("https://"):
        raise ValueError(f"link target {target!r} is not allowed: use an https:// URL")
    if not _AUTOLINK_SCHEME_RE.match(target) and not ENTRY_LINK_TARGET_RE.fullmatch(target):
        # A relative path or anchor names a file or heading of the generated site, which an
        # entry cannot see; a wrong one would break the strict build instead of this check.
        raise ValueError(
            f"link target {target!r} is a relative path: use an https:// URL, or another "
            "entry's id, as in [the KV cache entry](E0001)"
        )


_FENCE_RE = re.compile(
    r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?^ {0,3}\1[`~]* *$", re.MULTILINE | re.DOTALL
)
_CODE_SPAN_RE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)


def blank_code(value: str) -> str:
    """The prose with code blocks and spans blanked: code renders escaped, so anything goes
    there. Blanks keep the length and the line breaks, so positions still match `value`."""

    if "`" not in value and "~~~" not in value:
        return value  # no code: neither pattern can match

    def blank(match: re.Match[str]) -> str:
        return _NOT_NEWLINE_RE.sub(" ", match.group(0))

    return _CODE_SPAN_RE.sub(blank, _FENCE_RE.sub(blank, value))


def _prose(value: str) -> str:
    """Markdown prose from an entry: structure yes, markup injection no."""
    text = blank_code(value)
    if _HTML_RE.search(text):
        raise ValueError("raw HTML is not allowed in entry text; put literal text in `backticks`")
    if _ATTR_LIST_RE.search(text):
        raise ValueError("attribute lists ({: ...} / {#...}) are not allowed in entry text")
    if "![" in text:
        # An image loads from a third-party server the moment a reader opens the page.
        raise ValueError("images are not allowed in entry text; link to the picture instead")
    if has_heading(text):
        # Headings feed the table of contents, which themes insert unescaped; the page
        # skeleton provides every heading an entry needs.
        raise ValueError("headings are not allowed in entry text; the page provides its sections")
    for match in _MD_LINK_RE.finditer(text):
        _check_link_target(match.group(1))
    for match in _MD_REF_DEF_RE.finditer(text):
        _check_link_target(match.group(1))
    return value.strip()


def _plain(value: str) -> str:
    """Single-line text shown in titles, tables and meta tags."""
    if "\n" in value.strip():
        raise ValueError("must be a single line")
    if _TAG_CHARS_RE.search(value) or _ENTITY_RE.search(value):
        # Themes insert page titles unescaped: keep anything that could become a tag out.
        raise ValueError("must be plain text: no <, >, backticks or HTML entities")
    return value.strip()


def _specifier(value: str) -> str:
    if value.strip() == "*":
        return "*"
    try:
        SpecifierSet(value)
    except InvalidSpecifier:
        raise ValueError(
            f"{value!r} is not a PEP 440 version range (e.g. '>=0.6.0,<0.8.0', or '*')"
        ) from None
    return value.strip()


def _version(value: str) -> str:
    # llama.cpp releases are build numbers such as b4567; everything else is PEP 440.
    if _BUILD_RE.fullmatch(value):
        return value
    try:
        Version(value)
    except InvalidVersion:
        raise ValueError(
            f"{value!r} is not a version: use PEP 440 (0.8.5) or a llama.cpp build (b4567)"
        ) from None
    return value


def _attribute_safe(value: str) -> str:
    # The summary becomes <meta name="description" content="...">, which themes fill unescaped.
    if '"' in value:
        raise ValueError('must not contain " (use typographic quotes)')
    return value


Prose = Annotated[str, StringConstraints(min_length=1, max_length=20_000), AfterValidator(_prose)]
PlainLine = Annotated[str, StringConstraints(min_length=1, max_length=200), AfterValidator(_plain)]
Summary = Annotated[PlainLine, AfterValidator(_attribute_safe)]


def _engine(value: str) -> str:
    if value not in ENGINES:
        raise ValueError(f"unknown engine {value!r}: use one of {', '.join(ENGINES)}")
    return value


# An id from errkb/entries/engines.py; the JSON Schema lists them so editors complete them.
Engine = Annotated[
    str, AfterValidator(_engine), WithJsonSchema({"type": "string", "enum": list(ENGINES)})
]
VersionRange = Annotated[str, AfterValidator(_specifier)]
VersionStr = Annotated[str, AfterValidator(_version)]
EntryId = Annotated[str, StringConstraints(pattern=ID_RE)]
Slug = Annotated[str, StringConstraints(pattern=SLUG_RE, max_length=80)]
Anchor = Annotated[str, StringConstraints(pattern=ANCHOR_RE, max_length=48)]


def _https(url: HttpUrl) -> HttpUrl:
    if url.scheme != "https":
        raise ValueError("URL must use https://")
    return url


HttpsUrl = Annotated[HttpUrl, AfterValidator(_https)]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)


class Message(Model):
    """One wording of the error, exactly as an engine prints it."""

    text: Annotated[str, StringConstraints(min_length=8, max_length=2000)] = Field(
        description="The line as the engine prints it, copied verbatim (no paraphrase)."
    )
    engine: Engine
    versions: VersionRange = Field(
        description="PEP 440 range of engine versions that print this wording, or '*'."
    )
    source: HttpsUrl = Field(
        description="Where the text was copied from: the engine source at a tag, or a real paste."
    )
    generic: bool = Field(
        False,
        description=(
            "True for a line the program also prints for failures this entry does not cover"
            " (text-generation-webui's 'Failed to load the model.' for every loader): a log"
            " matched only by it gets this entry as a possible match, not a confident one."
        ),
    )

    @field_validator("text")
    @classmethod
    def _no_control_chars(cls, value: str) -> str:
        if _CONTROL_RE.search(value):
            raise ValueError("contains control characters (strip ANSI colours from pastes)")
        return value.strip("\n")


_JS_INCOMPATIBLE_RE = re.compile(r"\(\?P|\(\?#|\\[AZz]|\(\?[aiLmsux-]+[:)]|\*\+|\+\+|\?\+")


@functools.cache
def python_regex(source: str) -> re.Pattern[str]:
    """An entry pattern as Python matches it (per line, case-insensitive, ASCII classes)."""
    return re.compile(source, re.IGNORECASE | re.ASCII)


def _regex(value: str) -> str:
    # The same pattern runs in Python (errkb match) and in the browser; refuse what either lacks.
    try:
        python_regex(value)
    except re.error as exc:
        raise ValueError(f"is not a valid regular expression: {exc}") from None
    if (error := js_regex_error(value)) is not None:
        # The paste page compiles every pattern with `new RegExp`: one refused there breaks it.
        raise ValueError(f"JavaScript cannot compile this pattern: {error}")
    # What JavaScript compiles but reads otherwise (\A is a plain 'A' there).
    if _JS_INCOMPATIBLE_RE.search(value):
        raise ValueError(
            "uses syntax JavaScript does not share (named (?P groups, inline flags, \\A \\Z, possessive)"
        )
    return value


class MatchPattern(Model):
    """A regular expression for wordings too variable to list; matched case-insensitively per line."""

    regex: Annotated[str, StringConstraints(min_length=8, max_length=500), AfterValidator(_regex)]
    engine: Engine
    generic: bool = Field(
        False,
        description=(
            "True for a catch-all (the runner exited, whatever the reason after the colon):"
            " a log matched only by it gets this entry as a possible match, and it may match"
            " other entries' messages, which rank above it."
        ),
    )


class Command(Model):
    """A command for one engine, shown in that engine's tab."""

    engine: Engine
    versions: VersionRange = Field(description="Engine versions where every flag used exists.")
    lang: Literal["bash", "python", "yaml", "text", "powershell", "dockerfile"] = "bash"
    code: Annotated[str, StringConstraints(min_length=1, max_length=4000)]
    note: Prose | None = None


class Solution(Model):
    """One way out, with the commands per engine and what it costs."""

    anchor: Anchor = Field(
        description="Stable id of this solution; links point at it. Never rename."
    )
    title: PlainLine
    body: Prose
    commands: list[Command] = Field(default_factory=list)
    risk: Prose | None = Field(default=None, description="The trade-off this solution makes.")
    takes: Effort | None = Field(
        default=None,
        description="What applying it takes: setting, code, reinstall, model, system, hardware "
        "(required for new entries).",
    )
    trades: list[Trade] = Field(
        default_factory=list,
        description="What it gives up: context, throughput, latency, concurrency, quality, "
        "memory, or nothing (required for new entries).",
    )

    @field_validator("trades")
    @classmethod
    def _nothing_alone(cls, value: list[str]) -> list[str]:
        if "nothing" in value and len(value) > 1:
            raise ValueError("'nothing' cannot be listed with other trade-offs")
        if len(set(value)) != len(value):
            raise ValueError("a trade-off is listed twice")
        return value


class CodeSample(Model):
    lang: Literal["bash", "python", "yaml", "text", "json", "toml", "dockerfile"] = "bash"
    code: Annotated[str, StringConstraints(min_length=1, max_length=4000)]


class Example(Model):
    """The broken and the fixed configuration, side by side."""

    broken: CodeSample
    fixed: CodeSample
    note: Prose | None = None


class Source(Model):
    title: PlainLine
    url: HttpsUrl


class Verified(Model):
    """When, by whom and against what the entry was last checked."""

    date: dt.date
    by: PlainLine = Field(description="Who checked it (GitHub handle or name).")
    versions: dict[Engine, VersionStr] = Field(
        min_length=1, description="Engine -> version the text was checked against."
    )
    how: Prose = Field(description="How it was checked: read the source at a tag, reproduced, ...")


class Retired(Model):
    """A tombstone: the page stays and its URLs keep working."""

    date: dt.date
    reason: Prose
    superseded_by: EntryId | None = None


class FitRequest(Model):
    """Ask for a table of the max context of models on common GPUs, computed at build time."""

    models: list[Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9.-]*$")]] = Field(
        default_factory=lambda: [
            "llama-3.1-8b",
            "qwen2.5-14b",
            "qwen3-32b",
            "gemma-2-27b",
            "llama-3.1-70b",
        ],
        min_length=1,
        max_length=8,
        description="Catalog model ids (calculators/data/models.yaml).",
    )
    engines: list[Engine] = Field(
        min_length=1,
        description="Engines whose settings get rows (vllm, sglang, llama.cpp, ollama).",
    )


class Entry(Model):
    """One error: its messages, why it happens, and how to get out of it."""

    id: EntryId = Field(description="Permanent id, never reused (like Rust's E0308).")
    slug: Slug = Field(
        description="Readable URL name: /errors/<slug>/. Renames need `former_slugs`."
    )
    former_slugs: list[Slug] = Field(
        default_factory=list, description="Slugs this entry had before; their URLs redirect here."
    )
    title: PlainLine
    summary: Summary = Field(description="One line for the triage table: what it means.")
    category: Category
    engines: list[Engine] = Field(min_length=1)
    severity: Severity
    platforms: list[Platform] = Field(
        default_factory=list,
        description="The back-ends where this error happens (cuda, rocm, metal, vulkan, sycl, "
        "cpu); none when it does not depend on the back-end.",
    )
    symptom: bool = Field(
        default=False,
        description="The error reports that something else failed first (the engine died after an "
        "OOM); when a log matches this and another entry, the other is ranked first.",
    )
    messages: list[Message] = Field(min_length=1)
    patterns: list[MatchPattern] = Field(
        default_factory=list, description="Extra regexes for the log matcher (rarely needed)."
    )
    cause: Prose
    quick_check: Prose | None = None
    solutions: list[Solution] = Field(min_length=1)
    alternatives: list[Solution] = Field(default_factory=list)
    example: Example | None = None
    detection: Prose | None = None
    prevention: Prose | None = None
    fit: FitRequest | None = Field(
        default=None, description="Show a max-context table of common models and GPUs."
    )
    related: list[EntryId] = Field(default_factory=list)
    sources: list[Source] = Field(min_length=1)
    verified: Verified
    retired: Retired | None = None

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> Entry:
        # errkb.entries.loader defers these rules to report each at its own field's line.
        if isinstance(info.context, dict) and info.context.get(DEFER_CROSS_FIELD):
            return self
        if problems := cross_field_problems(self):
            raise ValueError("; ".join(message for _, message in problems))
        return self


# Validation context key: skip Entry's cross-field rules (the caller runs cross_field_problems).
DEFER_CROSS_FIELD = "defer_cross_field"

Loc = tuple[str | int, ...]


def cross_field_problems(entry: Entry) -> list[tuple[Loc, str]]:
    """Rules across an entry's fields, each at the field it is about."""
    problems: list[tuple[Loc, str]] = []
    declared = set(entry.engines)
    used = {engine for loc, engine, _ in _ranges(entry) if loc[0] != "verified"}
    if missing := sorted(used - declared):
        problems.append(
            (("engines",), f"engines must list {', '.join(missing)} (used by messages or commands)")
        )
    problems += _below_floor(entry)
    seen: set[str] = set()
    for kind in ("solutions", "alternatives"):
        for i, solution in enumerate(getattr(entry, kind)):
            loc: Loc = (kind, i, "anchor")
            if solution.anchor in RESERVED_ANCHORS:
                problems.append(
                    (loc, f"solution anchors clash with page sections: {solution.anchor}")
                )
            elif solution.anchor in seen:
                problems.append(
                    (loc, f"solution anchors must be unique, repeated: {solution.anchor}")
                )
            seen.add(solution.anchor)
    for i, target in enumerate(entry.related):
        if target == entry.id:
            problems.append((("related", i), "related must not list the entry itself"))
    if len(set(entry.platforms)) != len(entry.platforms):
        problems.append((("platforms",), "platforms must not repeat a platform"))
    if entry.slug == "index":
        problems.append((("slug",), "'index' is reserved for the errors index page"))
    for i, slug in enumerate(entry.former_slugs):
        if slug == "index":
            problems.append((("former_slugs", i), "'index' is reserved for the errors index page"))
        if slug == entry.slug:
            problems.append((("former_slugs", i), "former_slugs must not contain the current slug"))
    return problems


def _ranges(entry: Entry) -> list[tuple[Loc, str, str]]:
    """Every (field, engine, version range) an entry names: messages, commands, verified."""
    named: list[tuple[Loc, str, str]] = [
        (("messages", i, "versions"), m.engine, m.versions) for i, m in enumerate(entry.messages)
    ]
    for kind in ("solutions", "alternatives"):
        for i, solution in enumerate(getattr(entry, kind)):
            named += [
                ((kind, i, "commands", j, "versions"), c.engine, c.versions)
                for j, c in enumerate(solution.commands)
            ]
    return named + [
        (("verified", "versions", e), e, f"=={v}") for e, v in entry.verified.versions.items()
    ]


def _below_floor(entry: Entry) -> list[tuple[Loc, str]]:
    """Version ranges that name releases older than their engine's first one."""
    problems: list[tuple[Loc, str]] = []
    for loc, engine, spec in _ranges(entry):
        floor = BY_ID[engine].floor
        if floor is None or spec.strip() == "*":
            continue
        bounds = [s.version.removesuffix(".*") for s in SpecifierSet(spec)]
        low = [b for b in bounds if Version(b) < Version(floor)]
        if low:
            problems.append(
                (
                    loc,
                    f"{ENGINES[engine]} has no release {low[0]} (its first is {floor}): these are"
                    " another library's versions; key them by that library's own engine",
                )
            )
    return problems
