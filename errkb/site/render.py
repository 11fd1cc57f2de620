"""Entry -> Markdown page, with a fixed skeleton and an explicit anchor on every section.

Pure functions only: the same text comes out of the MkDocs hook and of
`errkb generate`. Entry prose was validated by the schema; every other piece of
entry text goes through `escape`, `code_span` or `fenced` here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from urllib.parse import urlencode

from errkb.entries.engines import ENGINES
from errkb.entries.links import resolve
from errkb.entries.schema import (
    CATEGORIES,
    EFFORTS,
    PLATFORMS,
    SEVERITIES,
    TRADES,
    Command,
    Entry,
    Solution,
)
from errkb.entries.urls import (
    API,
    category_uri,
    engine_uri,
    entry_uri,
    evidence_uri,
    short_uri,
    url_of,
)
from errkb.mdtext import code_span, escape, fenced, front_matter, indent, rel
from errkb.settings import Settings

# A generic error (a CUDA OOM) collects backlinks as the corpus grows; listing them all would
# make its page grow with the corpus. The JSON API document keeps the full list.
MAX_BACKLINKS = 20

Link = Callable[[str], str]  # prose -> prose with entry id links resolved for this page


def versions_label(spec: str) -> str:
    return "all versions" if spec == "*" else spec


def engine_links(page: str, engines: Iterable[str]) -> str:
    return ", ".join(f"[{escape(ENGINES[e])}]({rel(page, engine_uri(e))})" for e in engines)


def _meta_line(entry: Entry, page: str, settings: Settings) -> str:
    short = url_of(short_uri(entry.id))
    parts = [
        f"**{entry.id}**",
        f"[{escape(CATEGORIES[entry.category])}]({rel(page, category_uri(entry.category))})",
        engine_links(page, entry.engines),
        f"severity: *{entry.severity}* ({escape(SEVERITIES[entry.severity].lower())})",
        "on " + ", ".join(escape(PLATFORMS[p]) for p in entry.platforms)
        if entry.platforms
        else "any back-end",
        f"short link: [{settings.site_url}{short}]({settings.site_url}{short})",
    ]
    return " · ".join(parts)


def _messages(entry: Entry) -> str:
    out = ["## What you see { #messages }", ""]
    for message in entry.messages:
        label = f"{escape(ENGINES[message.engine])} {code_span(versions_label(message.versions))}"
        out += [
            f"{label} · [source]({message.source})",
            "",
            fenced(message.text, "text", css="errkb-message"),
            "",
        ]
    return "\n".join(out)


def _command_tabs(commands: list[Command], link: Link) -> str:
    # One tab per engine, labelled exactly as everywhere else so linked tabs keep the reader's engine.
    order: dict[str, list[Command]] = {}
    for command in commands:
        order.setdefault(command.engine, []).append(command)
    out: list[str] = []
    for engine, group in order.items():
        out += [f'=== "{ENGINES[engine]}"', ""]
        said = None  # a tab names a version range once for the commands that share it
        for command in group:
            if command.versions != said:
                label = (
                    f"For {escape(ENGINES[engine])} {code_span(versions_label(command.versions))}:"
                )
                out += [indent(label), ""]
                said = command.versions
            out += [fenced(command.code, command.lang, indent=4), ""]
            if command.note:
                out += [indent(link(command.note)), ""]
    return "\n".join(out)


def cost_line(solution: Solution) -> str | None:
    """ "Takes a setting and a restart · gives up context length", or None when unstated."""
    parts = []
    if solution.takes:
        parts.append(f"takes {EFFORTS[solution.takes]}")
    if solution.trades:
        parts.append("gives up " + ", ".join(TRADES[t] for t in solution.trades))
    return " · ".join(parts).capitalize() if parts else None


def _solution(number: int, solution: Solution, link: Link) -> str:
    out = [f"### {number}. {escape(solution.title)} {{ #{solution.anchor} }}", ""]
    if cost := cost_line(solution):
        out += [f"*{cost}.*", ""]
    out += [link(solution.body), ""]
    if solution.commands:
        out += [_command_tabs(solution.commands, link)]
    if solution.risk:
        out += ['!!! warning "Trade-off"', "", indent(link(solution.risk)), ""]
    return "\n".join(out)


def _linker(page: str, by_id: dict[str, Entry]) -> Link:
    """Prose with its entry-id links resolved relative to `page`."""

    def link(text: str) -> str:
        return resolve(text, lambda i: rel(page, entry_uri(by_id[i])) if i in by_id else None)

    return link


def _entry_link(page: str, entry: Entry) -> str:
    return f"[{entry.id}: {escape(entry.title)}]({rel(page, entry_uri(entry))})"


def verified_age(entry: Entry, settings: Settings) -> tuple[int, bool]:
    """Days from the entry's verification to this build, and whether that makes it stale."""
    age = (settings.build_date - entry.verified.date).days
    return age, age > settings.stale_after_days


def _against(entry: Entry) -> str:
    v = entry.verified
    return ", ".join(f"{escape(ENGINES[e])} {code_span(ver)}" for e, ver in v.versions.items())


def stale_note(settings: Settings) -> str:
    return (
        f"Entries older than {settings.stale_after_days} days are flagged for re-checking; "
        "engine wording and flags drift between releases."
    )


def _verified(entry: Entry, settings: Settings, link: Link) -> str:
    v = entry.verified
    age, stale = verified_age(entry, settings)
    kind, label = ("warning", "Possibly stale") if stale else ("success", "Verified")
    head = f"{label}: {v.date.isoformat()}, {age} days before this build"
    return "\n".join(
        [
            "## Last verified { #verified }",
            "",
            f'!!! {kind} "{head}"',
            "",
            indent(f"Checked by {escape(v.by)} against {_against(entry)}."),
            "",
            indent(link(v.how)),
            "",
            *([indent(stale_note(settings)), ""] if stale else []),
        ]
    )


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


# The page a reader lands on keeps the verdict (when, by whom, against what) and leaves the
# evidence (every source, the verification notes, the pages linking here) one link away: with
# them inline the longest entries ran past 50 KB of HTML, twice the budget of a page.
def _evidence_summary(entry: Entry, page: str, backlinks: int, settings: Settings) -> list[str]:
    v = entry.verified
    age, stale = verified_age(entry, settings)
    when = f"{v.date.isoformat()} ({age} days before this build)"
    what = [_plural(len(entry.sources), "source", "sources"), "how it was checked"]
    if backlinks:
        what.append(_plural(backlinks, "entry that links here", "entries that link here"))
    out = ["## Sources and verification { #sources data-search-exclude }", ""]
    if stale:
        out += ['!!! warning "Possibly stale"', "", indent(stale_note(settings)), ""]
    out += [
        f"Verified on {when} by {escape(v.by)} against {_against(entry)}.",
        "{ #verified }",
        "",
        f"[Evidence: {', '.join(what[:-1])} and {what[-1]}]({rel(page, evidence_uri(entry))})",
        "",
    ]
    return out


FEEDBACK_FORM = "page-feedback.yml"  # .github/ISSUE_TEMPLATE/: its fields ask the rest


def feedback_url(entry: Entry, settings: Settings) -> str:
    """A new issue in the feedback form, its title and entry field filled in: the form holds
    the questions, so the link on every page stays short."""
    query = urlencode(
        {
            "template": FEEDBACK_FORM,
            "title": f"[{entry.id}] feedback",
            "entry": f"{entry.id}, verified {entry.verified.date.isoformat()}",
        }
    )
    return f"{settings.repo_url}/issues/new?{query}"


# Sections that repeat other pages' words (related titles, sources, tables of numbers) stay
# out of the search index, so a search lands on the entry that is about the words.
def render_entry(
    entry: Entry,
    *,
    path: str,
    by_id: dict[str, Entry],
    backlinks: tuple[str, ...],
    settings: Settings,
    fit: str | None = None,
) -> str:
    """The page for one entry. `path` is the YAML file, `by_id` resolves related ids.

    `fit` is the computed max-context table the entry asked for (errkb.site.fitpages).
    """
    page = entry_uri(entry)

    link = _linker(page, by_id)

    meta = {
        "title": entry.title,
        "description": entry.summary,
        "render_macros": False,
        "errkb_id": entry.id,
    }
    out = [
        front_matter(meta),
        # A short anchor: the title's own slug was up to 190 characters, three times a page
        # (the heading, its permalink, the skip link), and links to the page's top need none.
        f"# {escape(entry.title)} {{ #top }}",
        "",
        escape(entry.summary),
        "",
        _meta_line(entry, page, settings),
        "",
    ]
    if entry.retired:
        r = entry.retired
        out += [f'!!! danger "Retired on {r.date.isoformat()}"', "", indent(link(r.reason)), ""]
        if r.superseded_by and r.superseded_by in by_id:
            out += [indent(f"Superseded by {_entry_link(page, by_id[r.superseded_by])}."), ""]
    out += [_messages(entry), "## Why it happens { #cause }", "", link(entry.cause), ""]
    if entry.quick_check:
        out += ["## Quick check { #quick-check }", "", link(entry.quick_check), ""]
    out += ["## How to fix it { #solutions }", ""]
    out += [_solution(i, s, link) for i, s in enumerate(entry.solutions, start=1)]
    if entry.example:
        ex = entry.example
        out += [
            "## Broken and fixed { #example }",
            "",
            "**Broken**",
            "",
            fenced(ex.broken.code, ex.broken.lang),
            "",
            "**Fixed**",
            "",
            fenced(ex.fixed.code, ex.fixed.lang),
            "",
        ]
        if ex.note:
            out += [link(ex.note), ""]
    if fit:
        out += [
            "## Will it fit? { #fit data-search-exclude }",
            "",
            "The longest context per sequence that fits, computed for each GPU and setting:",
            "",
            fit,
            "",
        ]
    if entry.alternatives:
        out += ["## Alternatives { #alternatives }", ""]
        out += [_solution(i, s, link) for i, s in enumerate(entry.alternatives, start=1)]
    if entry.detection:
        out += ["## Detection { #detection }", "", link(entry.detection), ""]
    if entry.prevention:
        out += ["## Prevention { #prevention }", "", link(entry.prevention), ""]
    out += ["## Related errors { #related data-search-exclude }", ""]
    related = [by_id[i] for i in entry.related if i in by_id]
    # Titles only: they name the error, and the summaries of fifteen neighbours made the
    # section the longest on a generic error's page.
    out += [f"- {_entry_link(page, r)}" for r in related] or ["None listed."]
    out += ["", *_evidence_summary(entry, page, len(backlinks), settings)]
    out += [
        "## Did this fix it? { #feedback data-search-exclude }",
        "",
        f"[Tell us in a pre-filled issue]({feedback_url(entry, settings)}) · "
        f"[Edit this entry]({settings.edit_url(path)}) · "
        f"[View the YAML]({settings.source_url(path)})",
        "",
        "Link to this page from an issue tracker:",
        "",
        fenced(
            f"[{entry.id}: {entry.title}]({settings.site_url}{url_of(short_uri(entry.id))})",
            "markdown",
        ),
        "",
    ]
    return "\n".join(out)


def render_evidence(
    entry: Entry,
    *,
    path: str,
    by_id: dict[str, Entry],
    backlinks: tuple[str, ...],
    settings: Settings,
) -> str:
    """The evidence behind an entry's page: its sources, how it was verified, who links here."""
    page = evidence_uri(entry)

    link = _linker(page, by_id)

    meta = {
        "title": f"Evidence for {entry.id}: {entry.title}",
        "description": f"Sources and verification of {entry.id}: {entry.summary}",
        "render_macros": False,
        "search": {"exclude": True},
    }
    out = [
        front_matter(meta),
        f"# Evidence for {entry.id}",
        "",
        f"The sources and the verification behind {_entry_link(page, entry)}.",
        "",
        "## Sources { #sources }",
        "",
        *(f"- [{escape(s.title)}]({s.url})" for s in entry.sources),
        "",
        _verified(entry, settings, link),
        "## Linked from { #backlinks }",
        "",
    ]
    linked = [by_id[i] for i in backlinks if i in by_id]
    out += [f"- {_entry_link(page, r)}" for r in linked[:MAX_BACKLINKS]] or [
        "No other entry links here yet."
    ]
    if len(linked) > MAX_BACKLINKS:
        doc = rel(page, f"{API}/entries/{entry.id}.json")
        out += [
            f"- and {len(linked) - MAX_BACKLINKS} more, all listed in [this entry's JSON]({doc})"
        ]
    out += [
        "",
        f"[Edit this entry]({settings.edit_url(path)}) · "
        f"[View the YAML]({settings.source_url(path)})",
        "",
    ]
    return "\n".join(out)
