"""What the matcher reads of an entry: errkb's schema Entry has it, and the matcher stays
independent of how entries are loaded and checked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class _Text(Protocol):
    @property
    def text(self) -> str: ...
    @property
    def generic(self) -> bool: ...


class _Regex(Protocol):
    @property
    def regex(self) -> str: ...


class Entry(Protocol):
    """An entry, as the matcher reads it."""

    @property
    def id(self) -> str: ...
    @property
    def symptom(self) -> bool: ...
    @property
    def retired(self) -> object: ...
    @property
    def related(self) -> Sequence[str]: ...
    @property
    def messages(self) -> Sequence[_Text]: ...
    @property
    def patterns(self) -> Sequence[_Regex]: ...
    @property
    def title(self) -> str: ...
    @property
    def category(self) -> str: ...
    @property
    def summary(self) -> str: ...
    @property
    def detection(self) -> str | None: ...
