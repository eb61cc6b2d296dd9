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
    from generator.core.inputfile import read_text
    from generator.core.lifecycle import printable

    where = printable(str(path))
    text = read_text(path, "--house-rules", "the house rules")
    data = load_toml(text, where)
    out: dict[str, dict[str, Any]] = {}
    for game, table in data.items():
        if not isinstance(table, dict):
            raise InputError(Problem(where, None, f"'{printable(game)}' must be a table like [{printable(game)}]"))
        out[game] = dict(table)
    return out


#: Arrays and inline tables inside a house-rules file: a rule's value is a list of numbers at most.
MAX_DEPTH = 8


def load_toml(text: str, where: str, end_line: bool = False) -> dict[str, Any]:
    """TOML text parsed, or InputError with one `where:line:` problem: nested deeper than MAX_DEPTH
    (checked before parsing) or a syntax error. `end_line`: an error at the end of the document
    names the last line (tomllib gives no line there)."""
    too_deep = _too_deep(text)
    if too_deep:
        raise InputError(Problem(where, too_deep, f"invalid TOML: nested more than {MAX_DEPTH} levels deep"))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"\(at line (\d+)", str(exc))  # Python 3.11 has no exc.lineno
        line = int(at.group(1)) if at else None
        if line is None and end_line and "end of document" in str(exc):
            line = text.count("\n") + 1
        message = str(exc).split(" (at ")[0]
        raise InputError(Problem(where, line, f"invalid TOML: {message}")) from None
    except RecursionError:  # pragma: no cover (the depth check comes first)
        raise InputError(Problem(where, None, f"invalid TOML: nested more than {MAX_DEPTH} levels deep")) from None


def _too_deep(text: str) -> int | None:
    """The line where arrays or inline tables nest deeper than MAX_DEPTH (outside strings and comments).

    tomllib reads nesting by recursion, so 100,000 brackets would end in a RecursionError, not a line.
    """
    depth, line, i, n = 0, 1, 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            at_line_start = True
            i += 1
            continue
        if c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c in "\"'":
            quote = text[i:i + 3] if text[i:i + 3] in ('"""', "\'\'\'") else c
            j = i + len(quote)
            while j < n and not text.startswith(quote, j):
                if quote[0] == '"' and text[j] == "\\":
                    j += 1
                if text[j] == "\n" if j < n else False:
                    line += 1
                j += 1
            i = j + len(quote)
            at_line_start = False
            continue
        if c in "[{" and not (at_line_start and depth == 0):
            depth += 1
            if depth > MAX_DEPTH:
                return line
        elif c in "]}" and depth > 0:
            depth -= 1
        if not c.isspace():
            at_line_start = False
        i += 1
    return None


def merge_house_rules(*sources: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Later sources win: the command line's `--rule` over the file's."""
    out: dict[str, dict[str, Any]] = {}
    for source in sources:
        for game, rules in source.items():
            out.setdefault(game, {}).update(rules)
    return out
