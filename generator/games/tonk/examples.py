"""Tonk's worked examples: spreads, and who pays whom however a hand ends, computed by the engine."""

from __future__ import annotations

from pydantic import Field

from generator.engine import cards as cardlib
from generator.games.tonk import engine as tonk
from generator.model.examples import MAX_PLAYERS, Cards, ExampleInputError, Schema as _Schema, Stake


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



def _totals(hands: dict[str, str]) -> dict[str, int]:
    return {p: tonk.hand_total(h) for p, h in hands.items()}


def _all_cards(hands: dict[str, str]) -> None:
    # Cards in a worked example come from one deck: a card in two hands is a typo.
    cardlib.as_cards(" ".join(hands.values()))


def dealt(rules: tonk.Rules, i: StakeHandsIn) -> dict:
    _all_cards(i.hands)
    for player, hand in i.hands.items():
        if len(cardlib.parse_cards(hand)) != rules.hand_size:
            raise ExampleInputError(f"{player} is dealt {len(cardlib.parse_cards(hand))} cards, "
                                    f"but these rules deal {rules.hand_size}")
    totals = _totals(i.hands)
    return {"totals": totals, "payouts": tonk.payouts_dealt_tonk(totals, stake=i.stake, rules=rules)}


def knock(rules: tonk.Rules, i: KnockIn) -> dict:
    _all_cards(i.hands)
    totals = _totals(i.hands)
    return {"totals": totals, "payouts": tonk.payouts_knock(totals, i.knocker, stake=i.stake, rules=rules)}


def stock_out(rules: tonk.Rules, i: StakeHandsIn) -> dict:
    _all_cards(i.hands)
    totals = _totals(i.hands)
    return {"totals": totals, "payouts": tonk.payouts_stock_out(totals, stake=i.stake, rules=rules)}


def went_out(rules: tonk.Rules, i: WentOutIn) -> dict:
    return {"payouts": tonk.payouts_went_out(list(i.players), i.winner, discarded=i.discarded, stake=i.stake,
                                             by_new_spreads=i.by_new_spreads, rules=rules)}


def spread(rules: tonk.Rules, i: CardsIn) -> dict:
    cs = cardlib.parse_cards(i.cards)
    return {"total": tonk.hand_total(cs), "book": tonk.is_book(cs), "run": tonk.is_run(cs),
            "deadwood": tonk.deadwood(cs)}
