"""A Python-Markdown extension that hands the fit pages' HTML tables to the output as is.

Python-Markdown runs every raw HTML block through the standard library's HTMLParser;
on the GPU and model pages, thousands of table cells made that most of what the pages
cost the build. These tables are built by `errkb.site.fitpages` from escaped text, so the
parse finds nothing to change: this extension stashes them unparsed. The HTML is the
same with or without it (a test converts every generated page both ways), so an engine
that does not load it still renders the pages, only slower.

Only tables that open with the exact line `OPEN` and close with `</table>` at the start
of a line are stashed, and only after fenced code has been set aside, so a table quoted
in a code block stays code.
"""

from __future__ import annotations

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

# A data attribute, not a class: Material styles only `table:not([class])`. Search skips
# the tables (thousands of figures and names that the page's own headings and prose name).
OPEN = '<table data-errkb="grid" data-pagefind-ignore>'
CLOSE = "</table>"
# After the fences (25: code blocks are already stashed), before the HTML parser (20).
PRIORITY = 22


class GridTableStash(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(lines):
            if lines[i] != OPEN:
                out.append(lines[i])
                i += 1
                continue
            try:
                end = lines.index(CLOSE, i + 1)
            except ValueError:  # unclosed: leave it to the HTML parser, which reports nothing
                out.extend(lines[i:])
                break
            # Blank lines around the placeholder make it a block of its own, as the HTML
            # block parser does for a block-level element.
            out += ["", self.md.htmlStash.store("\n".join(lines[i : end + 1]) + "\n"), ""]
            i = end + 1
        return out


class GridTablesExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        md.preprocessors.register(GridTableStash(md), "errkb_grid_tables", PRIORITY)


def makeExtension(**kwargs: object) -> GridTablesExtension:
    return GridTablesExtension(**kwargs)
