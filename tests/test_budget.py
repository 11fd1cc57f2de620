"""The entry-page weight budget (errkb/site/budget.py), on made-up pages."""

from __future__ import annotations

from errkb.site.budget import ENTRY_PAGE_BUDGET, over_budget


def page(cause: int, fixes: int) -> str:
    return (
        '<html><article><h1 id="t">T</h1><h2 id="cause">Why it happens</h2>'
        + "c" * cause
        + '<h2 id="solutions">How to fix it</h2>'
        + "f" * fixes
        + "</article></html>"
    )


def test_a_page_within_the_budget_passes() -> None:
    assert over_budget(page(1000, 1000), path="errors/E0001.yaml") is None


def test_a_page_over_the_budget_names_its_file_and_heaviest_sections() -> None:
    problem = over_budget(page(4000, ENTRY_PAGE_BUDGET), path="errors/E0001.yaml")
    assert problem is not None
    text = problem.render()
    assert text.startswith("errors/E0001.yaml:1:1: its page is 34.0 KB of HTML, over the 30 KB")
    assert "largest sections: How to fix it 30.0 KB, Why it happens 3.9 KB)" in text


def test_the_problem_points_at_the_field_behind_the_heaviest_section() -> None:
    lines = {"cause": (20, 8), "solutions": (41, 3)}
    problem = over_budget(
        page(4000, ENTRY_PAGE_BUDGET), path="errors/E0001.yaml", position=lines.__getitem__
    )
    assert problem is not None
    assert problem.render().startswith("errors/E0001.yaml:41:3: solutions: its page is 34.0 KB")


def test_the_reserve_covers_what_a_page_gains_when_its_entry_turns_stale() -> None:
    import datetime as dt
    from dataclasses import replace

    import markdown

    from errkb.checks.corpus import load_corpus
    from errkb.settings import load_settings
    from errkb.site.budget import stale_reserve
    from errkb.site.render import _evidence_summary, stale_note
    from tests.conftest import ROOT, TODAY

    settings = load_settings(ROOT, today=TODAY)
    entry = load_corpus(ROOT, today=TODAY, lock=None).corpus.entries[0]
    days = dt.timedelta(days=1)

    def html(build_date: dt.date) -> int:
        when = replace(settings, build_date=build_date)
        text = "\n".join(_evidence_summary(entry, "errors/x.md", 3, when))
        return len(markdown.markdown(text, extensions=["admonition", "attr_list"]).encode())

    fresh = html(entry.verified.date + days)  # a one-digit day count
    stale = html(entry.verified.date + 999 * days)  # the warning, and three digits
    assert stale > fresh
    assert stale - fresh <= stale_reserve(stale_note(settings))


def test_a_page_is_weighed_with_its_reserve() -> None:
    just_under = page(1000, ENTRY_PAGE_BUDGET - 1300)
    assert over_budget(just_under, path="errors/E0001.yaml") is None
    problem = over_budget(just_under, path="errors/E0001.yaml", reserve=400)
    assert problem is not None and "once its entry turns stale" in problem.message
