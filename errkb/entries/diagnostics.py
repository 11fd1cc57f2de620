"""Problems found in entries, and the two ways we print them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str  # relative to the repository root, with forward slashes
    line: int
    col: int
    field: str  # dotted location such as `solutions[0].commands[1].engine`, or "" for the file
    message: str

    def render(self) -> str:
        where = f"{self.field}: " if self.field else ""
        return f"{self.path}:{self.line}:{self.col}: {where}{self.message}"

    def render_github(self) -> str:
        # Workflow-command syntax: properties escape , and :, the message escapes newlines.
        title = _escape_property(f"errkb: {self.field}" if self.field else "errkb")
        message = _escape_data(self.message)
        path = _escape_property(self.path)
        return f"::error file={path},line={self.line},col={self.col},title={title}::{message}"


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


CONFLICT_MARKERS = ("<<<<<<<", "=======", ">>>>>>>", "|||||||")


def conflict_marker(line: str) -> bool:
    """A line git writes into a file it could not merge."""
    return any(
        line.startswith(m) and (len(line) == len(m) or line[len(m)] == " ")
        for m in CONFLICT_MARKERS
    )


def format_loc(loc: tuple[str | int, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def summary_table(diagnostics: list[Diagnostic]) -> str:
    """A Markdown table for $GITHUB_STEP_SUMMARY (annotations are capped per job)."""
    if not diagnostics:
        return "### errkb check\n\nNo problems found.\n"
    rows = [
        "### errkb check",
        "",
        f"{len(diagnostics)} problem(s).",
        "",
        "| File | Line | Field | Problem |",
        "|---|---|---|---|",
    ]
    for d in diagnostics:
        cells = (d.path, str(d.line), d.field or "", d.message)
        rows.append(
            "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"
        )
    return "\n".join(rows) + "\n"
