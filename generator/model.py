"""Rule model schema and loader: YAML -> validated, frozen objects, errors as `path:line: problem`."""

from __future__ import annotations

import datetime as dt
import re
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import GAMES, PACKAGE_DIR
from .errors import InputError, Problem
from .yamlsource import SourceMap, display_path, load_yaml

GAMES_DIR = PACKAGE_DIR / "games"

#: `{name}` or `{name:format}` in prose; formats say how a number is written.
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?::([a-z_]+))?\}")
FORMATS = {None, "percent", "one_in", "fraction"}
#: In an example's input or expectation, `$name` stands for the fact `name`.
FACT_REF = re.compile(r"^\$([a-z_][a-z0-9_]*)$")


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Section(Frozen):
    """One chapter of the rulebook, in the order the model lists them."""

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    #: Heading, English source text (a gettext msgid).
    title: str
    #: Markdown, English source; paragraphs and list items are translated one by one.
    body: str = ""
    #: Worked examples shown at the end of the section, by id.
    examples: tuple[str, ...] = Field(default=(), strict=False)


class Example(Frozen):
    """A worked example: inputs for the engine and the result the text promises."""

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    #: Which engine computation runs it; see generator.examples.KINDS.
    kind: str
    #: One line shown above the example (English source text).
    caption: str
    input: dict[str, Any]
    expect: dict[str, Any]


class HouseRule(Frozen):
    """A house rule or variant: on or off for the build, described in the rulebook."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    enabled: bool = False


class GameModel(Frozen):
    """Everything the rulebook and sheets of one game are compiled from."""

    game: str
    #: The game's name in English (translated like any other text).
    name: str
    #: One line saying what the game is, for the site and the cover.
    tagline: str
    #: PDF metadata; a fixed date keeps builds byte-identical.
    author: str
    published: dt.date
    facts: dict[str, int]
    house_rules: tuple[HouseRule, ...] = Field(default=(), strict=False)
    sections: tuple[Section, ...] = Field(strict=False)
    examples: tuple[Example, ...] = Field(strict=False)

    @cached_property
    def examples_by_id(self) -> dict[str, Example]:
        return {e.id: e for e in self.examples}

    def house_rule(self, rule_id: str) -> bool:
        return any(r.id == rule_id and r.enabled for r in self.house_rules)


class LoadedModel:
    """A validated model together with where each of its parts is written."""

    def __init__(self, model: GameModel, source: SourceMap, raw: dict):
        self.model = model
        self.source = source
        self.raw = raw

    @property
    def path(self) -> Path:
        return self.source.path


def model_path(game: str, games_dir: Path | None = None) -> Path:
    return (games_dir or GAMES_DIR) / f"{game}.yaml"


def _pydantic_problems(exc: ValidationError, source: SourceMap) -> list[Problem]:
    problems = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        where = ".".join(str(p) for p in loc)
        if err["type"] == "extra_forbidden":
            msg = f"unknown key '{loc[-1]}'"
        elif err["type"] == "missing":
            msg = f"missing key '{loc[-1]}'"
            loc = loc[:-1]
        else:
            msg = f"{where}: {err['msg'].lower()}"
            if "input" in err and not isinstance(err["input"], (dict, list)):
                msg += f" (got {err['input']!r})"
        problems.append(source.problem(loc, msg))
    return problems


def placeholders(text: str) -> set[tuple[str, str | None]]:
    """The `{name}` / `{name:format}` placeholders of a text, as (name, format) pairs."""
    return {(m.group(1), m.group(2)) for m in PLACEHOLDER.finditer(text)}


def translatable_units(model: GameModel) -> list[tuple[str, tuple]]:
    """Every English source string of the model with its data path (for line numbers)."""
    from .textunits import split_units

    units: list[tuple[str, tuple]] = [(model.name, ("name",)), (model.tagline, ("tagline",))]
    for i, section in enumerate(model.sections):
        units.append((section.title, ("sections", i, "title")))
        for unit in split_units(section.body):
            units.append((unit.text, ("sections", i, "body")))
    for i, example in enumerate(model.examples):
        units.append((example.caption, ("examples", i, "caption")))
    return units


def load_model(game: str, games_dir: Path | None = None) -> LoadedModel:
    """Load and fully check one game's model; raises InputError listing every problem."""
    path = model_path(game, games_dir)
    data, source = load_yaml(path)
    if not isinstance(data, dict):
        raise InputError(Problem(display_path(path), 1, "a rule model must be a mapping of keys"))
    try:
        model = GameModel.model_validate(data)
    except ValidationError as exc:
        raise InputError(_pydantic_problems(exc, source)) from None
    loaded = LoadedModel(model, source, data)
    problems = _semantic_problems(loaded, game)
    if problems:
        raise InputError(problems)
    return loaded


def _semantic_problems(loaded: LoadedModel, game: str) -> list[Problem]:
    from .examples import KINDS, derived_values, resolve_fact_refs

    model, source = loaded.model, loaded.source
    problems: list[Problem] = []
    if model.game != game:
        problems.append(source.problem(("game",), f"game is '{model.game}' but the file is for '{game}'"))
    known = set(model.facts) | set(derived_values(game))
    for text, loc in translatable_units(model):
        for name, fmt in sorted(placeholders(text), key=str):
            if name not in known:
                problems.append(source.problem(loc, f"unknown placeholder '{{{name}}}': no fact or computed value has that name"))
            elif fmt not in FORMATS:
                problems.append(source.problem(loc, f"unknown format ':{fmt}' in '{{{name}:{fmt}}}'"))
    ids = [s.id for s in model.sections]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        problems.append(source.problem(("sections",), f"section id '{dup}' is used twice"))
    eids = [e.id for e in model.examples]
    for dup in sorted({i for i in eids if eids.count(i) > 1}):
        problems.append(source.problem(("examples",), f"example id '{dup}' is used twice"))
    shown = set()
    for i, section in enumerate(model.sections):
        for eid in section.examples:
            if eid not in model.examples_by_id:
                problems.append(source.problem(("sections", i, "examples"), f"section '{section.id}' shows example '{eid}', which is not defined"))
            shown.add(eid)
    for i, example in enumerate(model.examples):
        loc = ("examples", i)
        if example.id not in shown:
            problems.append(source.problem(loc, f"example '{example.id}' is not shown in any section"))
        kind = KINDS.get(example.kind)
        if kind is None or kind.game != game:
            valid = ", ".join(sorted(k for k, v in KINDS.items() if v.game == game))
            problems.append(source.problem(loc + ("kind",), f"unknown example kind '{example.kind}' (one of: {valid})"))
            continue
        for part in ("input", "expect"):
            data, missing = resolve_fact_refs(getattr(example, part), model.facts)
            for path, name in missing:
                problems.append(source.problem(loc + (part,) + path, f"example '{example.id}' refers to fact '${name}', which the model does not define"))
            if missing:
                continue
            schema = kind.input if part == "input" else kind.expect
            try:
                schema.model_validate(data)
            except ValidationError as exc:
                for err in exc.errors():
                    eloc = loc + (part,) + tuple(err["loc"])
                    key = ".".join(str(p) for p in err["loc"])
                    msg = ("unknown key" if err["type"] == "extra_forbidden" else err["msg"].lower())
                    problems.append(source.problem(eloc, f"example '{example.id}' {part}.{key}: {msg}"))
    return problems


def load_models(games: tuple[str, ...] = GAMES, games_dir: Path | None = None) -> dict[str, LoadedModel]:
    """Load every requested model, collecting the problems of all before failing once."""
    loaded, problems = {}, []
    for game in games:
        try:
            loaded[game] = load_model(game, games_dir)
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return loaded
