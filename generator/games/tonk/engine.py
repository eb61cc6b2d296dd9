"""Tonk: card values, spreads and deadwood, and who pays whom however a hand ends."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from generator.engine.cards import Card, as_cards, parse_card

#: Card values: J, Q, K count 10, the ace 1, every other card its number (the game itself, not a house rule).
FACE_CARD_VALUE = 10
ACE_VALUE = 1
#: A book is 3 or 4 cards of one rank; a run at least 3 cards in suit.
BOOK_SIZES = (3, 4)
RUN_MIN = 3
#: A single stake is one stake unit; every payment is a whole number of them.
SINGLE_STAKE = 1
#: With spreads_at_once, this many aces may stay in the hand.
HELD_ACES = 3
MIN_PLAYERS = 2


@dataclass(frozen=True)
class Rules:
    """The rules one table plays by; the defaults are the standard rules, every field a house-rule switch."""

    tonk_totals: tuple[int, ...] = (49, 50)
    """Totals of a dealt hand that make a tonk."""
    hand_size: int = 5
    """Cards dealt to each player."""
    tonk_multiplier: int = 2
    """Stakes a lone dealt tonk wins from each other player."""
    tonk_out_multiplier: int = 2
    """Stakes for going out with no discard (tonking out), from each other player."""
    caught_multiplier: int = 2
    """Stakes a caught knocker pays each player at or below its total."""
    no_starting_discard: bool = False
    """The discard pile starts empty instead of with the top card of the stock."""
    spreads_at_once: bool = False
    """Spreads must be laid down as soon as they are held, except three aces."""
    new_spreads_double: bool = False
    """Going out without discarding pays tonk_out_multiplier only by new spreads; by hits alone a single stake."""

    def __post_init__(self) -> None:
        totals = self.tonk_totals
        if (not isinstance(totals, tuple) or not totals or len(set(totals)) != len(totals)
                or any(type(t) is not int or t < 1 for t in totals)):
            raise ValueError(f"tonk_totals must be one or more different whole numbers, got {totals!r}")
        if type(self.hand_size) is not int or not 3 <= self.hand_size <= 10:
            raise ValueError(f"hand_size must be 3 to 10 cards, got {self.hand_size!r}")
        for name in ("tonk_multiplier", "tonk_out_multiplier", "caught_multiplier"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise ValueError(f"{name} must be a whole number, 1 or more, got {value!r}")
        for name in ("no_starting_discard", "spreads_at_once", "new_spreads_double"):
            if type(getattr(self, name)) is not bool:
                raise ValueError(f"{name} must be true or false, got {getattr(self, name)!r}")


STANDARD = Rules()


# --- values and spreads ----------------------------------------------------------------


def card_value(card: Card | str) -> int:
    """J, Q, K count 10, the ace 1, every other card its number."""
    rank = parse_card(card).rank
    return ACE_VALUE if rank == 14 else min(rank, FACE_CARD_VALUE)


def hand_total(cards) -> int:
    """The sum of the card values in a hand."""
    return sum(card_value(card) for card in as_cards(cards))


def is_tonk(total: int, *, rules: Rules = STANDARD) -> bool:
    """A dealt hand whose total is one of rules.tonk_totals (49 or 50) is a tonk."""
    return total in rules.tonk_totals


def _low_rank(card: Card) -> int:
    # In runs the ace is low only: A-2-3 is a run, Q-K-A is not.
    return 1 if card.rank == 14 else card.rank


def is_book(cards) -> bool:
    """Three or four cards of one rank."""
    hand = as_cards(cards)
    return len(hand) in BOOK_SIZES and len({card.rank for card in hand}) == 1


def is_run(cards) -> bool:
    """Three or more consecutive cards of one suit, the ace low only."""
    hand = as_cards(cards)
    if len(hand) < RUN_MIN or len({card.suit for card in hand}) != 1:
        return False
    ranks = sorted(_low_rank(card) for card in hand)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def _spread_masks(hand: list[Card]) -> list[int]:
    """Every book and run inside the hand, as bit masks over the hand's positions."""
    masks = []
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[str, list[int]] = {}
    for i, card in enumerate(hand):
        by_rank.setdefault(card.rank, []).append(i)
        by_suit.setdefault(card.suit, []).append(i)
    for positions in by_rank.values():
        for size in BOOK_SIZES:
            masks += [sum(1 << i for i in group) for group in combinations(positions, size)]
    for positions in by_suit.values():
        positions = sorted(positions, key=lambda i: _low_rank(hand[i]))
        for start in range(len(positions)):
            run = [positions[start]]
            for i in positions[start + 1:]:
                if _low_rank(hand[i]) != _low_rank(hand[run[-1]]) + 1:
                    break
                run.append(i)
                if len(run) >= RUN_MIN:
                    masks.append(sum(1 << j for j in run))
    return masks


def best_spreads(cards) -> tuple[int, tuple[tuple[Card, ...], ...]]:
    """The smallest total left after laying disjoint spreads, and one choice of spreads reaching it.

    Exact: a search over every way to split the hand, memoised on the cards still unplaced.
    """
    hand = as_cards(cards)
    values = [card_value(card) for card in hand]
    spreads = _spread_masks(hand)

    @lru_cache(maxsize=None)
    def best(mask: int) -> tuple[int, tuple[int, ...]]:
        if not mask:
            return 0, ()
        low = mask & -mask  # the first unplaced card is either left over or in some spread
        rest, chosen = best(mask & ~low)
        answer = (rest + values[low.bit_length() - 1], chosen)
        for spread in spreads:
            if spread & low and spread & mask == spread:
                rest, chosen = best(mask & ~spread)
                if rest < answer[0]:
                    answer = (rest, (spread, *chosen))
        return answer

    total, chosen = best((1 << len(hand)) - 1)
    laid = tuple(tuple(card for i, card in enumerate(hand) if spread >> i & 1) for spread in chosen)
    return total, laid


def deadwood(cards) -> int:
    """The smallest total left in hand after laying disjoint books and runs."""
    return best_spreads(cards)[0]


# --- payouts ---------------------------------------------------------------------------


class Transfer(NamedTuple):
    """`payer` pays `payee` `amount`, the stake already applied (a double at stake 5 is 10)."""

    payer: str
    payee: str
    amount: int


def _check_stake(stake: int) -> int:
    if type(stake) is not int or stake < 1:
        raise ValueError(f"stake must be a positive whole number, got {stake!r}")
    return stake


def _check_players(players: Iterable[str]) -> tuple[str, ...]:
    seats = tuple(players)
    if len(seats) < MIN_PLAYERS:
        raise ValueError(f"a Tonk hand needs at least 2 players, got {len(seats)}")
    for player in seats:
        if seats.count(player) > 1:
            raise ValueError(f"player {player} is listed twice")
    return seats


def _check_totals(totals: Mapping[str, int]) -> dict[str, int]:
    checked = dict(totals)
    _check_players(checked)
    for player, total in checked.items():
        if type(total) is not int or total < 0:
            raise ValueError(f"{player}'s total must be a whole number, 0 or more, got {total!r}")
    return checked


def _check_known(player: str, players: Sequence[str]) -> None:
    if player not in players:
        raise ValueError(f"unknown player {player!r}: players are {', '.join(map(str, players))}")


def net(transfers: Iterable[Transfer], players: Iterable[str]) -> dict[str, int]:
    """Each player's net result from a list of transfers; every player appears, the sum is zero."""
    result = {player: 0 for player in players}
    for payer, payee, amount in transfers:
        result[payer] -= amount
        result[payee] += amount
    return result


def _everyone_pays(players: Sequence[str], payee: str, amount: int) -> list[Transfer]:
    return [Transfer(p, payee, amount) for p in players if p != payee]


def dealt_tonk_transfers(totals: Mapping[str, int], stake: int = 1, *, rules: Rules = STANDARD) -> list[Transfer]:
    """Exactly one dealt tonk: rules.tonk_multiplier stakes from each other player. None, or two or more: nobody pays."""
    totals, stake = _check_totals(totals), _check_stake(stake)
    tonks = [p for p, total in totals.items() if is_tonk(total, rules=rules)]
    # Two or more tonks mean a redeal; none means the hand is simply played.
    if len(tonks) != 1:
        return []
    return _everyone_pays(list(totals), tonks[0], rules.tonk_multiplier * stake)


def went_out_transfers(
    players: Sequence[str],
    winner: str,
    *,
    discarded: bool,
    stake: int = 1,
    by_new_spreads: bool | None = None,
    rules: Rules = STANDARD,
) -> list[Transfer]:
    """`winner` emptied their hand: rules.tonk_out_multiplier stakes from each without a final discard, else single.

    With rules.new_spreads_double, going out without a discard pays the multiplier only
    `by_new_spreads`; by hits alone it pays single, so `by_new_spreads` must be given.
    """
    seats, stake = _check_players(players), _check_stake(stake)
    _check_known(winner, seats)
    if not isinstance(discarded, bool):
        raise ValueError(f"discarded must be True or False, got {discarded!r}")
    multiplied = not discarded
    if multiplied and rules.new_spreads_double:
        if by_new_spreads is None:
            raise ValueError(
                "with the new-spreads-double variant, say whether the winner went out "
                "by new spreads (by_new_spreads=True) or by hits alone (False)"
            )
        multiplied = bool(by_new_spreads)
    units = rules.tonk_out_multiplier if multiplied else SINGLE_STAKE
    return _everyone_pays(seats, winner, units * stake)


def knock_transfers(totals: Mapping[str, int], knocker: str, stake: int = 1, *,
                    rules: Rules = STANDARD) -> list[Transfer]:
    """A knock: strictly lowest wins single stake from each; otherwise the knocker is caught.

    Caught: the knocker pays rules.caught_multiplier stakes to each player whose total is
    equal or lower, and every other player holding the lowest total collects single stake
    from each player not holding it, the knocker included.
    """
    totals, stake = _check_totals(totals), _check_stake(stake)
    _check_known(knocker, list(totals))
    mine = totals[knocker]
    others = [p for p in totals if p != knocker]
    single = SINGLE_STAKE * stake
    if all(totals[p] > mine for p in others):
        return _everyone_pays(list(totals), knocker, single)
    caught = [Transfer(knocker, p, rules.caught_multiplier * stake) for p in others if totals[p] <= mine]
    lowest = min(totals.values())
    # The knocker never collects here, even when tied for lowest: a knock that ties is caught.
    # "The knocker included": a caught knocker pays each low collector even when tied with them.
    collectors = [p for p in others if totals[p] == lowest]
    payers = [p for p in totals if totals[p] != lowest or p == knocker]
    return caught + [Transfer(p, h, single) for h in collectors for p in payers]


def stock_out_transfers(totals: Mapping[str, int], stake: int = 1, *, rules: Rules = STANDARD) -> list[Transfer]:
    """The stock ran out: each player holding the lowest total collects single stake from each other player."""
    totals, stake = _check_totals(totals), _check_stake(stake)
    lowest = min(totals.values())
    holders = [p for p, total in totals.items() if total == lowest]
    # Players tied for lowest do not pay one another.
    return [Transfer(p, h, SINGLE_STAKE * stake) for h in holders for p in totals if totals[p] != lowest]


def payouts_dealt_tonk(totals: Mapping[str, int], stake: int = 1, *, rules: Rules = STANDARD) -> dict[str, int]:
    """Net stake units for dealt hands: one tonk wins rules.tonk_multiplier stakes from each; else all zero."""
    return net(dealt_tonk_transfers(totals, stake, rules=rules), totals)


def payouts_went_out(
    players: Sequence[str],
    winner: str,
    *,
    discarded: bool,
    stake: int = 1,
    by_new_spreads: bool | None = None,
    rules: Rules = STANDARD,
) -> dict[str, int]:
    """Net stake units when `winner` empties their hand (see went_out_transfers)."""
    players = tuple(players)
    transfers = went_out_transfers(
        players, winner, discarded=discarded, stake=stake, by_new_spreads=by_new_spreads, rules=rules
    )
    return net(transfers, players)


def payouts_knock(totals: Mapping[str, int], knocker: str, stake: int = 1, *,
                  rules: Rules = STANDARD) -> dict[str, int]:
    """Net stake units after `knocker` knocks (see knock_transfers)."""
    return net(knock_transfers(totals, knocker, stake, rules=rules), totals)


def payouts_stock_out(totals: Mapping[str, int], stake: int = 1, *, rules: Rules = STANDARD) -> dict[str, int]:
    """Net stake units when the stock runs out (see stock_out_transfers)."""
    return net(stock_out_transfers(totals, stake, rules=rules), totals)
