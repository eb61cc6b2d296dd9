"""Worked examples: each kind declares its inputs and checks, and runs them through the engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from generator.core.expr import ExprError, evaluate, names as expr_names
from generator.core.errors import Problem
from generator.core.registry import GAMES, ExampleKind
from generator.model.loader import FACT_REF, Example, GameModel, LoadedModel


class Schema(BaseModel):
    """The base of every example kind's input and expectation schema: frozen, no unknown keys."""

    model_config = ConfigDict(frozen=True, extra="forbid")


#: Bounds that keep `check` quick whatever a model says (the deadwood search grows fast with the cards).
MAX_CARDS = 12
MAX_PLAYERS = 16


def _few_cards(text: str) -> str:
    if len(text.split()) > MAX_CARDS:
        raise ValueError(f"at most {MAX_CARDS} cards in one hand")
    return text


Cards = Annotated[str, AfterValidator(_few_cards)]
Stake = Field(default=1, ge=1, le=1_000_000)


class ExampleInputError(ValueError):
    """The engine refused an example's input (a die showing 7, a card twice)."""


def plain(value: Any) -> Any:
    """Tuples and lists alike, so YAML lists compare equal to engine tuples."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def resolve_fact_refs(data: Any, values: dict[str, Any], path: tuple = ()) -> tuple[Any, list]:
    """Replace `$name` by a value and `=expression` by its result; return the data and (path, problem) pairs.

    `values` holds the edition's rules, computed numbers and facts, so an expectation written
    as `=2 * tonk_multiplier` follows a house rule while the engine computes it independently.
    """
    missing: list[tuple[tuple, str]] = []
    if isinstance(data, str):
        m = FACT_REF.match(data)
        if m:
            if m.group(1) in values:
                return values[m.group(1)], missing
            missing.append((path, f"refers to '{m.group(1)}', which the model does not define"))
        elif data.startswith("="):
            try:
                unknown = sorted(expr_names(data[1:]) - set(values))
                if unknown:
                    return data, [(path, f"refers to '{n}', which the model does not define") for n in unknown]
                return evaluate(data[1:], values), missing
            except ExprError as exc:
                missing.append((path, f"has a bad expression: {exc}"))
        return data, missing
    if isinstance(data, dict):
        out = {}
        for k, v in data.items():
            out[k], more = resolve_fact_refs(v, values, path + (k,))
            missing += more
        return out, missing
    if isinstance(data, list):
        out_list = []
        for n, v in enumerate(data):
            item, more = resolve_fact_refs(v, values, path + (n,))
            out_list.append(item)
            missing += more
        return out_list, missing
    return data, missing


def applies(when: str | None, values: dict[str, Any]) -> bool:
    """Whether a `when:` condition holds for an edition (no condition: always)."""
    return when is None or bool(evaluate(when, values))


@dataclass(frozen=True)
class Outcome:
    """An example after the engine ran it: what it computed and where it disagrees with the text."""

    example: Example
    input: Any
    result: dict
    #: (key, written value, engine value) for each disagreement.
    mismatches: tuple[tuple[str, Any, Any], ...] = ()
    error: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.mismatches and self.error is None


def _same(key: str, written: Any, computed: Any) -> bool:
    if key == "losers":
        return sorted(written) == sorted(computed)
    return plain(written) == plain(computed)


def example_kind(game: str, name: str) -> ExampleKind | None:
    """The kind `name` of worked example as the game `game` registers it, or None."""
    return GAMES[game].example_kinds.get(name) if game in GAMES else None


def run_example(example: Example, rules: Any, values: dict[str, Any], game: str) -> Outcome:
    """Run one (already schema-checked) example of `game` through the engine under `rules` and compare."""
    kind = example_kind(game, example.kind)
    raw_in, _ = resolve_fact_refs(example.input, values)
    raw_out, _ = resolve_fact_refs(example.expect, values)
    inp = kind.input_schema.model_validate(raw_in)
    expect = kind.expect_schema.model_validate(raw_out).model_dump(exclude_none=True)
    try:
        result = kind(rules, inp)
    except ValueError as exc:
        return Outcome(example, inp, {}, error=str(exc))
    mismatches = tuple((k, v, result.get(k)) for k, v in expect.items() if not _same(k, v, result.get(k)))
    return Outcome(example, inp, result, mismatches)


def run_examples(model: GameModel, rules: Any, values: dict[str, Any]) -> dict[str, Outcome]:
    """Every example whose `when` holds for the edition, run under its rules."""
    return {e.id: run_example(e, rules, values, model.game) for e in model.examples if applies(e.when, values)}


def input_problems(loaded: LoadedModel, values: dict[str, Any]) -> list[Problem]:
    """Each example's kind, and its input and expectation against the kind's schema, as `path:line` problems."""
    from pydantic import ValidationError

    model, source, game = loaded.model, loaded.source, loaded.model.game
    problems: list[Problem] = []
    for i, example in enumerate(model.examples):
        loc = ("examples", i)
        kind = example_kind(game, example.kind)
        if kind is None:
            valid = ", ".join(sorted(GAMES[game].example_kinds)) if game in GAMES else ""
            problems.append(source.problem(loc + ("kind",), f"unknown example kind '{example.kind}' (one of: {valid})"))
            continue
        for part in ("input", "expect"):
            data, missing = resolve_fact_refs(getattr(example, part), values)
            for path, message in missing:
                problems.append(source.problem(loc + (part,) + path, f"example '{example.id}' {message}"))
            if missing:
                continue
            schema = kind.input_schema if part == "input" else kind.expect_schema
            try:
                schema.model_validate(data)
            except ValidationError as exc:
                for err in exc.errors():
                    eloc = loc + (part,) + tuple(err["loc"])
                    key = ".".join(str(p) for p in err["loc"])
                    msg = ("unknown key" if err["type"] == "extra_forbidden" else err["msg"].lower())
                    problems.append(source.problem(eloc, f"example '{example.id}' {part}.{key}: {msg}"))
    return problems
