"""Rule model schema and loader: YAML -> validated, frozen objects, errors as `path:line: problem`."""

from __future__ import annotations

import datetime as dt
import re
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, Union

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from generator import GAMES
from generator.core.paths import GAMES_DIR, MODEL_FILE, display_path, game_folder
from generator.core.errors import InputError, Problem
from generator.core.yamlsource import SourceMap, load_yaml

#: `{name}` or `{name:format}` in prose; formats say how a number is written.
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?::([a-z_]+))?\}")
FORMATS = {None, "percent", "one_in", "fraction", "or", "decimal"}
#: In an example's input or expectation, `$name` stands for the fact `name`.
FACT_REF = re.compile(r"^\$([a-z_][a-z0-9_]*)$")


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Block(Frozen):
    """Part of a section's body that applies only under some rules (`when: wipeout`)."""

    when: str
    text: str


class Section(Frozen):
    """One chapter of the rulebook, in the order the model lists them."""

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    #: Heading, English source text (a gettext msgid).
    title: str
    #: Markdown, English source; paragraphs and list items are translated one by one. A list
    #: mixes plain Markdown with blocks shown only when their condition holds for the edition.
    body: Union[str, Annotated[tuple[Union[str, Block], ...], Strict(False)]] = ""
    #: Worked examples shown at the end of the section, by id (each shown when its `when` holds).
    examples: tuple[str, ...] = Field(default=(), strict=False)
    #: The section is shown only when this condition on the rules holds.
    when: str | None = None

    def parts(self) -> tuple[str | Block, ...]:
        return (self.body,) if isinstance(self.body, str) else self.body


class Example(Frozen):
    """A worked example: inputs for the engine and the result the text promises."""

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    #: Which engine computation runs it; registered by the game (Game.example_kinds).
    kind: str
    #: One line shown above the example (English source text).
    caption: str
    input: dict[str, Any]
    expect: dict[str, Any]
    #: Shown and checked only when this condition on the rules holds (a variant example).
    when: str | None = None


class ProseFact(Frozen):
    """A number the prose quotes that is neither a rule nor computed by the engine, and why."""

    value: int = Field(ge=0, le=10**6)
    why: str = Field(min_length=3)


class HouseRule(Frozen):
    """A switch a group may set: a field of the engine's Rules, with its allowed values and its words."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    #: A short name, English source text ("Wipeout").
    label: str
    #: One sentence saying what the rule does with the value in force (placeholders allowed).
    describe: str
    #: Allowed values: `choices` (a list) or a whole-number `range: [low, high]`.
    choices: tuple[Any, ...] | None = Field(default=None, strict=False)
    range: tuple[int, int] | None = Field(default=None, strict=False)


class Situation(Frozen):
    """One way a Tonk hand ends, laid out on the payout sheet and computed by the engine."""

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    title: str
    rule: str
    how: str = Field(pattern=r"^(dealt|went_out|went_out_discard|knock|stock_out)$")
    #: Sample totals for 2 and for 3 players; a value may be an `=expression` of the rules.
    totals: dict[int, dict[str, int | str]] = Field(strict=False)
    knocker: str | None = None
    winner: str | None = None
    by_new_spreads: bool | None = None
    when: str | None = None


class CardGroup(Frozen):
    """One block of the quick-reference card: a heading and short points, each maybe conditional."""

    #: English source text (a gettext msgid of the game's catalog).
    heading: str
    points: tuple[Union[str, Block], ...] = Field(default=(), strict=False)
    #: The points are the model's payout situations (each title and rule, as the payout sheet prints
    #: them), not prose of their own: card and sheet cannot disagree.
    from_payouts: bool = False


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
    #: The standard rules as this book states them: each key a field of the engine's Rules.
    rules: dict[str, Any] = Field(strict=False)
    #: Numbers the engine computes, typed in where a reader of the model wants to see them;
    #: each must agree with the engine (`check` fails naming the one that does not).
    derived: dict[str, Annotated[int, Field(ge=0, le=10**15)]] = Field(default_factory=dict)
    #: Numbers that are neither rules nor computed (a usual group size), each with its reason.
    facts: dict[str, ProseFact] = Field(default_factory=dict)
    house_rules: tuple[HouseRule, ...] = Field(default=(), strict=False)
    sections: tuple[Section, ...] = Field(strict=False)
    examples: tuple[Example, ...] = Field(strict=False)
    #: Tonk: every way a hand ends, for the payout sheet.
    payouts: tuple[Situation, ...] = Field(default=(), strict=False)
    #: The quick-reference card: the whole game at a glance, in short points (see templates/quick-reference.html.j2).
    quick_reference: tuple[CardGroup, ...] = Field(default=(), strict=False)

    @cached_property
    def examples_by_id(self) -> dict[str, Example]:
        return {e.id: e for e in self.examples}

    @cached_property
    def fact_values(self) -> dict[str, int]:
        return {name: f.value for name, f in self.facts.items()}

    @cached_property
    def house_rules_by_id(self) -> dict[str, HouseRule]:
        return {r.id: r for r in self.house_rules}


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
    from generator.core.registry import GAMES as registry

    if games_dir is None and game in registry:  # a game installed from elsewhere keeps its model in its package
        return registry[game].model_path
    return (games_dir or GAMES_DIR) / game_folder(game) / MODEL_FILE


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
    from generator.model.textunits import split_units

    units: list[tuple[str, tuple]] = [(model.name, ("name",)), (model.tagline, ("tagline",))]
    for i, section in enumerate(model.sections):
        units.append((section.title, ("sections", i, "title")))
        for j, part in enumerate(section.parts()):
            text, loc = (part, ("sections", i, "body")) if isinstance(part, str) else \
                (part.text, ("sections", i, "body", j, "text"))
            for unit in split_units(text):
                units.append((unit.text, loc))
    for i, example in enumerate(model.examples):
        units.append((example.caption, ("examples", i, "caption")))
    for i, rule in enumerate(model.house_rules):
        units.append((rule.label, ("house_rules", i, "label")))
        units.append((rule.describe, ("house_rules", i, "describe")))
    for i, situation in enumerate(model.payouts):
        units.append((situation.title, ("payouts", i, "title")))
        units.append((situation.rule, ("payouts", i, "rule")))
    for i, group in enumerate(model.quick_reference):
        units.append((group.heading, ("quick_reference", i, "heading")))
        for j, point in enumerate(group.points):
            text = point if isinstance(point, str) else point.text
            units.append((text.strip(), ("quick_reference", i, "points", j)))
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


def standard_values(model: GameModel) -> dict[str, Any]:
    """Every value the prose may quote under the model's own (standard) rules; ValueError on bad rules."""
    from generator.core.registry import game

    g = game(model.game)
    unknown = sorted(set(model.rules) - set(g.rule_names()))
    if unknown:
        raise ValueError(f"unknown rule '{unknown[0]}' (rules of {model.game}: {', '.join(g.rule_names())})")
    rules = g.make_rules(model.rules)
    return g.values(rules, model.fact_values)


def _check_when(when: str | None, known: set[str], source: SourceMap, loc: tuple) -> list[Problem]:
    from generator.core.expr import ExprError, names

    if when is None:
        return []
    try:
        unknown = sorted(names(when) - known - {"true", "false"})
    except ExprError as exc:
        return [source.problem(loc, f"when: {exc}")]
    return [source.problem(loc, f"when: unknown name '{n}'") for n in unknown]


def when_conditions(model: GameModel):
    """Every `when:` of a model with its place: (condition, location)."""
    for i, section in enumerate(model.sections):
        if section.when is not None:
            yield section.when, ("sections", i, "when")
        for j, part in enumerate(section.parts()):
            if not isinstance(part, str):
                yield part.when, ("sections", i, "body", j, "when")
    for i, situation in enumerate(model.payouts):
        if situation.when is not None:
            yield situation.when, ("payouts", i, "when")
    for i, group in enumerate(model.quick_reference):
        for j, point in enumerate(group.points):
            if not isinstance(point, str) and point.when is not None:
                yield point.when, ("quick_reference", i, "points", j, "when")
    for i, example in enumerate(model.examples):
        if example.when is not None:
            yield example.when, ("examples", i, "when")


def when_problems(loaded: LoadedModel, values: dict[str, Any]) -> list[Problem]:
    """Every `when:` computed under the given values (standard or house rules): `//0`, `x in 5` are problems here."""
    from generator.core.expr import ExprError, evaluate

    problems = []
    for when, loc in when_conditions(loaded.model):
        try:
            evaluate(when, values)
        except ExprError as exc:
            problems.append(loaded.source.problem(loc, f"when: {exc}"))
    return problems


def _semantic_problems(loaded: LoadedModel, game: str) -> list[Problem]:
    from generator.core.registry import GAMES

    model, source = loaded.model, loaded.source
    problems: list[Problem] = []
    if model.game != game:
        problems.append(source.problem(("game",), f"game is '{model.game}' but the file is for '{game}'"))
    if model.game not in GAMES:
        return problems + [source.problem(("game",), f"unknown game '{model.game}' (known: {', '.join(GAMES)})")]
    try:
        values = standard_values(model)
    except ValueError as exc:
        # The engine's Rules name the field first ("bunco_points must be ..."): point at its line.
        name = str(exc).split(" ", 1)[0].strip("'")
        loc = ("rules", name) if name in model.rules else ("rules",)
        return problems + [source.problem(loc, f"rules.{exc}" if name in model.rules else str(exc))]
    known = set(values)
    rule_names = set(GAMES[model.game].rule_names())
    for name in model.facts:
        if name in rule_names or name in set(values) - set(model.facts):
            problems.append(source.problem(("facts", name), f"fact '{name}' is a rule or computed by the engine; "
                                                            f"move it to 'rules' or 'derived'"))
    for name in model.derived:
        if name in rule_names or name not in values or name in model.facts:
            problems.append(source.problem(("derived", name), f"'{name}' is not a number the engine computes"))
    for text, loc in translatable_units(model):
        for name, fmt in sorted(placeholders(text), key=str):
            if name not in known:
                problems.append(source.problem(loc, f"unknown placeholder '{{{name}}}': no rule, fact or computed value has that name"))
            elif fmt not in FORMATS:
                problems.append(source.problem(loc, f"unknown format ':{fmt}' in '{{{name}:{fmt}}}'"))
    for i, rule in enumerate(model.house_rules):
        loc = ("house_rules", i)
        if rule.id not in rule_names:
            problems.append(source.problem(loc + ("id",), f"unknown house rule '{rule.id}' (rules of {model.game}: "
                                                          f"{', '.join(GAMES[model.game].rule_names())})"))
        elif (rule.choices is None) == (rule.range is None):
            problems.append(source.problem(loc, f"house rule '{rule.id}' needs either 'choices' or 'range'"))
    ids = [s.id for s in model.sections]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        problems.append(source.problem(("sections",), f"section id '{dup}' is used twice"))
    eids = [e.id for e in model.examples]
    for dup in sorted({i for i in eids if eids.count(i) > 1}):
        problems.append(source.problem(("examples",), f"example id '{dup}' is used twice"))
    shown = set()
    for when, loc in when_conditions(model):
        problems += _check_when(when, known, source, loc)
    if not problems:
        problems += when_problems(loaded, values)
    for i, section in enumerate(model.sections):
        for eid in section.examples:
            if eid not in model.examples_by_id:
                problems.append(source.problem(("sections", i, "examples"), f"section '{section.id}' shows example '{eid}', which is not defined"))
            shown.add(eid)
    for i, group in enumerate(model.quick_reference):
        if group.from_payouts and (group.points or not model.payouts):
            problems.append(source.problem(("quick_reference", i), "a group 'from_payouts' takes no points of its own "
                                                                   "and needs the model's payouts"))
    for i, example in enumerate(model.examples):
        if example.id not in shown:
            problems.append(source.problem(("examples", i), f"example '{example.id}' is not shown in any section"))
    return problems


def load_models(games: tuple[str, ...] = GAMES, games_dir: Path | None = None) -> dict[str, LoadedModel]:
    """Load every requested model, collecting the problems of all before failing once.

    Worked examples' inputs are checked by generator.examples (which builds on this module).
    """
    loaded, problems = {}, []
    for game in games:
        try:
            loaded[game] = load_model(game, games_dir)
        except InputError as exc:
            problems.extend(exc.problems)

    if problems:
        raise InputError(problems)
    return loaded
