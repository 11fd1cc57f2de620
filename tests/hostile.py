"""The hostile corpus: entries a stranger's pull request could carry, each with its verdict.

Every case is the valid fixture entry E0001 with one hostile change. A case is either
`rejected` (errkb check fails, naming the field, with the given words) or `inert` (the
check passes, the page builds, and the payload renders as text: no tag, attribute or URL
of its own reaches the HTML, and no script runs in a browser).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

BASE = (Path(__file__).parent / "fixtures" / "valid" / "E0001.yaml").read_text(encoding="utf-8")
# Payloads set this global or open a dialog; the browser test proves neither happens.
JS = "window.__pwned=1"


@dataclass(frozen=True)
class Case:
    name: str
    content: bytes
    rejected: str | None = None  # words the diagnostic must contain; None: inert
    symlink_to: str | None = None  # the case is a symbolic link to this path instead

    @property
    def inert(self) -> bool:
        return self.rejected is None and self.symlink_to is None


def swap(old: str, new: str) -> bytes:
    assert old in BASE, old
    return BASE.replace(old, new, 1).encode("utf-8")


CAUSE = "The KV cache is what remains after weights and activations. Here is `code` and a\n  [link](https://example.org/doc)."
BODY = "body: Raise the fraction of GPU memory the engine may use."
MSG = "ValueError: fixture message with {{ braces }} and `backticks` and <angle> | pipe"
CODE = "code: vllm serve some/model --gpu-memory-utilization 0.95"


def cause(text: str) -> bytes:
    return swap(CAUSE, text.replace("\n", "\n  "))


BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(8)
)

CASES: list[Case] = [
    # Markup in prose: refused with a message that says what to do instead.
    Case("script-tag", cause(f"<script>{JS}</script>"), "raw HTML is not allowed"),
    Case("img-onerror", swap(BODY, f'body: <img src=x onerror="{JS}">'), "raw HTML is not allowed"),
    Case(
        "iframe", cause('<iframe src="https://evil.example"></iframe>'), "raw HTML is not allowed"
    ),
    Case("html-comment", cause("<!-- hidden --> text"), "raw HTML is not allowed"),
    Case("svg-onload", cause(f"<svg/onload={JS}>"), "raw HTML is not allowed"),
    Case("spaced-tag", cause(f"< script >{JS}</ script >"), "raw HTML is not allowed"),
    Case("md-in-html", cause("<div markdown>**x**</div>"), "raw HTML is not allowed"),
    Case("javascript-link", cause("[click](javascript:alert(1))"), "use an https:// URL"),
    Case("javascript-link-caps", cause("[click]( JaVaScRiPt:alert(1))"), "use an https:// URL"),
    Case("data-link", cause("[x](data:text/html;base64,PHNjcmlwdD4=)"), "use an https:// URL"),
    Case("reference-link", cause("see [x]\n\n[x]: javascript:alert(1)"), "use an https:// URL"),
    Case("autolink-javascript", cause("<javascript:alert(1)>"), "raw HTML is not allowed"),
    Case("vbscript-link", cause("[x](vbscript:msgbox)"), "use an https:// URL"),
    Case("attr-list", cause('text\n{: onclick="' + JS + '" }'), "attribute lists"),
    Case("attr-list-id", cause("text {#main .x}"), "attribute lists"),
    Case("heading", cause("# Injected heading"), "headings are not allowed"),
    Case("setext-heading", cause("Injected\n======="), "headings are not allowed"),
    # Single-line fields that themes insert unescaped.
    Case(
        "title-tag",
        swap('title: "Fixture: KV cache too small"', 'title: "</title><script>x</script>"'),
        "must be plain text",
    ),
    Case(
        "title-entity",
        swap('title: "Fixture: KV cache too small"', 'title: "&lt;script&gt;"'),
        "must be plain text",
    ),
    Case(
        "summary-quote",
        swap("summary: The engine", 'summary: x" onmouseover="' + JS + '" The engine'),
        "must not contain",
    ),
    Case("verified-by-tag", swap("by: fixture", "by: <b>me</b>"), "must be plain text"),
    # URLs and identifiers that could escape their place.
    Case(
        "source-javascript",
        swap("url: https://example.org/issues/1", "url: javascript:alert(1)"),
        "not a valid URL",
    ),
    Case(
        "source-http",
        swap("url: https://example.org/issues/1", "url: http://example.org/x"),
        "https://",
    ),
    Case(
        "message-source-data",
        swap("source: https://example.org/issues/1", "source: data:text/html,x"),
        "not a valid URL",
    ),
    Case(
        "slug-traversal", swap("slug: fixture-kv-cache-too-small", "slug: ../../etc/passwd"), "slug"
    ),
    Case(
        "former-slug-traversal",
        swap(
            "slug: fixture-kv-cache-too-small",
            "slug: fixture-kv-cache-too-small\nformer_slugs: [../index]",
        ),
        "former_slugs",
    ),
    Case("id-traversal", swap("id: E0001", "id: ../E0001"), "id"),
    Case("anchor-quote", swap("anchor: raise-utilization", "anchor: 'x\" onclick=\"y'"), "anchor"),
    Case(
        "engine-injection",
        swap("engines: [vllm, llama.cpp]", 'engines: [vllm, "x\\"><script>"]'),
        "engines",
    ),
    # YAML itself.
    Case("alias-bomb", (BOMB + BASE).encode(), "alias bomb"),
    Case(
        "deep-nesting",
        BASE.replace("related: [E0002]", "related: " + "[" * 40 + "]" * 40).encode(),
        "nesting deeper",
    ),
    Case("huge-file", (BASE + "# " + "x" * 300_000 + "\n").encode(), "entries are limited to"),
    Case(
        "python-tag",
        BASE.replace("cause: |-", 'cause: !!python/object/apply:os.system ["id"]\nx: |-').encode(),
        "tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed",
    ),
    Case(
        "duplicate-key",
        swap("category: memory", "category: memory\ncategory: driver"),
        "duplicate key",
    ),
    Case("non-utf8", (BASE + "# caf\xe9 latin-1\n").encode("latin-1"), "not valid UTF-8"),
    Case("binary", b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)), "NUL bytes"),
    Case("symlink-out", b"", "symbolic links are not allowed", symlink_to="/etc/passwd"),
    # Accepted, and inert: code and messages render literally, macros do not run.
    Case(
        "message-script",
        swap(MSG, f"ValueError: <script>{JS}</script> and <img src=x onerror={JS}>"),
    ),
    Case(
        "message-fence-breakout",
        swap(f"      {MSG}", f"      ```\n      </code></pre><script>{JS}</script>\n      ```"),
    ),
    Case("command-closes-code", swap(CODE, f'code: "</code></pre><img src=x onerror=\\"{JS}\\">"')),
    Case("code-span-html", cause(f"Run `<script>{JS}</script>` and `<img src=x onerror={JS}>`.")),
    Case("fenced-html", cause(f"Example:\n\n```html\n<script>{JS}</script>\n```")),
    Case("macro-syntax", cause("{{ config.site_name }} {% include 'mkdocs.yml' %}")),
    Case("snippet-include", cause('--8<-- "/etc/passwd"\n\n--8<-- "mkdocs.yml"')),
    Case("link-title-breakout", cause(f'[a](https://example.org/x "t\\" onmouseover=\\"{JS}")')),
    Case(
        "https-image", cause("![pixel](https://evil.example/pixel.png)"), "images are not allowed"
    ),
]


def write_case(case: Case, errors_dir: Path) -> Path:
    path = errors_dir / "E0001.yaml"
    if path.exists() or path.is_symlink():
        path.unlink()
    if case.symlink_to:
        path.symlink_to(case.symlink_to)
    else:
        path.write_bytes(case.content)
    return path
