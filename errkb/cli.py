"""`errkb`: check the corpus, publish ids, generate the site's pages without MkDocs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TextIO

import click

from calculators.grid import fit_grid
from errkb.checks.corpus import load_corpus
from errkb.checks.stale import load_releases, markdown_report, stale_entries
from errkb.entries.diagnostics import Diagnostic, summary_table
from errkb.entries.engines import ENGINES
from errkb.entries.jsonschema import SCHEMA_PATH, schema_text
from errkb.entries.lock import LOCK_PATH, Lock
from errkb.entries.scaffold import next_id, scaffold
from errkb.entries.schema import CATEGORIES, SEVERITIES
from errkb.entries.urls import entry_uri, url_of
from errkb.matcher import Matcher, matcher_data
from errkb.settings import Settings, find_root, load_settings

# The site stage (errkb.site) is imported inside the commands that build pages, so the
# core commands run with the base install (the site needs `pip install errkb[site]`).


def _settings(root: str | None) -> Settings:
    try:
        base = Path(root).resolve() if root else find_root()
    except FileNotFoundError as exc:
        raise click.UsageError(str(exc)) from None
    return load_settings(base)


def _report(diagnostics: list[Diagnostic] | tuple[Diagnostic, ...], fmt: str) -> None:
    for d in diagnostics:
        click.echo(d.render_github() if fmt == "github" else d.render())
    if fmt == "github" and (summary := os.environ.get("GITHUB_STEP_SUMMARY")):
        with open(summary, "a", encoding="utf-8") as fh:
            fh.write(summary_table(list(diagnostics)))


root_option = click.option(
    "--root",
    type=click.Path(file_okay=False, exists=True),
    help="Repository root (default: found from the current directory).",
)


@click.group()
def cli() -> None:
    """errkb: the local-LLM errors knowledge base."""


@cli.command()
@root_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["human", "github"]),
    default="human",
    help="github: workflow annotations on the pull-request diff, plus a job summary.",
)
@click.option(
    "--base",
    default=None,
    metavar="GIT_REF",
    help="Also check that the lock keeps every record of the lock at this git ref (CI: the "
    "branch a pull request merges into).",
)
def check(root: str | None, fmt: str, base: str | None) -> None:
    """Validate every entry, the corpus and the lock; print every problem, exit 1 if any.

    It builds no pages and no fit grid: the page-level checks (a published page still
    generated, the charts current) run in the build (`mkdocs build`, `errkb generate`).
    """
    settings = _settings(root)
    lock = Lock.read(settings.root)
    result = load_corpus(settings.root, today=settings.build_date, lock=lock)
    problems = result.diagnostics
    if base is not None:
        problems = sorted(set(problems) | set(lock.keeps(_lock_at(settings.root, base), base)))
    _report(problems, fmt)
    if problems:
        click.echo(f"{len(problems)} problem(s) found.", err=True)
        sys.exit(1)
    click.echo(f"{len(result.corpus.items)} entries OK.", err=True)


def _lock_at(root: Path, ref: str) -> Lock:
    """The lock as committed at a git ref (an empty one where the ref has none)."""
    proc = subprocess.run(
        ["git", "show", f"{ref}:{LOCK_PATH}"],
        cwd=root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    if proc.returncode != 0:
        if "exists on disk, but not in" in proc.stderr or "does not exist in" in proc.stderr:
            return Lock(exists=False)
        raise click.UsageError(f"--base {ref}: {proc.stderr.strip() or 'git show failed'}")
    base = Lock.parse_text(proc.stdout)
    if base.problems:
        raise click.UsageError(
            f"--base {ref}: its {LOCK_PATH} does not read: {base.problems[0].render()}"
        )
    return base


@cli.command()
@root_option
@click.option(
    "--title", prompt="Title (what the reader sees, e.g. 'vLLM: ...')", help="Page title."
)
@click.option(
    "--engine",
    type=click.Choice(sorted(ENGINES)),
    prompt="Engine",
    help="The engine that prints the message.",
)
@click.option(
    "--category", type=click.Choice(sorted(CATEGORIES)), prompt="Category", help="Index section."
)
@click.option(
    "--severity",
    type=click.Choice(sorted(SEVERITIES)),
    default="fatal",
    show_default=True,
    help="fatal, error, hang or warning.",
)
@click.option("--message", default=None, help="The exact line the engine printed.")
@click.option("--source", default=None, help="https:// link where that line was printed.")
def new(
    root: str | None,
    title: str,
    engine: str,
    category: str,
    severity: str,
    message: str | None,
    source: str | None,
) -> None:
    """Scaffold errors/<next id>.yaml; `errkb check` names each placeholder left to write."""
    settings = _settings(root)
    entry_id = next_id(settings.root)
    path = settings.errors_dir / f"{entry_id}.yaml"
    if source is not None and not source.startswith("https://"):
        raise click.BadParameter("must be an https:// link", param_hint="--source")
    text = scaffold(
        entry_id=entry_id,
        title=title,
        engine=engine,
        category=category,
        severity=severity,
        today=settings.build_date,
        message=message,
        source=source,
    )
    with open(path, "x", encoding="utf-8") as fh:  # never overwrite
        fh.write(text)
    click.echo(f"wrote {path.relative_to(settings.root).as_posix()}")
    click.echo("next: replace every 'FILL IN:' (errkb check lists them), then errkb lock", err=True)
    click.echo(
        f"(a pull request opened meanwhile may take {entry_id} too: after the merge, errkb check "
        "says so at file:line, and `errkb new` on an up-to-date branch gives a fresh id)",
        err=True,
    )


@cli.command()
@root_option
@click.option("--days", type=int, default=None, help="Age limit (default: stale_after_days).")
@click.option(
    "--format", "fmt", type=click.Choice(["human", "markdown"]), default="human", show_default=True
)
@click.option("--fail", is_flag=True, help="Exit 1 when any entry is stale.")
def stale(root: str | None, days: int | None, fmt: str, fail: bool) -> None:
    """List entries to re-verify: too old, or verified before an engine's newest release."""
    settings = _settings(root)
    result = load_corpus(settings.root, today=settings.build_date, lock=None, checks=False)
    found = stale_entries(
        [item.entry for item in result.corpus.items],
        today=settings.build_date,
        max_days=settings.stale_after_days if days is None else days,
        releases=load_releases(),
    )
    if fmt == "markdown":
        click.echo(
            markdown_report(found, site_url=settings.site_url, today=settings.build_date), nl=False
        )
    else:
        for item in found:
            click.echo(f"{item.entry.id} {item.entry.slug}: {item.why}")
    click.echo(f"{len(found)} of {len(result.corpus.items)} entries stale.", err=True)
    if fail and found:
        sys.exit(1)


@cli.command()
@root_option
@click.option("--check", "verify", is_flag=True, help="Fail if a committed chart is out of date.")
def charts(root: str | None, verify: bool) -> None:
    """Draw the GPU and model charts into docs/assets/charts/ (committed, like the schema)."""
    from errkb.site.charts import chart_specs
    from errkb.site.charts import stale as stale_charts
    from errkb.site.charts import write as write_charts
    from errkb.site.fitdata import fit_data

    settings = _settings(root)
    specs = chart_specs(fit_data(fit_grid()))
    if verify:
        if out_of_date := stale_charts(settings.root, specs):
            raise click.ClickException(
                f"{len(out_of_date)} chart(s) out of date, e.g. {out_of_date[0]}: run `errkb charts`"
            )
        click.echo(f"{len(specs)} charts are current", err=True)
        return
    changed = write_charts(settings.root, specs)
    click.echo(f"{len(changed)} of {len(specs)} charts written or removed", err=True)


@cli.command()
@root_option
def lock(root: str | None) -> None:
    """Record new ids, slugs and pages in errors/published.lock (append-only, a record a line)."""
    from errkb.site.plan import plan_from_corpus

    settings = _settings(root)
    current = Lock.read(settings.root)
    if current.problems:  # a conflicted or hand-broken lock: say where, rewrite nothing
        _report(current.problems, "human")
        sys.exit(1)
    result = load_corpus(settings.root, today=settings.build_date, lock=None)
    if not result.ok:
        _report(result.diagnostics, "human")
        sys.exit(1)
    plan = plan_from_corpus(result.corpus, settings, Lock())
    updated = current.updated(list(result.corpus.items), plan.index_urls())
    # What the update cannot fix (a deleted id, a slug renamed without former_slugs) still fails.
    present = {item.entry.id for item in result.corpus.items}
    problems = updated.check(list(result.corpus.items), present)
    problems += updated.check_pages(set(plan.index_urls()))
    if problems:
        _report(problems, "human")
        sys.exit(1)
    if current.exists and updated.dumps() == current.dumps():
        click.echo(f"{LOCK_PATH} is up to date", err=True)
        return
    updated.write(settings.root)
    click.echo(f"updated {LOCK_PATH}", err=True)


@cli.command()
@root_option
@click.option(
    "--out",
    required=True,
    type=click.Path(file_okay=False),
    help="Directory to write the site sources into (emptied first).",
)
def generate(root: str | None, out: str) -> None:
    """Write a hook-free site source tree to OUT: OUT/docs and OUT/mkdocs.yml.

    For site engines that read mkdocs.yml but run no hooks (Zensical):
    `zensical build -f OUT/mkdocs.yml`. Plain `mkdocs build -f OUT/mkdocs.yml` works too.
    """
    from errkb.site.generate import write_generated
    from errkb.site.markers import UnknownMarker
    from errkb.site.plan import build_site_plan

    settings = _settings(root)
    target = Path(out).resolve()
    if target == settings.root or target.is_relative_to(settings.root / "docs"):
        raise click.UsageError("--out must be outside the sources (use e.g. build/generated)")
    plan = build_site_plan(settings)
    if not plan.ok:
        _report(plan.diagnostics, "human")
        sys.exit(1)
    try:
        written = write_generated(plan, target)
    except UnknownMarker as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"wrote {written} pages and {len(plan.redirects)} redirects to {target}", err=True)


@cli.command("search-index")
@click.argument("site_dir", type=click.Path(exists=True, file_okay=False))
def search_index(site_dir: str) -> None:
    """Build the search index (Pagefind) of a built site into SITE_DIR/pagefind/.

    `mkdocs build` runs this itself; run it after a build by an engine that runs no hooks
    (Zensical: `zensical build -f OUT/mkdocs.yml`, then `errkb search-index OUT/site`).
    """
    from errkb.site.search import SearchIndexError, build_search_index

    try:
        index = build_search_index(Path(site_dir))
    except SearchIndexError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(
        f"indexed {index.pages} pages: {index.files} files, {index.bytes / 1e6:.1f} MB", err=True
    )


@cli.command()
@root_option
@click.argument("log", type=click.File("r", encoding="utf-8", errors="replace"), default="-")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of matches.")
@click.option("--top", default=3, show_default=True, type=click.IntRange(1, 50))
def match(root: str | None, log: TextIO, as_json: bool, top: int) -> None:
    """Find the entries for a pasted log (a file, or - for standard input)."""
    settings = _settings(root)
    result = load_corpus(settings.root, today=settings.build_date, lock=None, checks=False)
    if not result.ok:
        _report(result.diagnostics, "human")
        sys.exit(1)
    found = Matcher(matcher_data(result.corpus.entries)).match(log.read(), top=top)
    by_id = result.corpus.by_id()
    rows = [
        {
            "id": m.entry_id,
            "slug": by_id[m.entry_id].slug,
            "title": by_id[m.entry_id].title,
            "url": settings.site_url + url_of(entry_uri(by_id[m.entry_id])),
            "score": m.score,
            "line": m.line,
            "matched": m.matched,
            "possible": m.possible,
            "generic": m.generic,
        }
        for m in found
    ]
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if not rows:
        click.echo(
            "no match: this log matches no entry. Report it: " + settings.repo_url + "/issues/new"
        )
        return
    for row in rows:
        possible = (
            "  (possible match: a line printed for other errors too)"
            if row["generic"]
            else "  (possible match: its words, not its message)"
            if row["possible"]
            else ""
        )
        click.echo(
            f"{row['id']}  {row['score']:.2f}  line {row['line']}  {row['title']}{possible}\n"
            f"      {row['url']}"
        )
    if rows[0]["generic"]:
        click.echo(
            "only a line printed for other errors too matched: the real error is usually just"
            " above or below it. Report it: " + settings.repo_url + "/issues/new"
        )
    elif rows[0]["possible"]:
        click.echo(
            "no entry's message matches this log. Report it: " + settings.repo_url + "/issues/new"
        )


@cli.command()
@click.option("--check", "verify", is_flag=True, help="Fail if the committed schema is stale.")
def schema(verify: bool) -> None:
    """Write errkb/data/entry.schema.json from the models (or check that it is current)."""
    text = schema_text()
    if verify:
        current = SCHEMA_PATH.read_text(encoding="utf-8") if SCHEMA_PATH.exists() else ""
        if current != text:
            raise click.ClickException(f"{SCHEMA_PATH.name} is stale: run `errkb schema`")
        click.echo(f"{SCHEMA_PATH.name} is current", err=True)
        return
    SCHEMA_PATH.write_text(text, encoding="utf-8")
    click.echo(f"wrote {SCHEMA_PATH}", err=True)


def _register_calc() -> None:
    # The calculator CLI lives with its core; errkb only mounts it.
    from calculators.cli import calc

    cli.add_command(calc)


_register_calc()


def main() -> None:
    cli()


if __name__ == "__main__":
    main()
