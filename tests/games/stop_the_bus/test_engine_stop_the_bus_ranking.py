"""Stop the Bus hand ranking over all 22,100 three-card hands."""

import itertools
import random
from functools import cache, cmp_to_key

import pytest

from generator.engine.cards import full_deck
from generator.games.stop_the_bus.engine import CATEGORIES, HandRank, compare, hand_rank, losers

ALL_HANDS = list(itertools.combinations(full_deck(), 3))


@cache
def ranked() -> list:
    """Every hand with its rank (made once, by the first test that reads it)."""
    return [(hand, hand_rank(hand)) for hand in ALL_HANDS]


def category(hand):
    """The category restated from DESIGN.md, with the ace high only."""
    ranks = sorted(card.rank for card in hand)
    one_suit = len({card.suit for card in hand}) == 1
    in_sequence = ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1
    if len(set(ranks)) == 1:
        return "three_of_a_kind"
    if in_sequence and one_suit:
        return "running_flush"
    if in_sequence:
        return "run"
    if one_suit:
        return "flush"
    if len(set(ranks)) == 2:
        return "pair"
    return "high_card"


def test_every_hand_is_in_its_category():
    for hand, rank in ranked():
        assert rank.category == category(hand), hand


def test_category_counts():
    counts = {name: 0 for name in CATEGORIES}
    for _, rank in ranked():
        counts[rank.category] += 1
    assert len(ALL_HANDS) == 22100
    assert counts == {
        "three_of_a_kind": 52,
        "running_flush": 44,
        "run": 660,
        "flush": 1100,
        "pair": 3744,
        "high_card": 16500,
    }


def test_suits_never_break_ties():
    # One class per pattern of ranks and category: 13 trips, 11 running flushes, 11 runs,
    # 286-11 flushes, 13*12 pairs, 286-11 high cards.
    assert len({rank for _, rank in ranked()}) == 13 + 11 + 11 + 275 + 156 + 275
    by_ranks = {}
    for hand, rank in ranked():
        key = (tuple(sorted(c.rank for c in hand)), rank.category)
        by_ranks.setdefault(key, set()).add(rank)
    assert all(len(ranks) == 1 for ranks in by_ranks.values())
    assert compare("QH KH AH", "QS KS AS") == 0
    assert compare("AS KH JD", "AD KC JH") == 0
    assert hash(hand_rank("AS KH JD")) == hash(hand_rank("AD KC JH"))


def test_sorting_agrees_with_compare_and_categories():
    ordered = sorted(rank for _, rank in ranked())
    for low, high in zip(ordered, ordered[1:]):
        assert compare(low, high) in (-1, 0)
        assert CATEGORIES.index(low.category) <= CATEGORIES.index(high.category)
    assert ordered == sorted(ordered, key=cmp_to_key(compare))


def test_compare_is_antisymmetric_and_transitive_on_a_sample():
    sample = random.Random(2024).sample([rank for _, rank in ranked()], 300)
    for a, b in itertools.product(sample[:60], repeat=2):
        assert compare(a, b) == -compare(b, a)
        assert (compare(a, b) == 0) == (a == b)
        assert (compare(a, b) < 0) == (a < b)
    for a, b, c in zip(sample, sample[1:], sample[2:]):
        if compare(a, b) <= 0 and compare(b, c) <= 0:
            assert compare(a, c) <= 0


BEST_TO_WORST = [
    "AH AS AD", "KH KS KD", "QH QS QD", "3H 3S 3D", "2H 2S 2D",   # three of a kind
    "QH KH AH", "JC QC KC", "2C 3C 4C",                            # running flush
    "QH KS AD", "JH QS KD", "2H 3S 4D",                            # run
    "AH KH JH", "AH 2H 3H", "2H 3H 5H",                            # flush
    "AS AH KD", "AS AH 2D", "KS KH AD", "2S 2H AD", "2S 2H 3D",    # pair
    "AS KH JD", "AS KH 10D", "AS 3H 2D", "KS QH 10D", "5S 3H 2D",  # high card
]


def test_explicit_order_best_to_worst():
    ranks = [hand_rank(hand) for hand in BEST_TO_WORST]
    for better, worse, text in zip(ranks, ranks[1:], BEST_TO_WORST[1:]):
        assert compare(better, worse) == 1, text
        assert compare(worse, better) == -1, text
        assert worse < better


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("AH 2S 3D", "high_card"),   # the ace is high only: A-2-3 is no run
        ("AH 2H 3H", "flush"),
        ("QH KS AD", "run"),
        ("KH AS 2D", "high_card"),   # no wrapping round the corner
        ("3H 3S 3D", "three_of_a_kind"),
    ],
)
def test_categories_at_the_edges(hand, expected):
    assert hand_rank(hand).category == expected


def test_a_pair_of_twos_beats_ace_king_jack():
    assert compare("2S 2H 3D", "AS KH JD") == 1
    # A-K-Q off-suit is a run, so it beats any pair.
    assert compare("AS KH QD", "AS AH KD") == 1


def test_hand_rank_reads_lists_and_keeps_the_cards():
    rank = hand_rank(["QH", "KH", "AH"])
    assert isinstance(rank, HandRank) and rank.category == "running_flush"
    assert [str(c) for c in rank.cards] == ["QH", "KH", "AH"]
    assert rank.tiebreak == (14,)
    assert hand_rank("KS KH 5D").tiebreak == (13, 5)


def test_losers_are_everyone_tied_for_lowest():
    assert losers({"Asha": "2H 3S 5D", "Ben": "AH AS AD", "Cy": "QC KC AC"}) == {"Asha"}
    assert losers({"Asha": "2H 3S 5D", "Ben": "2C 3D 5H", "Cy": "7H 7S 9D"}) == {"Asha", "Ben"}
    assert losers({"Asha": "QH KH AH", "Ben": "QS KS AS"}) == {"Asha", "Ben"}
