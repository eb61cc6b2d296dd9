"""Bunco's worked examples: a throw, a turn, a change of seats; each checked input run through the engine."""

from __future__ import annotations

from pydantic import Field

from generator.games.bunco import engine as bunco
from generator.model.examples import MAX_PLAYERS, ExampleInputError, Schema as _Schema, plain as _plain

#: Rounds of a set as a worked example may name (a house rule may play fewer).
Round = Field(ge=1, le=6)


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


def throw(rules: bunco.Rules, i: ThrowIn) -> dict:
    t = bunco.score_throw(i.dice, i.round, wipeout=i.wipeout, rules=rules)
    # The wipeout face and first round come along so the text names them from the engine, not from memory.
    return {"points": t.points, "bunco": t.bunco, "baby_bunco": t.baby_bunco,
            "wipeout": t.wipeout, "rolls_again": t.rolls_again,
            "wipeout_face": bunco.WIPEOUT_FACE, "first_round": bunco.FIRST_ROUND}


def turn(rules: bunco.Rules, i: TurnIn) -> dict:
    total, steps = 0, []
    for n, dice in enumerate(i.throws, start=1):
        t = bunco.score_throw(dice, i.round, rules=rules)
        steps.append({"dice": dice, "points": t.points, "bunco": t.bunco, "baby_bunco": t.baby_bunco,
                      "wipeout": t.wipeout})
        total = 0 if t.wipeout else total + t.points
        if not t.rolls_again and n < len(i.throws):
            raise ExampleInputError(f"throw {n} scores nothing, so the turn ends there; remove the throws after it")
    return {"points": total, "steps": steps, "passes": not steps[-1]["points"]}


def seating(rules: bunco.Rules, i: SeatingIn) -> dict:
    after = bunco.next_seating([list(map(tuple, t)) for t in i.seating], list(i.winners), rules=rules)
    return {"seating": _plain(after)}
