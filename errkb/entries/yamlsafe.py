"""Safe YAML loading that remembers where every value came from.

PyYAML composes the node tree (safe: no Python tags are ever constructed) and we
build plain Python values from it ourselves, so that we can refuse what the YAML
spec allows but an untrusted entry must not do: duplicate keys, alias bombs,
deep nesting, non-string keys and custom tags.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

try:  # libyaml's composer is several times faster; the pure one is equivalent
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

Loc = tuple[str | int, ...]

# Tag resolution is pure (SafeLoader has no path resolvers) and an entry repeats its keys and
# short values ("engine", "vllm", "bash"): remembered, it costs a dict lookup, not regexes.
_RESOLVED: dict[tuple[Any, str, Any], str] = {}
_RESOLVE_MAX_CHARS = 40
_RESOLVE_MAX_ENTRIES = 20_000


class _ResolvingLoader(_Loader):
    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if not isinstance(value, str) or len(value) > _RESOLVE_MAX_CHARS:
            return super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]
        key = (kind, value, implicit)
        tag = _RESOLVED.get(key)
        if tag is None:
            tag = super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]
            if len(_RESOLVED) < _RESOLVE_MAX_ENTRIES:
                _RESOLVED[key] = tag
        return tag


MAX_BYTES = 256 * 1024
MAX_DEPTH = 24
MAX_NODES = 50_000

_ALLOWED_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}


class YamlProblem(Exception):
    """A document that cannot become data; carries a 1-based position."""

    def __init__(self, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


@dataclass
class Located:
    """Plain data plus the (line, col) of every mapping key and value, 1-based."""

    data: Any
    keys: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    values: dict[Loc, tuple[int, int]] = field(default_factory=dict)

    def position(self, loc: Loc) -> tuple[int, int]:
        """Best position for a pydantic error location: the deepest known prefix."""
        for end in range(len(loc), -1, -1):
            prefix = loc[:end]
            if prefix in self.keys and end < len(loc):
                # The error is inside this value (e.g. a missing sub-field): point at the key.
                return self.keys[prefix]
            if prefix in self.values:
                return self.values[prefix]
            if prefix in self.keys:
                return self.keys[prefix]
        return (1, 1)


_constructor = yaml.constructor.SafeConstructor()


# A tagged list or mapping (`!!python/object/apply:os.system [...]`) must not pass as plain data.
_COLLECTION_TAGS = frozenset({"tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"})


class _Builder:
    def __init__(self) -> None:
        self.nodes = 0
        self.out = Located(data=None)

    def build(self, node: yaml.Node, loc: Loc, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise YamlProblem(
                f"document expands to more than {MAX_NODES} values (alias bomb?)",
                node.start_mark.line + 1,
                node.start_mark.column + 1,
            )
        if depth > MAX_DEPTH:
            raise YamlProblem(
                f"nesting deeper than {MAX_DEPTH} levels",
                node.start_mark.line + 1,
                node.start_mark.column + 1,
            )
        self.out.values[loc] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.CollectionNode) and node.tag not in _COLLECTION_TAGS:
            raise YamlProblem(
                f"tag {node.tag!r} is not allowed",
                node.start_mark.line + 1,
                node.start_mark.column + 1,
            )
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, loc, depth)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*loc, i), depth + 1) for i, item in enumerate(node.value)]
        assert isinstance(node, yaml.ScalarNode)
        if node.tag not in _ALLOWED_SCALAR_TAGS:
            raise YamlProblem(
                f"tag {node.tag!r} is not allowed",
                node.start_mark.line + 1,
                node.start_mark.column + 1,
            )
        if node.tag == "tag:yaml.org,2002:str":
            return node.value  # what SafeConstructor.construct_yaml_str returns
        # The tag's constructor called directly: construct_object would memoize every node in
        # the shared constructor, a leak that grows with the corpus and with each serve rebuild.
        # A datetime where a date is expected is left for pydantic to report.
        return _constructor.yaml_constructors[node.tag](_constructor, node)

    def _mapping(self, node: yaml.MappingNode, loc: Loc, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise YamlProblem(
                    "merge keys (<<) are not allowed",
                    key_node.start_mark.line + 1,
                    key_node.start_mark.column + 1,
                )
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != "tag:yaml.org,2002:str":
                raise YamlProblem(
                    "mapping keys must be plain strings",
                    key_node.start_mark.line + 1,
                    key_node.start_mark.column + 1,
                )
            key = str(key_node.value)
            pos = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if key in result:
                first = self.out.keys[(*loc, key)]
                raise YamlProblem(f"duplicate key {key!r} (first defined on line {first[0]})", *pos)
            self.out.keys[(*loc, key)] = pos
            result[key] = self.build(value_node, (*loc, key), depth + 1)
        return result


def load_located(raw: bytes) -> Located:
    """Parse one YAML document from untrusted bytes into plain data with positions."""
    if len(raw) > MAX_BYTES:
        raise YamlProblem(f"file is {len(raw)} bytes; entries are limited to {MAX_BYTES}")
    if b"\x00" in raw:
        raise YamlProblem("file contains NUL bytes (binary file?)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise YamlProblem("file is not valid UTF-8", line) from None
    text = text.removeprefix("\ufeff")
    try:
        loader = _ResolvingLoader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = " ".join(p for p in (exc.context, exc.problem) if p)
        raise YamlProblem(f"invalid YAML: {what}", line, col) from None
    except yaml.YAMLError as exc:
        raise YamlProblem(f"invalid YAML: {exc}") from None
    if root is None:
        raise YamlProblem("file is empty")
    builder = _Builder()
    builder.out.data = builder.build(root, (), 0)
    return builder.out
