"""The Call Break model: its shape, its placeholders, and every worked example run through the engine in every edition."""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction
import re
from dataclasses import fields
from pathlib import Path

import pytest

from generator.core.expr import evaluate, names
from generator.games.call_break import engine
from generator.games.call_break.derived import derive
from generator.games.call_break.examples import KINDS, ExampleInputError, same
from generator.model.loader import GameModel
from generator.core.yamlsource import load_yaml

MODEL = Path(engine.__file__).with_name("model.yaml")
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?::([a-z_]+))?\}")
#: The formats of generator.model.loader.FORMATS, plus `decimal` for tenths, which this game asks the seam for.
FORMATS = {None, "percent", "one_in", "fraction", "or", "decimal"}


@pytest.fixture(scope="module")
def model() -> GameModel:
    raw, _ = load_yaml(MODEL)
    return GameModel.model_validate(raw)


def house_values(model):
    """Every value each house rule allows, as the model lists them."""
    out = {}
    for rule in model.house_rules:
        out[rule.id] = list(rule.choices) if rule.choices is not None else sorted(
            {rule.range[0], rule.range[1], model.rules[rule.id]})
    return out


def editions(model):
    values = house_values(model)
    for combo in itertools.product(*values.values()):
        yield engine.Rules(**{**model.rules, **dict(zip(values, combo))})


def values_for(rules, model):
    return {**{f.name: getattr(rules, f.name) for f in fields(rules)}, **derive(rules, model.fact_values),
            **model.fact_values}


def texts(model):
    yield model.name
    yield model.tagline
    for rule in model.house_rules:
        yield rule.label
        yield rule.describe
    for section in model.sections:
        yield section.title
        for part in section.parts():
            yield part if isinstance(part, str) else part.text
    for group in model.quick_reference:
        yield group.heading
        for point in group.points:
            yield point if isinstance(point, str) else point.text
    for example in model.examples:
        yield example.caption


def conditions(model):
    for section in model.sections:
        yield section.when
        yield from (p.when for p in section.parts() if not isinstance(p, str))
    for group in model.quick_reference:
        yield from (p.when for p in group.points if not isinstance(p, str))
    yield from (e.when for e in model.examples)


def test_the_model_states_the_standard_rules(model):
    assert model.game == "call-break"
    assert engine.Rules(**model.rules) == engine.Rules()
    assert set(model.rules) == {f.name for f in fields(engine.Rules)}
    assert {r.id for r in model.house_rules} == {f.name for f in fields(engine.Rules)}


def test_every_house_rule_value_is_one_the_engine_takes(model):
    for name, allowed in house_values(model).items():
        for value in allowed:
            engine.Rules(**{**model.rules, name: value})


def test_derived_numbers_agree_with_the_engine(model):
    computed = derive(engine.Rules(), model.fact_values)
    assert {k: computed[k] for k in model.derived} == model.derived
    assert round(1 / computed["odds_no_spade"]) == 78


def test_every_placeholder_and_condition_is_known(model):
    known = set(values_for(engine.Rules(), model))
    for text in texts(model):
        for name, fmt in PLACEHOLDER.findall(text):
            assert name in known, (name, text)
            assert (fmt or None) in FORMATS, (fmt, text)
    for when in conditions(model):
        if when is not None:
            assert names(when) <= known, when


def test_every_example_is_shown_once_and_defined(model):
    shown = [e for s in model.sections for e in s.examples]
    assert sorted(shown) == sorted(e.id for e in model.examples)
    assert all(e.kind in KINDS for e in model.examples)


def run(example, rules, values):
    schema_in, schema_out, compute = KINDS[example.kind]
    inp = schema_in.model_validate(example.input)
    expect = schema_out.model_validate(example.expect).model_dump(exclude_none=True)
    result = compute(rules, inp)
    return {k: (v, result.get(k)) for k, v in expect.items() if not same(k, v, result.get(k))}


def test_every_example_agrees_with_the_engine_in_every_edition(model):
    shown_kinds = set()
    count = 0
    for rules in editions(model):
        values = values_for(rules, model)
        kinds = set()
        for example in model.examples:
            if example.when is None or evaluate(example.when, values):
                assert run(example, rules, values) == {}, (example.id, rules)
                kinds.add(example.kind)
                count += 1
        # Whatever the rules, the book shows a trick, a deal's score and a game's totals.
        assert kinds == set(KINDS), rules
        shown_kinds |= kinds
    assert count > 0


def test_a_planted_mistake_in_an_example_is_caught(model):
    example = next(e for e in model.examples if e.id == "overtrick")
    wrong = example.model_copy(update={"expect": {"score": "4.199999"}})
    assert run(wrong, engine.Rules(), {}) == {"score": (Decimal("4.199999"), Fraction(21, 5))}
    illegal = next(e for e in model.examples if e.id == "over-trump")
    cheat = illegal.model_copy(update={"input": {**illegal.input, "play": "2S"}})
    with pytest.raises(ExampleInputError, match="^2S may not be played here: the legal cards are QS$"):
        run(cheat, engine.Rules(), {})
    head = next(e for e in model.examples if e.id == "follow-and-head")
    assert run(head, engine.Rules(must_overtake=False), {}) == {"legal": ("KH AH", "3H KH AH")}
