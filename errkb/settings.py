"""Project settings shared by the hook, the CLI and the generator ([tool.errkb] in pyproject.toml)."""

from __future__ import annotations

import datetime as dt
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    root: Path
    repo_url: str
    branch: str
    site_url: str
    stale_after_days: int
    build_date: dt.date
    # ERRKB_TABLES=0 leaves out the fit pages and tables: for measuring what they cost.
    tables: bool = True
    # ERRKB_PAGE_BUDGET=0 leaves entry pages unchecked against their weight budget: for
    # benchmarks whose synthetic entries are measured, not reviewed (errkb/site/budget.py).
    page_budget: bool = True

    @property
    def errors_dir(self) -> Path:
        return self.root / "errors"

    def edit_url(self, path: str) -> str:
        return f"{self.repo_url}/edit/{self.branch}/{path}"

    def source_url(self, path: str) -> str:
        return f"{self.repo_url}/blob/{self.branch}/{path}"


def build_date() -> dt.date:
    """The date the site is built 'as of': SOURCE_DATE_EPOCH when set, so builds reproduce."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC).date()
    return dt.datetime.now(tz=dt.UTC).date()


def find_root(start: Path | None = None) -> Path:
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / "pyproject.toml").is_file() and (candidate / "errors").is_dir():
            return candidate
    raise FileNotFoundError(
        "not inside an errkb checkout (no pyproject.toml with errors/ beside it)"
    )


def load_settings(root: Path, *, today: dt.date | None = None) -> Settings:
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    conf = data.get("tool", {}).get("errkb", {})
    return Settings(
        root=root,
        repo_url=str(conf.get("repo_url", "https://github.com/errkb/errkb")).rstrip("/"),
        branch=str(conf.get("branch", "main")),
        site_url=str(conf.get("site_url", "https://errkb.github.io/errkb/")).rstrip("/") + "/",
        stale_after_days=int(conf.get("stale_after_days", 180)),
        build_date=today or build_date(),
        tables=os.environ.get("ERRKB_TABLES", "1") != "0",
        page_budget=os.environ.get("ERRKB_PAGE_BUDGET", "1") != "0",
    )
