"""House rules as the user gives them (`--rule GAME.NAME=VALUE`, a TOML file), before any model is read.

Only parsing here: each value is checked against its game's model by edition.check_house_rule.
Kept apart from edition so the command line can key a build (and find it unchanged) without
loading the models.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from generator.core.errors import InputError, Problem


def parse_rule_options(options: list[str] | tuple[str, ...]) -> dict[str, dict[str, str]]:
    """`GAME.NAME=VALUE` strings, by game; the values are checked later against each model."""
    out: dict[str, dict[str, str]] = {}
    for option in options:
        m = re.fullmatch(r"([a-z][a-z-]*)\.([a-z_][a-z0-9_]*)=(.*)", option.strip())
        if not m:
            raise InputError(Problem("--rule", None, f"expected GAME.NAME=VALUE (like bunco.wipeout=true), got '{option}'"))
        out.setdefault(m.group(1), {})[m.group(2)] = m.group(3)
    return out


def read_house_rules(path: Path) -> dict[str, dict[str, Any]]:
    """A TOML file with one table per game: `[bunco]` `wipeout = true`."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(Problem(str(path), None, f"cannot read the house rules: {exc.strerror}")) from None
    except UnicodeDecodeError:
        raise InputError(Problem(str(path), None, "the house rules file is not UTF-8 text")) from None
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"\(at line (\d+)", str(exc))  # Python 3.11 has no exc.lineno
        line = int(at.group(1)) if at else None
        message = str(exc).split(" (at ")[0]
        raise InputError(Problem(str(path), line, f"invalid TOML: {message}")) from None
    out: dict[str, dict[str, Any]] = {}
    for game, table in data.items():
        if not isinstance(table, dict):
            raise InputError(Problem(str(path), None, f"'{game}' must be a table like [{game}]"))
        out[game] = dict(table)
    return out


def merge_house_rules(*sources: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Later sources win: the command line's `--rule` over the file's."""
    out: dict[str, dict[str, Any]] = {}
    for source in sources:
        for game, rules in source.items():
            out.setdefault(game, {}).update(rules)
    return out
