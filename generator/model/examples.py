"""Worked examples: each kind declares its inputs and checks, and runs them through the engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Callable, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from generator.games.bunco import engine as bunco
from generator.engine import cards as cardlib
from generator.games.stop_the_bus import engine as stop_the_bus
from generator.games.tonk import engine as tonk
from generator.core.expr import ExprError, evaluate, names as expr_names
from generator.core.errors import Problem
from generator.model.loader import FACT_REF, Example, GameModel, LoadedModel


class _Schema(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


Die = Literal[1, 2, 3, 4, 5, 6]
Round = Field(ge=1, le=6)
#: Bounds that keep `check` quick whatever a model says (the deadwood search grows fast with the cards).
MAX_CARDS = 12
MAX_PLAYERS = 16


def _few_cards(text: str) -> str:
    if len(text.split()) > MAX_CARDS:
        raise ValueError(f"at most {MAX_CARDS} cards in one hand")
    return text


Cards = Annotated[str, AfterValidator(_few_cards)]
Stake = Field(default=1, ge=1, le=1_000_000)


# --- schemas of each kind's input and expectation -------------------------------------------

class ThrowIn(_Schema):
    dice: tuple[int, int, int]
    round: int = Round
    #: None: as the edition's rules say; true/false: this example is about the rule being on or off.
    wipeout: bool | None = None


class ThrowOut(_Schema):
    points: int | None = None
    bunco: bool | None = None
    baby_bunco: bool | None = None
    wipeout: bool | None = None
    rolls_again: bool | None = None


class TurnIn(_Schema):
    round: int = Round
    throws: tuple[tuple[int, int, int], ...] = Field(min_length=1, max_length=20)


class TurnOut(_Schema):
    points: int


Team = tuple[str, str]


class SeatingIn(_Schema):
    seating: tuple[tuple[Team, Team], ...] = Field(min_length=1, max_length=MAX_PLAYERS)
    winners: tuple[int, ...] = Field(max_length=MAX_PLAYERS)


class SeatingOut(_Schema):
    seating: tuple[tuple[Team, Team], ...]


class HandsIn(_Schema):
    hands: dict[str, Cards] = Field(max_length=MAX_PLAYERS)


class ShowdownOut(_Schema):
    losers: tuple[str, ...]
    categories: dict[str, str] | None = None


class CardsIn(_Schema):
    cards: Cards


class TonkTotalsOut(_Schema):
    totals: dict[str, int] | None = None
    payouts: dict[str, int]


class KnockIn(_Schema):
    hands: dict[str, Cards] = Field(max_length=MAX_PLAYERS)
    knocker: str
    stake: int = Stake


class StakeHandsIn(_Schema):
    hands: dict[str, Cards] = Field(max_length=MAX_PLAYERS)
    stake: int = Stake


class WentOutIn(_Schema):
    players: tuple[str, ...] = Field(max_length=MAX_PLAYERS)
    winner: str
    discarded: bool
    stake: int = Stake
    by_new_spreads: bool | None = None


class PayoutOut(_Schema):
    payouts: dict[str, int]


class SpreadOut(_Schema):
    total: int | None = None
    book: bool | None = None
    run: bool | None = None
    deadwood: int | None = None


# --- the engine calls: each gets the edition's Rules and the checked input ----------------------

def _throw(rules: bunco.Rules, i: ThrowIn) -> dict:
    t = bunco.score_throw(i.dice, i.round, wipeout=i.wipeout, rules=rules)
    # The wipeout face and first round come along so the text names them from the engine, not from memory.
    return {"points": t.points, "bunco": t.bunco, "baby_bunco": t.baby_bunco,
            "wipeout": t.wipeout, "rolls_again": t.rolls_again,
            "wipeout_face": bunco.WIPEOUT_FACE, "first_round": bunco.FIRST_ROUND}


def _turn(rules: bunco.Rules, i: TurnIn) -> dict:
    total, steps = 0, []
    for n, dice in enumerate(i.throws, start=1):
        t = bunco.score_throw(dice, i.round, rules=rules)
        steps.append({"dice": dice, "points": t.points, "bunco": t.bunco, "baby_bunco": t.baby_bunco,
                      "wipeout": t.wipeout})
        total = 0 if t.wipeout else total + t.points
        if not t.rolls_again and n < len(i.throws):
            raise ExampleInputError(f"throw {n} scores nothing, so the turn ends there; remove the throws after it")
    return {"points": total, "steps": steps, "passes": not steps[-1]["points"]}


def _seating(rules: bunco.Rules, i: SeatingIn) -> dict:
    after = bunco.next_seating([list(map(tuple, t)) for t in i.seating], list(i.winners), rules=rules)
    return {"seating": _plain(after)}


def _showdown(rules: stop_the_bus.Rules, i: HandsIn) -> dict:
    ranks = {p: stop_the_bus.hand_rank(h, rules=rules) for p, h in i.hands.items()}
    return {"losers": tuple(sorted(stop_the_bus.losers(i.hands, rules=rules))),
            "categories": {p: r.category for p, r in ranks.items()}}


def _totals(hands: dict[str, str]) -> dict[str, int]:
    return {p: tonk.hand_total(h) for p, h in hands.items()}


def _all_cards(hands: dict[str, str]) -> None:
    # Cards in a worked example come from one deck: a card in two hands is a typo.
    cardlib.as_cards(" ".join(hands.values()))


def _dealt(rules: tonk.Rules, i: StakeHandsIn) -> dict:
    _all_cards(i.hands)
    for player, hand in i.hands.items():
        if len(cardlib.parse_cards(hand)) != rules.hand_size:
            raise ExampleInputError(f"{player} is dealt {len(cardlib.parse_cards(hand))} cards, "
                                    f"but these rules deal {rules.hand_size}")
    totals = _totals(i.hands)
    return {"totals": totals, "payouts": tonk.payouts_dealt_tonk(totals, stake=i.stake, rules=rules)}


def _knock(rules: tonk.Rules, i: KnockIn) -> dict:
    _all_cards(i.hands)
    totals = _totals(i.hands)
    return {"totals": totals, "payouts": tonk.payouts_knock(totals, i.knocker, stake=i.stake, rules=rules)}


def _stock_out(rules: tonk.Rules, i: StakeHandsIn) -> dict:
    _all_cards(i.hands)
    totals = _totals(i.hands)
    return {"totals": totals, "payouts": tonk.payouts_stock_out(totals, stake=i.stake, rules=rules)}


def _went_out(rules: tonk.Rules, i: WentOutIn) -> dict:
    return {"payouts": tonk.payouts_went_out(list(i.players), i.winner, discarded=i.discarded, stake=i.stake,
                                             by_new_spreads=i.by_new_spreads, rules=rules)}


def _spread(rules: tonk.Rules, i: CardsIn) -> dict:
    cs = cardlib.parse_cards(i.cards)
    return {"total": tonk.hand_total(cs), "book": tonk.is_book(cs), "run": tonk.is_run(cs),
            "deadwood": tonk.deadwood(cs)}


@dataclass(frozen=True)
class Kind:
    game: str
    input: type[_Schema]
    expect: type[_Schema]
    run: Callable[[Any, Any], dict]


KINDS: dict[str, Kind] = {
    "bunco.throw": Kind("bunco", ThrowIn, ThrowOut, _throw),
    "bunco.turn": Kind("bunco", TurnIn, TurnOut, _turn),
    "bunco.seating": Kind("bunco", SeatingIn, SeatingOut, _seating),
    "stop-the-bus.showdown": Kind("stop-the-bus", HandsIn, ShowdownOut, _showdown),
    "tonk.dealt": Kind("tonk", StakeHandsIn, TonkTotalsOut, _dealt),
    "tonk.knock": Kind("tonk", KnockIn, TonkTotalsOut, _knock),
    "tonk.stock-out": Kind("tonk", StakeHandsIn, TonkTotalsOut, _stock_out),
    "tonk.went-out": Kind("tonk", WentOutIn, PayoutOut, _went_out),
    "tonk.spread": Kind("tonk", CardsIn, SpreadOut, _spread),
}


class ExampleInputError(ValueError):
    """The engine refused an example's input (a die showing 7, a card twice)."""


def _plain(value: Any) -> Any:
    """Tuples and lists alike, so YAML lists compare equal to engine tuples."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def resolve_fact_refs(data: Any, values: dict[str, Any], path: tuple = ()) -> tuple[Any, list]:
    """Replace `$name` by a value and `=expression` by its result; return the data and any unknown names.

    `values` holds the edition's rules, computed numbers and facts, so an expectation written
    as `=2 * tonk_multiplier` follows a house rule while the engine computes it independently.
    """
    missing: list[tuple[tuple, str]] = []
    if isinstance(data, str):
        m = FACT_REF.match(data)
        if m:
            if m.group(1) in values:
                return values[m.group(1)], missing
            missing.append((path, m.group(1)))
        elif data.startswith("="):
            try:
                unknown = sorted(expr_names(data[1:]) - set(values))
                if unknown:
                    return data, [(path, n) for n in unknown]
                return evaluate(data[1:], values), missing
            except ExprError as exc:
                missing.append((path, str(exc)))
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
    return _plain(written) == _plain(computed)


def run_example(example: Example, rules: Any, values: dict[str, Any]) -> Outcome:
    """Run one (already schema-checked) example through the engine under `rules` and compare."""
    kind = KINDS[example.kind]
    raw_in, _ = resolve_fact_refs(example.input, values)
    raw_out, _ = resolve_fact_refs(example.expect, values)
    inp = kind.input.model_validate(raw_in)
    expect = kind.expect.model_validate(raw_out).model_dump(exclude_none=True)
    try:
        result = kind.run(rules, inp)
    except ValueError as exc:
        return Outcome(example, inp, {}, error=str(exc))
    mismatches = tuple((k, v, result.get(k)) for k, v in expect.items() if not _same(k, v, result.get(k)))
    return Outcome(example, inp, result, mismatches)


def run_examples(model: GameModel, rules: Any, values: dict[str, Any]) -> dict[str, Outcome]:
    """Every example whose `when` holds for the edition, run under its rules."""
    return {e.id: run_example(e, rules, values) for e in model.examples if applies(e.when, values)}


def input_problems(loaded: LoadedModel, values: dict[str, Any]) -> list[Problem]:
    """Each example's kind, and its input and expectation against the kind's schema, as `path:line` problems."""
    from pydantic import ValidationError

    model, source, game = loaded.model, loaded.source, loaded.model.game
    problems: list[Problem] = []
    for i, example in enumerate(model.examples):
        loc = ("examples", i)
        kind = KINDS.get(example.kind)
        if kind is None or kind.game != game:
            valid = ", ".join(sorted(k for k, v in KINDS.items() if v.game == game))
            problems.append(source.problem(loc + ("kind",), f"unknown example kind '{example.kind}' (one of: {valid})"))
            continue
        for part in ("input", "expect"):
            data, missing = resolve_fact_refs(getattr(example, part), values)
            for path, name in missing:
                problems.append(source.problem(loc + (part,) + path, f"example '{example.id}' refers to '{name}', which the model does not define"))
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
