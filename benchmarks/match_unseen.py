"""How the matcher does on a wording it has never stored: a proxy built from tuning data alone.

Held-out pastes fail mostly where they carry a wording no entry stores (another release's,
a wrapper's); the calibration part cannot show that once its own misses have been mended.
So each paste of the calibration part and the suite is scored with every wording of its
labelled entry that matches it *on its own* taken out of that entry (messages, and patterns),
its text gone from the entry's second-stage document too: the entry must be found by its
other wordings, its title, summary and cause, or not at all. Near misses are scored as they
are. Prints the figures; asserts nothing. The second stage's thresholds (errkb/matcher.py,
LEXICAL_FLOOR) were set on these figures, never on the holdout.

Run from the repository root: python benchmarks/match_unseen.py   (a few minutes);
`--misses` also lists each paste whose entry is not first: entry, what ranked, the paste's line.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from errkb.match import lexical  # noqa: E402
from errkb.matcher import (  # noqa: E402
    CAP,
    Matcher,
    lexical_docs,
    lexical_texts,
    matcher_data,
    message_tokens,
)
from tests.test_match_figures import CORPUS, KNOWN, _cases  # noqa: E402

LIVE = [e for e in CORPUS.entries if not e.retired]
BASE = matcher_data(CORPUS.entries)
IDS: list[str] = BASE["lexical"]["ids"]
DOCS = lexical_docs(lexical_texts(LIVE))


# A matcher of a few wordings, its second stage off (no postings, floors at infinity).
_NO_LEXICAL = dict(BASE["lexical"], postings={}, floor=float("inf"), short_floor=float("inf"))


def _alone(entry_id: str, text: str, templates: list[Any], patterns: list[Any]) -> bool:
    """Whether these wordings of one entry, and nothing else, find it in the text."""
    m = Matcher(dict(BASE, templates=templates, patterns=patterns, lexical=_NO_LEXICAL))
    return any(x.entry_id == entry_id for x in m.match(text, top=5))


def ablated(text: str, entry_id: str) -> Matcher | None:
    """A matcher without the entry's wordings that match the text alone (None: no such one)."""
    entry = next(e for e in LIVE if e.id == entry_id)
    dropped: set[tuple[str, ...]] = set()
    drop_msgs: list[int] = []
    for k, message in enumerate(entry.messages):
        toks = list(message_tokens(message.text)[:CAP])
        mine = [t for t in BASE["templates"] if t["id"] == entry_id and t["tokens"] == toks]
        if mine and _alone(entry_id, text, mine, []):
            drop_msgs.append(k)
            dropped.add(tuple(toks))
    pats = [p for p in BASE["patterns"] if p["id"] == entry_id and _alone(entry_id, text, [], [p])]
    if not drop_msgs and not pats:
        return None
    d = dict(BASE)
    # Messages with the same first CAP tokens share a template and are dropped together.
    d["templates"] = [
        t for t in BASE["templates"] if not (t["id"] == entry_id and tuple(t["tokens"]) in dropped)
    ]
    d["patterns"] = [p for p in BASE["patterns"] if not (p["id"] == entry_id and p in pats)]
    docs = list(DOCS)
    i = IDS.index(entry_id)
    # lexical_texts puts the messages first, in order.
    docs[i] = [toks for k, toks in enumerate(DOCS[i]) if k not in drop_msgs]
    d["lexical"] = dict(BASE["lexical"], postings=lexical.build(docs))
    return Matcher(d)


def main(misses: bool = False) -> None:
    base = Matcher(BASE)
    unseen: Counter[str] = Counter()
    near: Counter[str] = Counter()
    for part in ("suite", "calibration"):
        for text, expected, _also in _cases(part):
            if expected is None:
                near["cases"] += 1
                found = base.match(text, top=5)
                near["given a page"] += bool(found)
                near["confidently"] += any(not x.possible for x in found)
                continue
            if expected not in KNOWN:
                continue
            unseen_matcher = ablated(text, expected)
            if unseen_matcher is None:
                unseen["no wording matched alone (left out)"] += 1
                continue
            ranked = unseen_matcher.match(text, top=5)
            ids = [x.entry_id for x in ranked]
            unseen["cases"] += 1
            unseen["top-1"] += ids[:1] == [expected]
            unseen["top-3"] += expected in ids[:3]
            unseen["no match"] += not ids
            unseen["another entry confidently first"] += bool(ranked) and (
                ids[0] != expected and not ranked[0].possible
            )
            if misses and ids[:1] != [expected]:
                shown = " ".join(f"{x.entry_id}{'?' if x.possible else ''}" for x in ranked[:3])
                line = text.strip().splitlines()[-1].strip()[:100]
                print(f"{part:<12}{expected}  ranked: {shown or '-':<20} {line}")
    n = unseen["cases"]
    print("suite + calibration, each paste without the wordings that match it (unseen wording):")
    for key in ("top-1", "top-3", "no match", "another entry confidently first"):
        print(f"  {key:<34}{unseen[key]:>4} / {n}  ({unseen[key] / n:.1%})")
    left = "no wording matched alone (left out)"
    print(f"  {left:<34}{unseen[left]:>4}")
    print(f"near misses, as they are: {near['cases']}")
    for key in ("given a page", "confidently"):
        print(f"  {key:<34}{near[key]:>4} / {near['cases']}  ({near[key] / near['cases']:.1%})")


if __name__ == "__main__":
    main(misses="--misses" in sys.argv[1:])
