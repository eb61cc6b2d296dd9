"""Tonk played out: deal, knock, draw, spread, hit and discard, for seeded simulations."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from generator.engine.cards import Card, as_cards, full_deck
from generator.games.tonk.engine import (HELD_ACES, STANDARD, Rules, best_spreads, hand_total, is_book, is_tonk, is_run, payouts_dealt_tonk, payouts_knock, payouts_stock_out, payouts_went_out)


@dataclass(frozen=True)
class Ending:
    """How a hand ended and what everyone won or paid."""

    kind: str
    """"dealt_tonk", "redeal", "tonk_out", "out", "knock" or "stock_out"."""
    player: str | None
    """Who ended it (None when the stock ran out or on a redeal)."""
    payouts: Mapping[str, int]


@dataclass(frozen=True)
class TonkState:
    """A hand in progress; every move returns a new state."""

    players: tuple[str, ...]
    """Seating order going left; play starts on the dealer's left."""
    dealer: str
    hands: Mapping[str, tuple[Card, ...]]
    stock: tuple[Card, ...]
    """Face down; the next card drawn is stock[0]."""
    discards: tuple[Card, ...]
    """Face up; the top card is the last."""
    spreads: tuple[tuple[Card, ...], ...] = ()
    """Every spread on the table; anyone may hit any of them."""
    turn: int = 0
    drawn: bool = False
    """The current player has drawn and must discard (or go out) to end the turn."""
    new_spread: bool = False
    """The current player laid a new spread this turn (for the new-spreads-double variant)."""
    stake: int = 1
    rules: Rules = STANDARD
    ending: Ending | None = None

    @property
    def current(self) -> str:
        """The player whose turn it is."""
        start = self.players.index(self.dealer) + 1
        return self.players[(start + self.turn) % len(self.players)]

    def totals(self) -> dict[str, int]:
        """Each player's hand total as it stands."""
        return {p: hand_total(self.hands[p]) for p in self.players}


def deal_hand(players: Sequence[str], dealer: str, rng: random.Random, *, stake: int = 1,
              rules: Rules = STANDARD) -> TonkState:
    """Deal rules.hand_size cards each from the dealer's left and turn the top of the stock (unless the rules say not).

    A dealt tonk settles the hand at once: one tonk is paid, two or more redeal.
    """
    seats = tuple(players)
    if not 2 <= len(seats) <= 10:
        raise ValueError(f"Tonk needs 2 to 10 players, got {len(seats)}")
    for player in seats:
        if seats.count(player) > 1:
            raise ValueError(f"player {player} is listed twice")
    if dealer not in seats:
        raise ValueError(f"unknown player {dealer!r}: players are {', '.join(seats)}")
    deck = full_deck()
    rng.shuffle(deck)
    start = seats.index(dealer) + 1
    order = [seats[(start + i) % len(seats)] for i in range(len(seats))]
    if len(seats) * rules.hand_size >= len(deck):
        raise ValueError(f"{len(seats)} players with {rules.hand_size} cards each leave no stock")
    hands = {p: tuple(deck[i * len(order) + seat] for i in range(rules.hand_size)) for seat, p in enumerate(order)}
    rest = deck[rules.hand_size * len(order):]
    upcard = 0 if rules.no_starting_discard else 1
    state = TonkState(seats, dealer, {p: hands[p] for p in seats}, tuple(rest[upcard:]), tuple(rest[:upcard]),
                      stake=stake, rules=rules)
    payouts = payouts_dealt_tonk(state.totals(), stake, rules=rules)
    tonks = [p for p, total in state.totals().items() if is_tonk(total, rules=rules)]
    if len(tonks) == 1:
        return replace(state, ending=Ending("dealt_tonk", tonks[0], payouts))
    if len(tonks) > 1:
        return replace(state, ending=Ending("redeal", None, payouts))
    return state


def _check_turn(state: TonkState, player: str, *, drawn: bool) -> None:
    if state.ending is not None:
        raise ValueError("the hand is over")
    if player != state.current:
        raise ValueError(f"it is {state.current}'s turn, not {player}'s")
    if state.drawn != drawn:
        raise ValueError(f"{player} must draw first" if drawn else f"{player} has already drawn this turn")


def knock(state: TonkState, player: str) -> TonkState:
    """`player` knocks at the start of their turn, before drawing: the hand ends and totals are compared."""
    _check_turn(state, player, drawn=False)
    return replace(state, ending=Ending("knock", player, payouts_knock(state.totals(), player, state.stake, rules=state.rules)))


def draw(state: TonkState, player: str, source: str = "stock") -> TonkState:
    """`player` takes the top card of the stock or of the discard pile."""
    _check_turn(state, player, drawn=False)
    if source == "stock" and state.stock:
        card, stock, discards = state.stock[0], state.stock[1:], state.discards
    elif source == "discard" and state.discards:
        card, stock, discards = state.discards[-1], state.stock, state.discards[:-1]
    else:
        raise ValueError(f"there is no card to draw from the {source}")
    hands = {**state.hands, player: state.hands[player] + (card,)}
    return replace(state, hands=hands, stock=stock, discards=discards, drawn=True)


def _take(state: TonkState, player: str, cards) -> tuple[Card, ...]:
    wanted = as_cards(cards)
    missing = [str(card) for card in wanted if card not in state.hands[player]]
    if missing:
        raise ValueError(f"{player} does not hold {' '.join(missing)}")
    return tuple(card for card in state.hands[player] if card not in wanted)


def _after_play(state: TonkState, player: str) -> TonkState:
    if state.hands[player]:
        return state
    # Every card played with no discard: a tonk out.
    payouts = payouts_went_out(state.players, player, discarded=False, stake=state.stake,
                               by_new_spreads=state.new_spread, rules=state.rules)
    return replace(state, ending=Ending("tonk_out", player, payouts))


def spread(state: TonkState, player: str, cards) -> TonkState:
    """`player` lays a new book or run from their hand."""
    _check_turn(state, player, drawn=True)
    laid = tuple(as_cards(cards))
    if not (is_book(laid) or is_run(laid)):
        raise ValueError(f"{' '.join(map(str, laid))} is neither a book nor a run")
    left = _take(state, player, laid)
    state = replace(state, hands={**state.hands, player: left}, spreads=state.spreads + (laid,), new_spread=True)
    return _after_play(state, player)


def hit(state: TonkState, player: str, card, spread_index: int) -> TonkState:
    """`player` adds one card to spread number `spread_index` on the table (any player's)."""
    _check_turn(state, player, drawn=True)
    if not 0 <= spread_index < len(state.spreads):
        raise ValueError(f"there is no spread {spread_index} on the table")
    (added,) = as_cards([card])
    grown = state.spreads[spread_index] + (added,)
    if not (is_book(grown) or is_run(grown)):
        raise ValueError(f"{added} does not fit {' '.join(map(str, state.spreads[spread_index]))}")
    left = _take(state, player, [added])
    spreads = state.spreads[:spread_index] + (grown,) + state.spreads[spread_index + 1:]
    return _after_play(replace(state, hands={**state.hands, player: left}, spreads=spreads), player)


def _held_spreads(hand: tuple[Card, ...]) -> bool:
    # Three aces are the one spread a player may keep in hand under spreads_at_once.
    return any(not (len(group) == HELD_ACES and all(card.rank == 14 for card in group))
               for group in best_spreads(hand)[1])


def discard(state: TonkState, player: str, card) -> TonkState:
    """`player` ends the turn by discarding; an empty hand afterwards wins single stake from each.

    Under rules.spreads_at_once the hand kept after the discard may hold no book or
    run except three aces: this engine reads "laid down at once" as "as soon as held".
    """
    _check_turn(state, player, drawn=True)
    left = _take(state, player, [card])
    if state.rules.spreads_at_once and _held_spreads(left):
        raise ValueError(f"{player} must lay down every spread at once (three aces excepted)")
    state = replace(state, hands={**state.hands, player: left}, discards=state.discards + tuple(as_cards([card])))
    if not left:
        payouts = payouts_went_out(state.players, player, discarded=True, stake=state.stake, rules=state.rules)
        return replace(state, ending=Ending("out", player, payouts))
    state = replace(state, turn=state.turn + 1, drawn=False, new_spread=False)
    # A turn begins by drawing; with the stock gone and nobody knocking, the lowest total wins.
    if not state.stock:
        return replace(state, ending=Ending("stock_out", None, payouts_stock_out(state.totals(), state.stake, rules=state.rules)))
    return state


def play_greedy_turn(state: TonkState, rng: random.Random, knock_at: int = 5) -> TonkState:
    """A plain strategy: knock on a low hand; else draw, lay the best spreads, hit, discard the highest card.

    `rng` is unused here; it keeps the signature of strategies that do use chance.
    """
    player = state.current
    if hand_total(state.hands[player]) <= knock_at:
        return knock(state, player)
    state = draw(state, player)
    for group in best_spreads(state.hands[player])[1]:
        state = spread(state, player, group)
        if state.ending:
            return state
    for card in sorted(state.hands[player], reverse=True):
        for index in range(len(state.spreads)):
            grown = state.spreads[index] + (card,)
            if card in state.hands[player] and (is_book(grown) or is_run(grown)):
                state = hit(state, player, card, index)
                if state.ending:
                    return state
    highest = max(state.hands[player], key=lambda c: (hand_total([c]), c))
    return discard(state, player, highest)


def first_dealer(players: Sequence[str], rng: random.Random) -> str:
    """Everyone cuts a card; the highest rank deals, cutting again among any tied for highest."""
    contenders = list(players)
    while len(contenders) > 1:
        cut = dict(zip(contenders, rng.sample(full_deck(), len(contenders))))
        high = max(card.rank for card in cut.values())
        contenders = [p for p in contenders if cut[p].rank == high]
    return contenders[0]


def simulate_hand(players: Sequence[str], seed, *, stake: int = 1,
                  rules: Rules = STANDARD) -> TonkState:
    """Cut for the deal, deal and play one hand with random.Random(seed) and the greedy strategy."""
    rng = random.Random(seed)
    state = deal_hand(players, first_dealer(players, rng), rng, stake=stake, rules=rules)
    while state.ending is None:
        state = play_greedy_turn(state, rng)
    return state
