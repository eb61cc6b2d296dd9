"""Tonk: card values, spreads and deadwood, and who pays whom however a hand ends."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from .cards import Card, as_cards, parse_card

TONK_TOTALS = (49, 50)
DEALT_CARDS = 5


@dataclass(frozen=True)
class TonkVariants:
    """House rules; every one is off unless a table agrees to it."""

    no_starting_discard: bool = False
    """The discard pile starts empty instead of with the top card of the stock."""
    spreads_at_once: bool = False
    """Spreads must be laid down all at once, except three aces."""
    new_spreads_double: bool = False
    """Going out without discarding pays double only by new spreads; by hits alone it pays single."""


DEFAULT_VARIANTS = TonkVariants()


# --- values and spreads ----------------------------------------------------------------


def card_value(card: Card | str) -> int:
    """J, Q, K count 10, the ace 1, every other card its number."""
    rank = parse_card(card).rank
    return 1 if rank == 14 else min(rank, 10)


def hand_total(cards) -> int:
    """The sum of the card values in a hand."""
    return sum(card_value(card) for card in as_cards(cards))


def is_tonk(total: int) -> bool:
    """A dealt hand totalling 49 or 50 is a tonk."""
    return total in TONK_TOTALS


def _low_rank(card: Card) -> int:
    # In runs the ace is low only: A-2-3 is a run, Q-K-A is not.
    return 1 if card.rank == 14 else card.rank


def is_book(cards) -> bool:
    """Three or four cards of one rank."""
    hand = as_cards(cards)
    return len(hand) in (3, 4) and len({card.rank for card in hand}) == 1


def is_run(cards) -> bool:
    """Three or more consecutive cards of one suit, the ace low only."""
    hand = as_cards(cards)
    if len(hand) < 3 or len({card.suit for card in hand}) != 1:
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
        for size in (3, 4):
            masks += [sum(1 << i for i in group) for group in combinations(positions, size)]
    for positions in by_suit.values():
        positions = sorted(positions, key=lambda i: _low_rank(hand[i]))
        for start in range(len(positions)):
            run = [positions[start]]
            for i in positions[start + 1:]:
                if _low_rank(hand[i]) != _low_rank(hand[run[-1]]) + 1:
                    break
                run.append(i)
                if len(run) >= 3:
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
    if len(seats) < 2:
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


def dealt_tonk_transfers(totals: Mapping[str, int], stake: int = 1) -> list[Transfer]:
    """Exactly one dealt 49 or 50: double stake from each other player. None, or two or more: nobody pays."""
    totals, stake = _check_totals(totals), _check_stake(stake)
    tonks = [p for p, total in totals.items() if is_tonk(total)]
    # Two or more tonks mean a redeal; none means the hand is simply played.
    if len(tonks) != 1:
        return []
    return _everyone_pays(list(totals), tonks[0], 2 * stake)


def went_out_transfers(
    players: Sequence[str],
    winner: str,
    *,
    discarded: bool,
    stake: int = 1,
    by_new_spreads: bool | None = None,
    variants: TonkVariants = DEFAULT_VARIANTS,
) -> list[Transfer]:
    """`winner` emptied their hand: double stake from each without a final discard (tonk out), else single.

    With variants.new_spreads_double, going out without a discard pays double only
    `by_new_spreads`; by hits alone it pays single, so `by_new_spreads` must be given.
    """
    seats, stake = _check_players(players), _check_stake(stake)
    _check_known(winner, seats)
    if not isinstance(discarded, bool):
        raise ValueError(f"discarded must be True or False, got {discarded!r}")
    double = not discarded
    if double and variants.new_spreads_double:
        if by_new_spreads is None:
            raise ValueError(
                "with the new-spreads-double variant, say whether the winner went out "
                "by new spreads (by_new_spreads=True) or by hits alone (False)"
            )
        double = bool(by_new_spreads)
    return _everyone_pays(seats, winner, 2 * stake if double else stake)


def knock_transfers(totals: Mapping[str, int], knocker: str, stake: int = 1) -> list[Transfer]:
    """A knock: strictly lowest wins single stake from each; otherwise the knocker is caught.

    Caught: the knocker pays double stake to each player whose total is equal or lower,
    and every other player holding the lowest total collects single stake from each
    player not holding it, the knocker included.
    """
    totals, stake = _check_totals(totals), _check_stake(stake)
    _check_known(knocker, list(totals))
    mine = totals[knocker]
    others = [p for p in totals if p != knocker]
    if all(totals[p] > mine for p in others):
        return _everyone_pays(list(totals), knocker, stake)
    caught = [Transfer(knocker, p, 2 * stake) for p in others if totals[p] <= mine]
    lowest = min(totals.values())
    # The knocker never collects here, even when tied for lowest: a knock that ties is caught.
    # "The knocker included": a caught knocker pays each low collector even when tied with them.
    collectors = [p for p in others if totals[p] == lowest]
    payers = [p for p in totals if totals[p] != lowest or p == knocker]
    return caught + [Transfer(p, h, stake) for h in collectors for p in payers]


def stock_out_transfers(totals: Mapping[str, int], stake: int = 1) -> list[Transfer]:
    """The stock ran out: each player holding the lowest total collects single stake from each other player."""
    totals, stake = _check_totals(totals), _check_stake(stake)
    lowest = min(totals.values())
    holders = [p for p, total in totals.items() if total == lowest]
    # Players tied for lowest do not pay one another.
    return [Transfer(p, h, stake) for h in holders for p in totals if totals[p] != lowest]


def payouts_dealt_tonk(totals: Mapping[str, int], stake: int = 1) -> dict[str, int]:
    """Net stake units for dealt hands: one tonk (49 or 50) wins double from each; else all zero."""
    return net(dealt_tonk_transfers(totals, stake), totals)


def payouts_went_out(
    players: Sequence[str],
    winner: str,
    *,
    discarded: bool,
    stake: int = 1,
    by_new_spreads: bool | None = None,
    variants: TonkVariants = DEFAULT_VARIANTS,
) -> dict[str, int]:
    """Net stake units when `winner` empties their hand (see went_out_transfers)."""
    players = tuple(players)
    transfers = went_out_transfers(
        players, winner, discarded=discarded, stake=stake, by_new_spreads=by_new_spreads, variants=variants
    )
    return net(transfers, players)


def payouts_knock(totals: Mapping[str, int], knocker: str, stake: int = 1) -> dict[str, int]:
    """Net stake units after `knocker` knocks (see knock_transfers)."""
    return net(knock_transfers(totals, knocker, stake), totals)


def payouts_stock_out(totals: Mapping[str, int], stake: int = 1) -> dict[str, int]:
    """Net stake units when the stock runs out (see stock_out_transfers)."""
    return net(stock_out_transfers(totals, stake), totals)
