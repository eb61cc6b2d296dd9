"""The project file `rulesheets.toml`: what a group sets once (games, locales, stake, house rules...), read and checked.

Like MkDocs' `mkdocs.yml`, but TOML and never executed. Every key mirrors a long option of
`rulesheets build`; a flag given on the command line wins over the file. Every problem is
reported as `file:line: problem` (tomllib gives no positions, so the key's line is found in
the text), all of them at once, then the command exits 2.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.core.errors import InputError, Problem, display_path

#: The file looked for in the working folder when no --config is given.
PROJECT_FILE = "rulesheets.toml"


@dataclass(frozen=True)
class Project:
    """A project file read and checked; empty (every value None) when there is none."""

    #: The file it came from; None: no project file.
    path: Path | None = None
    #: The checked settings (a pydantic model, generator.commands.projectschema); None: no file.
    settings: Any = None

    def get(self, key: str):
        return None if self.settings is None else getattr(self.settings, key)

    @property
    def out(self) -> Path | None:
        """The output folder, relative to the project file's own folder."""
        if self.settings is None or self.settings.out is None or self.path is None:
            return None
        return (self.path.parent / Path(self.settings.out).expanduser()).absolute()

    @property
    def site_logo(self) -> Path | None:
        """The site's logo, relative to the project file's own folder (as `out` is)."""
        if self.settings is None or self.settings.site_logo is None or self.path is None:
            return None
        return (self.path.parent / Path(self.settings.site_logo).expanduser()).absolute()

    @property
    def house_rules(self) -> dict[str, dict[str, Any]]:
        if self.settings is None:
            return {}
        return {g: dict(r) for g, r in self.settings.house_rules.items()}


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


# --- reading ----------------------------------------------------------------------------------

def _message(error: dict, key: str) -> str:
    kind, msg = error["type"], error["msg"]
    if kind == "extra_forbidden":
        from generator.commands.projectschema import ProjectFile

        known = [f.alias or name for name, f in ProjectFile.model_fields.items()]
        close = difflib.get_close_matches(key, known, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        return f"unknown key '{key}' ({hint}known: {', '.join(known)})"
    msg = msg.removeprefix("Value error, ")
    return f"{key}: {msg[0].lower()}{msg[1:]}" if msg else key


def read_project(path: Path) -> Project:
    """Read and check one project file; InputError with every problem (`file:line: problem`)."""
    import stat

    from generator.core.inputfile import existing, kind_of
    from generator.model.houserules import load_toml

    where = display_path(path)
    found = existing(path)  # a pipe would block, a device never end: refused before anything is opened
    if found is not None and not stat.S_ISREG(found.st_mode) and not stat.S_ISDIR(found.st_mode):
        raise InputError(Problem(where, None, f"is {kind_of(found.st_mode)}, not a project file"))
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise InputError(Problem(where, None, "no such project file")) from None
    except IsADirectoryError:
        raise InputError(Problem(where, None, "is a folder, not a project file")) from None
    except OSError as exc:
        raise InputError(Problem(where, None, f"cannot read the project file: {exc.strerror}")) from None
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        raise InputError(Problem(where, line, "the project file is not UTF-8 text")) from None
    data = load_toml(text, where, end_line=True)
    # pydantic loads only when there is a project file to check (a no-op build stays light).
    from pydantic import ValidationError

    from generator.commands.projectschema import ProjectFile

    lines = key_lines(text)
    problems: list[Problem] = []
    try:
        settings = ProjectFile.model_validate(data)
    except ValidationError as exc:
        for error in exc.errors():
            loc = tuple(p for p in error["loc"] if not isinstance(p, int))
            key = ".".join(map(str, loc))
            problems.append(Problem(where, line_of(lines, error["loc"]), _message(error, key)))
        settings = None
    house = data.get("house-rules")
    if isinstance(house, dict):  # checked even when other keys are wrong: every problem at once
        problems += _house_rule_problems({g: r for g, r in house.items() if isinstance(r, dict)}, where, lines)
    found = Project(path.absolute(), settings)
    if found.site_logo is not None:  # there, and an image: at the key's line, with the other problems
        from generator.site.builder import check_logo

        try:
            check_logo(found.site_logo, where, line_of(lines, ("site_logo",)), f"site_logo '{settings.site_logo}'")
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(sorted(problems, key=lambda p: p.line or 0))
    return found


def _house_rule_problems(house: dict[str, dict[str, Any]], where: str, lines) -> list[Problem]:
    """Each house rule checked against its game's model, as `--house-rules` values are."""
    from generator.core.registry import GAMES
    from generator.edition.editions import check_house_rule
    from generator.model.loader import load_model

    problems = []
    for game, rules in house.items():
        loc = ("house-rules", game)
        if game not in GAMES:
            problems.append(Problem(where, line_of(lines, loc),
                                    f"house-rules: unknown game '{game}' (known: {', '.join(GAMES)})"))
            continue
        loaded = load_model(game)
        for name, value in rules.items():
            try:
                check_house_rule(loaded, name, value, where)
            except InputError as exc:
                problems += [Problem(where, line_of(lines, loc + (name,)), p.message) for p in exc.problems]
    return problems


def find_project(config: Path | None) -> Project:
    """`--config FILE`, else rulesheets.toml in the working folder, else no project file."""
    if config is not None:
        return read_project(config)
    here = Path.cwd() / PROJECT_FILE
    return read_project(here) if here.is_file() else Project()


# --- rulesheets init ----------------------------------------------------------------------------

def template() -> str:
    """The commented project file `rulesheets init` writes: every key, what it does, its valid values."""
    from generator.core.paths import discover_locales
    from generator.core.registry import GAMES
    from generator.edition.sheets import CURRENCIES
    from generator.pipeline.build import FORMATS, KINDS, PAPERS

    def names(values) -> str:
        return ", ".join(f'"{v}"' for v in values)

    from generator.model.loader import load_model

    game = next(iter(GAMES))
    model = load_model(game).model
    rule = next((r.id for r in model.house_rules if isinstance(model.rules.get(r.id), bool)), model.house_rules[0].id)
    return f"""\
# rulesheets project file: what your group sets once. Every key is optional; a command-line
# flag (for example --locales fr) wins over the value here. Remove the # of a line to use it.
# `rulesheets build`, `check`, `serve` and `kit` read ./rulesheets.toml (or --config FILE).

# Games to build, from: {names(GAMES)}.
# games = [{names(GAMES)}]

# Languages to build, from: {names(discover_locales())}.
# With a single language, `rulesheets kit` uses it too.
# locales = [{names(discover_locales()[:2])}]

# Artifact kinds, from: {names(KINDS)}.
# kinds = [{names(tuple(KINDS)[:2])}]

# Paper sizes, from: {names(PAPERS)}. With a single paper, `rulesheets kit` uses it too.
# papers = ["a4"]

# Formats, from: {names(FORMATS)}.
# formats = [{names(FORMATS)}]

# Your group's name, printed on tally sheets, scorepads and kits (at most 60 characters).
# group = "Friday Club"

# Tonk stake on the payout sheet and in kits (default: the language's usual stake).
# stake = 10

# Currency of the stake, from: {names(CURRENCIES)} (default: the language's own).
# currency = "USD"

# Public address where the site is published, ending in /: canonical links, sitemap.xml.
# base_url = "https://example.org/rules/"

# The site's name, shown in its title, header and link previews (default "rulesheets").
# site_name = "Friday Club rules"

# An image shown before the site's name in its header: .svg, .png or .webp, at most 200 kB,
# relative to this file (default: none).
# site_logo = "logo.svg"

# Output folder, relative to this file (default: output).
# out = "output"

# PDFs for a print shop: 3 mm bleed, crop marks, PDF/X-4 with a CMYK output intent (default: false,
# PDFs for a home printer and screen readers).
# press = true

# House rules, one table per game (`rulesheets rules` lists them all), as in a --house-rules file.
# [house-rules.{game}]
# {rule} = {_toml_value(model.rules.get(rule))}
"""


def _toml_value(value) -> str:
    """A house rule's standard value, written as TOML (the opposite for a switch: that is the point of writing it)."""
    if isinstance(value, bool):
        return "false" if value else "true"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def init(path: Path | None) -> int:
    """`rulesheets init`: write a commented project file; an existing one is never replaced."""
    path = path or Path(PROJECT_FILE)
    where = display_path(path)
    if path.exists() or path.is_symlink():
        raise InputError(Problem(where, None, "already exists; edit it, or remove it to start afresh"))
    text = template()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8") as fh:  # "x": never replaces a file made meanwhile
            fh.write(text)
    except OSError as exc:
        raise InputError(Problem(where, None, f"cannot be written ({exc.strerror})")) from None
    print(f"wrote {where}: every key is commented out; remove the # of those you want")
    return 0


# --- flags over the file ------------------------------------------------------------------------

def apply(args, project: Project):
    """Fill in every option not given on the command line from the project file (flags win)."""
    get = project.get  # None for every key when there is no project file
    for key in ("games", "locales", "kinds", "papers", "formats"):
        if hasattr(args, key) and getattr(args, key) is None and get(key) is not None:
            setattr(args, key, list(get(key)))
    for key, default in (("group", ""), ("base_url", ""), ("site_name", "rulesheets")):
        if hasattr(args, key) and getattr(args, key) is None:
            setattr(args, key, get(key) if get(key) is not None else default)
    if hasattr(args, "stake") and args.stake is None and get("stake") is not None:
        args.stake = str(get("stake"))
    if hasattr(args, "currency") and args.currency is None:
        args.currency = get("currency")
    if args.command == "kit":  # one language or paper in the project file is the kit's too
        locales, papers = get("locales"), get("papers")
        if args.locale is None:
            args.locale = locales[0] if locales and len(locales) == 1 else "en"
        if args.paper is None and papers and len(papers) == 1:
            args.paper = papers[0]
    if hasattr(args, "press") and not args.press and get("press"):
        args.press = True
    if hasattr(args, "site_logo") and args.site_logo is None:
        args.site_logo = project.site_logo
    args.output_root = project.out
    args.project_house_rules = project.house_rules
    return args
