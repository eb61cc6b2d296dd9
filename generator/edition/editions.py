"""An edition: one game's model under the rules a group plays by (the standard rules plus house rules).

Everything printed for a game is read from its edition: the engine's Rules object, every number
the prose quotes (rules, engine-computed values, prose-only facts) and the worked examples run
under those rules. House rules come from `--rule GAME.NAME=VALUE` and `--house-rules FILE.toml`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from generator.core.errors import CheckFailed, InputError, Problem
from generator.model.examples import Outcome, applies, run_examples
from generator.model.loader import LoadedModel, translatable_units
from generator.core.registry import GAMES, Game

#: A number in English prose that is not a placeholder must be part of card notation.
_CARD_SEQUENCE = re.compile(r"\b(?:10|[2-9AJQK])(?:-(?:10|[2-9AJQK]))+\b")
_CARD_NAME = re.compile(r"\b(?:10|[2-9])(?= of (?:clubs|spades|hearts|diamonds)\b)")
_PLACEHOLDER = re.compile(r"\{[a-z_][a-z0-9_]*(?::[a-z_]+)?\}")
_ONE_IN = re.compile(r"\b1 (?:dealt hand )?in \{")
_DIGITS = re.compile(r"\d+")
#: A rule value with decimals, exact: 0, 0.1, -2.25 or 1/10.
_EXACT = re.compile(r"-?\d{1,6}(?:\.\d{1,6})?|\d{1,6}/[1-9]\d{0,5}")


@dataclass(frozen=True)
class Edition:
    """One game under one set of rules, with its examples run: what every renderer reads."""

    loaded: LoadedModel
    game: Game
    #: The engine's Rules object for this edition.
    rules: Any
    #: House rules that differ from the model's standard rules, name -> value.
    changed: dict[str, Any]
    #: Every value prose may quote: rules, engine-computed numbers, prose-only facts.
    values: dict[str, Any]
    outcomes: dict[str, Outcome] = field(default_factory=dict)

    @property
    def model(self):
        return self.loaded.model

    def applies(self, when: str | None) -> bool:
        return applies(when, self.values)


def parse_value(text: str, default: Any) -> Any:
    """A house-rule value typed on the command line, read as the type of its standard value."""
    text = text.strip()
    if isinstance(default, bool):  # the spellings `rulesheets rules` shows and TOML uses; never yes, on or 1
        if text in ("true", "false"):
            return text == "true"
        raise ValueError(f"expected true or false, got '{text}'")
    if isinstance(default, Fraction):
        if not _EXACT.fullmatch(text):
            raise ValueError(f"expected a number like 0.1 (or 1/10), got '{text}'")
        return Fraction(text)
    if isinstance(default, int):
        if not re.fullmatch(r"-?\d{1,6}", text):
            raise ValueError(f"expected a whole number, got '{text}'")
        return int(text)
    if isinstance(default, (tuple, list)):
        parts = [p for p in re.split(r"[,\s]+", text) if p]
        if not parts or not all(re.fullmatch(r"\d{1,6}", p) for p in parts):
            raise ValueError(f"expected whole numbers separated by commas, got '{text}'")
        return tuple(int(p) for p in parts)
    raise ValueError(f"cannot read '{text}'")  # pragma: no cover (rules are bool, int or tuples)


def _normal(value: Any) -> Any:
    """Lists as tuples; a number with decimals (0.1 in YAML or TOML) as the exact Fraction it is written as."""
    if isinstance(value, float):
        return Fraction(repr(value))
    return tuple(value) if isinstance(value, list) else value


def _exact(value: Any, standard: Any) -> Any:
    """A value of a rule whose standard value has decimals is a Fraction, whether written 0, 0.1 or 1/10."""
    value = _normal(value)
    if isinstance(standard, Fraction) and isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        return Fraction(value)
    return value


def allowed_text(rule) -> str:
    """A house rule's allowed values, for `rulesheets rules` and error messages."""
    if rule.range is not None:
        return f"{rule.range[0]} to {rule.range[1]}"
    return " | ".join(show_value(c) for c in rule.choices)


def show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return ",".join(map(str, value))
    if isinstance(value, float):
        value = Fraction(repr(value))
    if isinstance(value, Fraction):  # as a decimal, the way it is typed: 0.1, never 1/10
        return str(Decimal(value.numerator) / Decimal(value.denominator))
    return str(value)


def json_value(value: Any) -> Any:
    """A rule value for manifest.json: tuples as lists, a Fraction as the number it is (0.1, 0)."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


def check_house_rule(loaded: LoadedModel, name: str, value: Any, where: str, line: int | None = None) -> Any:
    """The value if `name` is a house rule of the game and `value` one of its allowed values; else InputError
    at `where:line` (a `--house-rules` file's key, or `--rule`)."""
    model = loaded.model
    rule = model.house_rules_by_id.get(name)
    if rule is None:
        known = ", ".join(r.id for r in model.house_rules)
        raise InputError(Problem(where, line, f"unknown house rule '{model.game}.{name}' (house rules of {model.game}: {known})"))
    given = value
    standard = _normal(model.rules.get(name, getattr(GAMES[model.game].rules_class(), name)))
    if isinstance(value, str):
        try:
            value = parse_value(value, standard)
        except ValueError as exc:
            raise InputError(Problem(where, line, f"{model.game}.{name}: {exc}")) from None
    elif isinstance(value, float) and not math.isfinite(value):  # TOML's inf and nan: no Fraction for them
        value = None
    else:
        value = _exact(value, standard)
    ok = value is not None and (
        (isinstance(value, int) and not isinstance(value, bool) and rule.range[0] <= value <= rule.range[1])
        if rule.range is not None else any(_exact(c, standard) == value and type(_exact(c, standard)) is type(value)
                                           for c in rule.choices))
    if not ok:
        shown = show_value(value) if isinstance(given, str) else _given(given)
        raise InputError(Problem(where, line, f"{model.game}.{name} must be {allowed_text(rule)}, got {shown}"))
    return value


def _given(value: Any) -> str:
    """A refused value as the user wrote it: 4.0 stays 4.0 (not 4), a 30-digit number is not echoed whole."""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int) and not isinstance(value, bool) and len(str(abs(value))) > 18:
        return f"a number of {len(str(abs(value)))} digits"
    return show_value(value)


def make_edition(loaded: LoadedModel, house: dict[str, Any], where: str = "--rule") -> Edition:
    """The edition of one game under the model's rules and the given house rules (checked); a refused value is
    reported where it was given (a RuleTable's `origins`), else at `where`."""
    from generator.model.houserules import origin

    model = loaded.model
    game = GAMES[model.game]
    chosen = {name: check_house_rule(loaded, name, value, *origin(house, name, where)) for name, value in house.items()}
    standard = {k: _normal(v) for k, v in model.rules.items()}
    try:
        rules = game.make_rules({**standard, **chosen})
    except ValueError as exc:
        raise InputError(Problem(where, None, f"{model.game}: {exc}")) from None
    values = game.values(rules, model.fact_values)
    from generator.model.examples import input_problems
    from generator.model.loader import when_problems

    problems = when_problems(loaded, values) + (input_problems(loaded, values) if chosen else [])
    if problems:  # a condition or an expected value that cannot be computed under these house rules
        raise InputError(problems)
    changed = {k: v for k, v in chosen.items() if standard.get(k, getattr(game.rules_class(), k)) != v}
    return Edition(loaded, game, rules, changed, values, run_examples(model, rules, values))


def example_problems(edition: Edition) -> list[Problem]:
    """Every worked example that the engine refuses or disagrees with, as `path:line` problems."""
    failures = []
    source = edition.loaded.source
    for i, ex in enumerate(edition.model.examples):
        o = edition.outcomes.get(ex.id)
        if o is None:
            continue
        loc = ("examples", i)
        if o.error:
            failures.append(source.problem(loc, f"example '{ex.id}': the engine refuses its input: {o.error}"))
        for key, written, computed in o.mismatches:
            failures.append(source.problem(
                loc + ("expect", key), f"example '{ex.id}': {key} is written as {written!r} but the engine computes {computed!r}"))
    for section in edition.model.sections:
        if edition.applies(section.when) and section.examples and not any(e in edition.outcomes for e in section.examples):
            failures.append(source.problem(("sections",), f"section '{section.id}' has no worked example under "
                                                          f"these rules; add a variant example"))
    return failures


def fact_problems(edition: Edition) -> list[Problem]:
    """Typed-in derived numbers that disagree with the engine, and numbers in prose with no fact behind them."""
    model, source = edition.model, edition.loaded.source
    problems = []
    for name, written in model.derived.items():
        computed = edition.values.get(name)
        if computed != written:
            problems.append(source.problem(("derived", name), f"derived fact '{name}' is written as {written} "
                                                              f"but the engine computes {computed}"))
    for i, example in enumerate(model.examples):
        outcome = edition.outcomes.get(example.id)
        if outcome is None:
            continue
        # A caption may quote only numbers of its own example (its input or what the engine computed).
        own = set(_DIGITS.findall(repr((outcome.input.model_dump(), outcome.result))))
        for number in sorted(set(_DIGITS.findall(example.caption)) - own):
            problems.append(source.problem(("examples", i, "caption"), f"the number {number} in the caption of "
                                                                       f"example '{example.id}' is not in the example"))
    for text, loc in translatable_units(model):
        if loc[0] == "examples":
            continue  # captions are checked against their example above
        bare = _CARD_NAME.sub("", _CARD_SEQUENCE.sub("", _PLACEHOLDER.sub("", _ONE_IN.sub("{", text))))
        for number in _DIGITS.findall(bare):
            problems.append(source.problem(loc, f"the number {number} in the prose has no fact behind it; "
                                                f"use a {{placeholder}} ('{text[:60]}')"))
    return problems


def check_editions(editions: dict[str, Edition]) -> None:
    """Raise CheckFailed listing every example and fact problem of every edition."""
    problems = []
    for edition in editions.values():
        problems += example_problems(edition)
        if not edition.changed:
            problems += fact_problems(edition)
    if problems:
        raise CheckFailed(problems)
