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


class RuleTable(dict):
    """One game's house rules, name -> value, remembering where each was given: `origins[name]` is
    `(where, line)`, `("--rule", None)` or `("ours.toml", 3)`, so a value refused once the model is read
    is reported at its own place."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.origins: dict[str, tuple[str, int | None]] = {}


class HouseRules(dict):
    """Every game's house rules, game -> RuleTable; `origins[game]` is where the game's table was given."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.origins: dict[str, tuple[str, int | None]] = {}


def origin(table: dict, key: str, default: str = "--rule") -> tuple[str, int | None]:
    """Where `key` of a HouseRules or RuleTable was given (`default` for a plain dict)."""
    return getattr(table, "origins", {}).get(key, (default, None))


def parse_rule_options(options: list[str] | tuple[str, ...]) -> HouseRules:
    """`GAME.NAME=VALUE` strings, by game; the values are checked later against each model."""
    out = HouseRules()
    for option in options:
        m = re.fullmatch(r"([a-z][a-z-]*)\.([a-z_][a-z0-9_]*)=(.*)", option.strip(), re.DOTALL)
        if not m:
            raise InputError(Problem("--rule", None, f"expected GAME.NAME=VALUE (like bunco.wipeout=true), got '{option}'"))
        _put(out, m.group(1), m.group(2), m.group(3), ("--rule", None))
    return out


def _put(out: HouseRules, game: str, name: str, value: Any, where: tuple[str, int | None]) -> None:
    if game not in out:
        out[game] = RuleTable()
        out.origins[game] = where
    out[game][name] = value
    out[game].origins[name] = where


def read_house_rules(path: Path) -> dict[str, dict[str, Any]]:
    """A TOML file with one table per game: `[bunco]` `wipeout = true`."""
    from generator.core.inputfile import read_text
    from generator.core.lifecycle import printable

    where = printable(str(path))
    text = read_text(path, "--house-rules", "the house rules")
    data = load_toml(text, where)
    lines = key_lines(text)
    out = HouseRules()
    for game, table in data.items():
        if not isinstance(table, dict):
            raise InputError(Problem(where, line_of(lines, (game,)), f"'{printable(game)}' must be a table like [{printable(game)}]"))
        out[game] = RuleTable()
        out.origins[game] = (where, line_of(lines, (game,)))
        for name, value in table.items():
            _put(out, game, name, value, (where, line_of(lines, (game, name))))
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
    except ValueError as exc:  # TOMLDecodeError, or an integer of more than 4,300 digits (int()'s own limit)
        if not isinstance(exc, tomllib.TOMLDecodeError):
            raise InputError(Problem(where, _long_number_line(text), "invalid TOML: a number of more than 4,300 digits")) from None
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


def _long_number_line(text: str) -> int | None:
    m = re.search(r"\d{4301}", text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def merge_house_rules(*sources: dict[str, dict[str, Any]]) -> HouseRules:
    """Later sources win: the command line's `--rule` over the file's. Each value keeps its origin."""
    out = HouseRules()
    for source in sources:
        for game, rules in source.items():
            where = origin(source, game)
            if game not in out:
                out[game] = RuleTable()
                out.origins[game] = where
            for name, value in rules.items():
                _put(out, game, name, value, origin(rules, name, where[0]))
    return out


# --- finding a key's line -------------------------------------------------------------------

_KEY = r'(?:[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\')'
_DOTTED = rf"{_KEY}(?:\s*\.\s*{_KEY})*"


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(p.strip().strip("\"'") for p in re.findall(_KEY, dotted))


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """The line (from 1) where each table and key is defined: `("house-rules", "bunco", "wipeout") -> 7`."""
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    depth = 0  # inside a multi-line array: no keys there
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if depth:
            depth = max(0, depth + stripped.count("[") - stripped.count("]"))
            continue
        header = re.fullmatch(rf"\[\[?\s*({_DOTTED})\s*\]\]?\s*(?:#.*)?", stripped)
        if header:
            table = _parts(header.group(1))
            lines.setdefault(table, n)
            continue
        key = re.match(rf"({_DOTTED})\s*=(.*)", stripped)
        if key:
            path = table + _parts(key.group(1))
            lines.setdefault(path, n)
            value = re.sub(r'"[^"]*"|\'[^\']*\'', "", key.group(2)).split("#")[0]
            depth = max(0, value.count("[") - value.count("]"))
    return lines


def line_of(lines: dict[tuple[str, ...], int], loc: tuple) -> int | None:
    """The line of the longest leading part of `loc` that is defined in the file."""
    loc = tuple(str(p) for p in loc if not isinstance(p, int))
    for i in range(len(loc), 0, -1):
        if loc[:i] in lines:
            return lines[loc[:i]]
    return None
