"""Seeded deals and games played out by the engine, replayed and checked against the oracle; exact odds of the deal."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product
from math import comb, factorial

import pytest

from generator.engine.cards import full_deck
from generator.games.call_break.engine import (
    Rules,
    deal_hands,
    deals_count,
    most_likely_spades,
    odds,
    play_deal,
    play_game,
    score,
    spade_count_odds,
)

from . import oracle

SEATS = ("Asha", "Ben", "Kiran", "Maya")  # listed going right, the way deal and play pass
RULES = [Rules(), Rules(must_overtake=False), Rules(overtrick_points=0, min_call=2, max_call=13),
         Rules(redeal_without_spades=True)]


def check_deal(deal, rules):
    """Replay a deal card by card: every rule of the game, from the oracle, not from the engine."""
    assert deal.players == SEATS
    assert sorted(c for h in deal.hands.values() for c in h) == sorted(full_deck())
    assert all(len(h) == 13 for h in deal.hands.values())
    assert len(deal.tricks) == 13
    played = [c for t in deal.tricks for c in t.cards]
    assert len(played) == 52 and sorted(played) == sorted(full_deck())  # every card once
    held = {p: list(h) for p, h in deal.hands.items()}
    right_of = {p: SEATS[(i + 1) % 4] for i, p in enumerate(SEATS)}
    leader = right_of[deal.dealer]  # the player right of the dealer leads the first trick
    for trick in deal.tricks:
        assert trick.players[0] == leader
        assert all(trick.players[k + 1] == right_of[trick.players[k]] for k in range(3))  # play passes right
        for k, (player, card) in enumerate(zip(trick.players, trick.cards)):
            assert card in held[player]
            assert oracle.may_play(card, held[player], trick.cards[:k], must_overtake=rules.must_overtake)
            held[player].remove(card)
        assert trick.winner == trick.players[oracle.winner(trick.cards)]
        leader = trick.winner
    assert all(not h for h in held.values())
    assert deal.taken == dict(Counter(t.winner for t in deal.tricks)) | {p: 0 for p in SEATS if p not in
                                                                       {t.winner for t in deal.tricks}}
    assert sum(deal.taken.values()) == 13
    assert all(rules.min_call <= deal.calls[p] <= rules.max_call for p in SEATS)
    tenths = int(rules.overtrick_points * 10)
    assert deal.scores == {p: oracle.score(deal.calls[p], deal.taken[p], tenths) for p in SEATS}
    if rules.redeal_without_spades:
        assert all(any(c.suit == "S" for c in h) for h in deal.hands.values())


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("seed", range(12))
def test_a_seeded_deal_played_out(seed, rules):
    deal = play_deal(seed, SEATS, "Maya", rules=rules)
    check_deal(deal, rules)
    assert deal.dealer == "Maya" and deal.tricks[0].players[0] == "Asha"


def test_a_deal_is_reproducible_by_its_seed():
    assert play_deal(41) == play_deal(41) == play_deal(41, SEATS, "Maya")
    assert play_deal(41) != play_deal(42)
    assert play_deal("festival") == play_deal("festival")
    assert play_deal(41, dealer="Ben").tricks[0].players[0] == "Kiran"


def test_the_deal_goes_round_from_the_right_of_the_dealer():
    class Unshuffled(random.Random):
        def shuffle(self, deck):
            pass

    hands = deal_hands(SEATS, "Ben", Unshuffled())
    deck = full_deck()
    # Kiran sits right of Ben and gets the first card, then Maya, Asha, and Ben last.
    assert hands["Kiran"][:2] == (deck[0], deck[4]) and hands["Maya"][0] == deck[1]
    assert hands["Asha"][0] == deck[2] and hands["Ben"][0] == deck[3] and hands["Ben"][-1] == deck[51]


@pytest.mark.parametrize("rules", [Rules(), Rules(deals=3, overtrick_points=0), Rules(deals=10, max_call=13)])
def test_a_seeded_game_played_out(rules):
    game = play_game(7, SEATS, rules=rules)
    assert len(game.deals) == rules.deals
    # The deal passes to the right: Maya, then Asha, Ben, Kiran, Maya...
    assert [d.dealer for d in game.deals] == [SEATS[(3 + k) % 4] for k in range(rules.deals)]
    for deal in game.deals:
        check_deal(deal, rules)
    totals = {p: sum((d.scores[p] for d in game.deals), Fraction(0)) for p in SEATS}
    assert game.totals.totals == totals
    assert game.totals.running[-1] == totals and game.totals.complete
    best = max(totals.values())
    assert game.totals.winners == tuple(p for p in SEATS if totals[p] == best)
    assert play_game(7, SEATS, rules=rules) == game


def test_spadeless_hands_are_dealt_again_only_with_the_house_rule():
    # Find a seed whose first deal has a hand without spades (about 1 deal in 20).
    seed = next(s for s in range(500)
                if any(all(c.suit != "S" for c in h) for h in deal_hands(SEATS, "Maya", random.Random(s)).values()))
    plain = play_deal(seed)
    assert plain.redeals == 0 and any(all(c.suit != "S" for c in h) for h in plain.hands.values())
    redealt = play_deal(seed, rules=Rules(redeal_without_spades=True))
    assert redealt.redeals >= 1
    check_deal(redealt, Rules(redeal_without_spades=True))


def test_a_custom_chooser_that_cheats_is_caught():
    def revoke(legal, trick, rng):
        return legal[-1] if len(legal) == 1 else None

    with pytest.raises(ValueError, match="may not play None to"):
        play_deal(3, choose=revoke)


@pytest.mark.parametrize("make, message", [
    (lambda: play_deal(1, ("Asha", "Ben", "Kiran")), "Call Break is for 4 players, got 3"),
    (lambda: play_deal(1, ("Asha", "Ben", "Kiran", "Asha")), "player Asha is listed twice"),
    (lambda: play_deal(1, SEATS, "Tom"), "unknown dealer 'Tom': players are Asha, Ben, Kiran, Maya"),
    (lambda: play_game(1, SEATS, "Tom"), "unknown dealer 'Tom': players are Asha, Ben, Kiran, Maya"),
])
def test_bad_tables_are_refused(make, message):
    with pytest.raises(ValueError) as err:
        make()
    assert str(err.value) == message


def test_the_chance_of_a_hand_without_spades():
    chance = odds()["no_spade"]
    assert chance == Fraction(comb(39, 13), comb(52, 13))
    assert round(1 / chance) == 78  # "about 1 in 78"
    assert spade_count_odds()[0] == chance


def test_spade_counts_add_up_and_three_is_most_likely():
    counts = spade_count_odds()
    assert sum(counts.values()) == 1 and len(counts) == 14
    assert most_likely_spades() == 3 and counts[13] == Fraction(1, comb(52, 13))


def distributions(suit_size=13):
    """Every way to split one suit's 13 cards over four hands of 13, with its exact chance."""
    deals = Fraction(factorial(52), factorial(13) ** 4)
    for split in product(range(suit_size + 1), repeat=4):
        if sum(split) == suit_size:
            ways = Fraction(factorial(13), product_of(factorial(k) for k in split))
            rest = Fraction(factorial(39), product_of(factorial(13 - k) for k in split))
            yield split, ways * rest / deals


def product_of(values):
    out = 1
    for v in values:
        out *= v
    return out


def test_the_chance_that_some_hand_has_no_spade_by_counting_every_split():
    by_split = dict(distributions())
    assert sum(by_split.values()) == 1
    someone = sum(p for split, p in by_split.items() if 0 in split)
    assert odds()["someone_no_spade"] == someone
    assert round(1 / someone) == 20
    # Transposing a deal turns suits into players: one hand missing a suit is just as likely.
    assert odds()["void"] == someone


def test_a_hand_without_a_face_card():
    assert odds()["no_face_card"] == Fraction(comb(36, 13), comb(52, 13))
    assert round(1 / odds()["no_face_card"]) == 275


def test_the_number_of_deals():
    assert deals_count() == factorial(52) // factorial(13) ** 4 == 53644737765488792839237440000


def test_a_deal_scores_what_score_says():
    deal = play_deal(5)
    assert all(deal.scores[p] == score(deal.calls[p], deal.taken[p]) for p in SEATS)
