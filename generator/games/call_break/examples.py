"""Call Break's worked-example kinds: the schema of each kind's input and expectation, and its engine run.

Each kind is (input schema, expect schema, run(rules, input) -> dict), ready for the registry's
ExampleKind(Ref(".examples:TrickIn"), Ref(".examples:TrickOut"), Ref(".examples:run_trick"), macro). Cards are compared as written back by the engine
("K♥ AH" and "KH AH" are the same), scores as exact decimals ("4.2" equals the
engine's Fraction(21, 5); a binary float is refused).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Annotated, Any, Callable

from pydantic import AfterValidator, Field, PlainValidator

from generator.engine.cards import as_cards, format_cards, parse_cards
from generator.model.examples import ExampleInputError, Schema as _Schema

from . import engine


def _cards(text: str) -> str:
    return format_cards(parse_cards(text))


def _points(value: Any) -> Decimal:
    """A score as written in a model: 3, -3 or "4.2", read as an exact Decimal (it equals the engine's Fraction)."""
    if isinstance(value, bool) or isinstance(value, float):
        raise ValueError('write a score as a whole number or as text like "4.2"')
    if isinstance(value, (int, Decimal)):
        return Decimal(value)
    if isinstance(value, str):
        try:
            number = Decimal(value.strip())
        except InvalidOperation:
            number = None
        if number is not None and number.is_finite():
            return number
    raise ValueError(f'{value!r} is not a score: write a number like 3, -3 or "4.2"')


Cards = Annotated[str, AfterValidator(_cards)]
#: Decimal, not Fraction: pydantic dumps a Fraction as text, a Decimal as itself; 4.2 == Fraction(21, 5).
Points = Annotated[Decimal, PlainValidator(_points)]
Name = Annotated[str, Field(min_length=1, max_length=40)]


class TrickIn(_Schema):
    #: The four players in the order they play to this trick; the first leads.
    players: tuple[Name, Name, Name, Name]
    #: Cards already played, by players[0], players[1]...: empty when the next player leads.
    #: Without `hand`, a whole trick of up to four cards, to show who wins it.
    trick: Cards = ""
    #: The hand of the player to play next, players[len(trick)].
    hand: Cards | None = None
    #: The card that player chooses (it must be legal); omit to show only the choice.
    play: Cards | None = None
    #: Cards played after it, by the players that follow, to finish the trick.
    rest: Cards = ""


class TrickOut(_Schema):
    #: The cards of `hand` that may be played, in hand order.
    legal: Cards | None = None
    #: Who wins the trick, or holds it so far when it is not complete.
    winner: Name | None = None


class ScoreIn(_Schema):
    call: int = Field(ge=0, le=13)
    tricks: int = Field(ge=0, le=13)


class ScoreOut(_Schema):
    score: Points | None = None
    made: bool | None = None
    overtricks: int | None = None


class GameIn(_Schema):
    #: One entry per deal: each player's [call, tricks taken].
    deals: tuple[dict[Name, tuple[int, int]], ...] = Field(min_length=1, max_length=10)


class GameOut(_Schema):
    #: Each player's total after the last deal given.
    totals: dict[Name, Points] | None = None
    #: Who holds the highest total (several on a tie).
    winners: tuple[Name, ...] | None = None
    #: Each deal's scores, in order.
    scores: tuple[dict[Name, Points], ...] | None = None


def run_trick(rules: engine.Rules, i: TrickIn) -> dict:
    before = parse_cards(i.trick)
    if i.hand is None:
        if i.play is not None or i.rest:
            raise ExampleInputError("'play' and 'rest' need the 'hand' they are played from")
        cards, legal, player = before, None, None
    else:
        hand = parse_cards(i.hand)
        legal = engine.legal_plays(hand, before, rules=rules)
        player = i.players[len(before)]
        cards = list(before)
        if i.play is not None:
            chosen = parse_cards(i.play)
            if len(chosen) != 1:
                raise ExampleInputError(f"play one card, got '{i.play}'")
            if chosen[0] not in legal:
                raise ExampleInputError(f"{chosen[0]} may not be played here: the legal cards are {format_cards(legal)}")
            cards += [chosen[0], *parse_cards(i.rest)]
        elif i.rest:
            raise ExampleInputError("'rest' needs 'play': the cards after it follow the chosen card")
        as_cards(cards + [c for c in hand if c not in cards])  # one deck: no card twice
    if len(cards) > engine.PLAYERS:
        raise ExampleInputError(f"a trick holds at most {engine.PLAYERS} cards, this one has {len(cards)}")
    as_cards(cards)
    result = {"cards": format_cards(cards), "by": dict(zip(i.players, (str(c) for c in cards)))}
    if legal is not None:
        result |= {"legal": format_cards(legal), "player": player}
    if cards:
        result |= {"winner": i.players[engine.trick_winner(cards, rules=rules)],
                   "complete": len(cards) == engine.PLAYERS}
    return result


def run_deal_score(rules: engine.Rules, i: ScoreIn) -> dict:
    points = engine.score(i.call, i.tricks, rules=rules)
    made = i.tricks >= i.call
    return {"score": points, "made": made, "overtricks": i.tricks - i.call if made else 0,
            "overtrick_points": rules.overtrick_points}


def run_game_totals(rules: engine.Rules, i: GameIn) -> dict:
    sheet = engine.game_totals([{p: tuple(v) for p, v in deal.items()} for deal in i.deals], rules=rules)
    return {"scores": sheet.scores, "running": sheet.running, "totals": sheet.totals,
            "winners": sheet.winners, "complete": sheet.complete,
            "deals": [dict(d) for d in i.deals]}


KINDS: dict[str, tuple[type[_Schema], type[_Schema], Callable[[engine.Rules, Any], dict]]] = {
    "call-break.trick": (TrickIn, TrickOut, run_trick),
    "call-break.deal-score": (ScoreIn, ScoreOut, run_deal_score),
    "call-break.game-totals": (GameIn, GameOut, run_game_totals),
}


def same(key: str, written: Any, computed: Any) -> bool:
    """A written expectation against the engine's value (winners in any order)."""
    if key == "winners":
        return sorted(written) == sorted(computed)
    if isinstance(written, (tuple, list)):
        return list(written) == list(computed)
    return written == computed
