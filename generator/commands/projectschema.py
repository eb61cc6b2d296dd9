"""The schema of the project file `rulesheets.toml` (pydantic), apart from generator.commands.project
so that commands run without a project file never import pydantic."""

from __future__ import annotations

import difflib
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator


def _split(value: Any) -> Any:
    """`"bunco, tonk"` is taken like `["bunco", "tonk"]`, as on the command line."""
    if isinstance(value, str):
        return [v for v in value.replace(" ", ",").split(",") if v]
    return value


def _one_of(values: list[str], known, what: str) -> list[str]:
    known = tuple(known)
    for v in values:
        if v not in known:
            close = difflib.get_close_matches(v, known, n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise ValueError(f"unknown {what} '{v}' ({hint}known: {', '.join(known)})")
    if not values:
        raise ValueError(f"needs at least one of {', '.join(known)}")
    return list(dict.fromkeys(values))


def _games():
    from generator.core.registry import GAMES

    return GAMES


def _locales():
    from generator.core.paths import discover_locales

    return discover_locales()


def _build_option(name: str):
    def known():
        from generator.pipeline import build

        return getattr(build, name)
    return known


#: What each list key may hold: the same values as its command-line option.
_KNOWN = {"games": _games, "locales": _locales, "kinds": _build_option("KINDS"), "papers": _build_option("PAPERS"),
          "formats": _build_option("FORMATS")}


class ProjectFile(BaseModel):
    """The keys of rulesheets.toml, each checked as the matching command-line option is."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: Games to build (`--games`).
    games: list[str] | None = None
    #: Locales to build (`--locales`); one locale is also the kit's language.
    locales: list[str] | None = None
    #: Artifact kinds (`--kinds`).
    kinds: list[str] | None = None
    #: Papers (`--papers`); one paper is also the kit's paper.
    papers: list[str] | None = None
    #: Formats (`--formats`).
    formats: list[str] | None = None
    #: The group's name printed on the sheets (`--group`).
    group: str | None = None
    #: Tonk stake (`--stake`): a number, or a string like "2.50".
    stake: Decimal | None = None
    #: Currency of the stake (`--currency`).
    currency: str | None = None
    #: Where the site is published (`--base-url`).
    base_url: str | None = None
    #: The site's name (`--site-name`).
    site_name: str | None = None
    #: An image shown before the site's name (`--site-logo`), relative to the project file's folder.
    site_logo: str | None = None
    #: The output folder (`--out`), relative to the project file's folder.
    out: str | None = None
    #: PDFs for a print shop (`--press`): bleed, crop marks, PDF/X-4.
    press: bool | None = None
    #: House rules by game, as in a --house-rules file: [house-rules.bunco] wipeout = true.
    house_rules: dict[str, dict[str, Any]] = Field(default_factory=dict, alias="house-rules")

    @field_validator("games", "locales", "kinds", "papers", "formats", mode="before")
    @classmethod
    def _lists(cls, value):
        return _split(value)

    @field_validator("games", "locales", "kinds", "papers", "formats")
    @classmethod
    def _known(cls, value, info):
        """Each listed value must be one the matching option accepts (read when a project file is checked)."""
        return None if value is None else _one_of(value, _KNOWN[info.field_name](), info.field_name[:-1])

    @field_validator("stake", mode="before")
    @classmethod
    def _stake(cls, value):
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError("must be an amount like 10 or \"2.50\"")
        try:
            amount = Decimal(str(value))
        except InvalidOperation:
            raise ValueError(f"must be an amount like 10 or \"2.50\", got '{value}'") from None
        from generator.i18n.money import MAX_STAKE

        if not amount.is_finite() or amount <= 0 or amount != amount.quantize(Decimal("0.01")):
            raise ValueError(f"must be a positive amount with at most 2 decimals, got {value}")
        if amount > MAX_STAKE:
            raise ValueError(f"must be at most {MAX_STAKE:,}, got {value}")
        return amount

    @field_validator("group")
    @classmethod
    def _group(cls, value):
        if value is not None and (len(value) > 60 or any(ord(c) < 32 or ord(c) == 127 for c in value)):
            raise ValueError("must be at most 60 characters, without control characters, to fit on the sheets")
        return value

    @field_validator("currency")
    @classmethod
    def _currency(cls, value):
        from generator.edition.sheets import CURRENCIES

        return None if value is None else _one_of([value], CURRENCIES, "currency")[0]

    @field_validator("base_url")
    @classmethod
    def _base_url(cls, value):
        if value and not re.fullmatch(r"https?://[^\s\"'<>]+/", value):
            raise ValueError(f"must be an http(s) address ending in '/', got '{value}'")
        return value

    @field_validator("site_name")
    @classmethod
    def _site_name(cls, value):
        if value is not None and (not value.strip() or len(value) > 60 or any(c < " " for c in value)):
            raise ValueError("must be 1 to 60 characters on one line")
        return value

    @field_validator("out")
    @classmethod
    def _out(cls, value):
        if value is not None and (not value.strip() or "\0" in value):
            raise ValueError("must name a folder")
        return value

    @field_validator("site_logo")
    @classmethod
    def _site_logo(cls, value):
        # Whether the file is there and an image is checked by generator.commands.project, which knows the folder.
        if value is not None and (not value.strip() or "\0" in value):
            raise ValueError("must name an .svg, .png or .webp file")
        return value


