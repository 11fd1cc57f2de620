"""Context: the phase a log was in decides between entries that share a wording.

The same CUDA OOM line is E0009 while weights load, E0008 during a long prompt, E0049 while
the sampler warms up. An entry's phases are those whose words its title holds; the log's
phase at a match is that of the first phase word on the nearest line that holds one.
Entries matched at the same line are ordered by whether their phase is the log's; where
none is, their linked siblings of the log's phase join them (see `context_links`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from errkb.match.entry import Entry

# Phase words; words are runs of letters, so "load_model" holds "load" and "request_id"
# "request". A log's phase is looked for up to CONTEXT lines from the match.
PHASES: dict[str, list[str]] = {
    "load": ["load", "loading", "loads", "loaded", "weight", "weights", "safetensors", "shards", "checkpoint", "loader"],
    "warmup": ["warming", "warm", "warmup", "dummy"],
    "serve": ["request", "requests", "prompt", "prompts", "prefill", "serving", "completions", "context", "decode", "generate"],
}  # fmt: skip
CONTEXT = 40

_LETTERS = re.compile(r"[a-z]+")


def phase_words(text: str) -> list[str]:
    """The phase of each phase word in `text` (lowercase), in order."""
    of = {w: phase for phase, ws in PHASES.items() for w in ws}
    return [of[w] for w in _LETTERS.findall(text.lower()) if w in of]


def entry_phases(title: str) -> list[str]:
    return sorted(set(phase_words(title)))


def context_links(entries: Sequence[Entry]) -> dict[str, list[str]]:
    """For each memory entry with a phase, the memory entries with a phase that it lists in
    `related` or that list it: the siblings a log's phase may point to instead.

    Only memory entries: one out-of-memory line is a different error by the phase it comes in
    (weights loading, a long prompt, the sampler warming up). Elsewhere two related entries
    with phase words in their titles print different lines, and a sibling injected by phase
    outranked the line's own entry (a PEFT adapter failing to load inside ComfyUI's prompt
    loop ranked "Transformers generate" first)."""
    phased = {e.id: e for e in entries if e.category == "memory" and entry_phases(e.title)}
    # Links in both directions, looked up by id: linear in the links, not phased x phased.
    linked: dict[str, set[str]] = {id_: set() for id_ in phased}
    for e in phased.values():
        for other in e.related:
            if other in phased and other != e.id:
                linked[e.id].add(other)
                linked[other].add(e.id)
    out: dict[str, list[str]] = {}
    for id_, e in phased.items():
        links = sorted(o for o in linked[id_] if phased[o].category == e.category)
        if links:
            out[id_] = links
    return out


def phase_at(lines: Sequence[str], line: int, phase_of: dict[str, str], reach: int) -> str | None:
    """The log's phase at a line (lowercase lines): the match's line first, then the lines
    before and after it, nearest first (before on a tie), up to `reach` lines away."""
    n = len(lines)
    for distance in range(reach + 1):
        for k in (line - distance, line + distance) if distance else (line,):
            if 0 <= k < n:
                for w in _LETTERS.findall(lines[k]):
                    phase = phase_of.get(w)
                    if phase is not None:
                        return phase
    return None
