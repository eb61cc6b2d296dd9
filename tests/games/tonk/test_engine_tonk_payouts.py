"""Tonk payouts: worked hands, rules, and properties for any totals, knocker and stake."""

import pytest
from hypothesis import given, settings, strategies as st

from generator.games.tonk.engine import (Rules, Transfer, knock_transfers, payouts_dealt_tonk, payouts_knock, payouts_stock_out, payouts_went_out)

# --- worked hands ---------------------------------------------------------------------


def test_dealt_tonk():
    assert payouts_dealt_tonk({"Asha": 49, "Ben": 30, "Cy": 12}) == {"Asha": 4, "Ben": -2, "Cy": -2}
    assert payouts_dealt_tonk({"Asha": 20, "Ben": 50}, stake=5) == {"Asha": -10, "Ben": 10}
    # Two tonks: redeal, nobody pays. No tonk: the hand is played, nobody pays yet.
    assert payouts_dealt_tonk({"Asha": 49, "Ben": 50, "Cy": 12}) == {"Asha": 0, "Ben": 0, "Cy": 0}
    assert payouts_dealt_tonk({"Asha": 40, "Ben": 12}) == {"Asha": 0, "Ben": 0}


def test_went_out():
    players = ["Asha", "Ben", "Cy"]
    assert payouts_went_out(players, "Ben", discarded=False) == {"Asha": -2, "Ben": 4, "Cy": -2}
    assert payouts_went_out(players, "Ben", discarded=True) == {"Asha": -1, "Ben": 2, "Cy": -1}
    assert payouts_went_out(players, "Cy", discarded=True, stake=3) == {"Asha": -3, "Ben": -3, "Cy": 6}


def test_went_out_with_the_new_spreads_variant():
    players = ["Asha", "Ben"]
    double = Rules(new_spreads_double=True)
    assert payouts_went_out(players, "Asha", discarded=False, by_new_spreads=True, rules=double) == {
        "Asha": 2, "Ben": -2,
    }
    assert payouts_went_out(players, "Asha", discarded=False, by_new_spreads=False, rules=double) == {
        "Asha": 1, "Ben": -1,
    }
    assert payouts_went_out(players, "Asha", discarded=True, rules=double) == {"Asha": 1, "Ben": -1}
    # Off by default: how the winner went out does not matter.
    assert payouts_went_out(players, "Asha", discarded=False, by_new_spreads=False) == {"Asha": 2, "Ben": -2}
    with pytest.raises(ValueError) as error:
        payouts_went_out(players, "Asha", discarded=False, rules=double)
    assert str(error.value) == (
        "with the new-spreads-double variant, say whether the winner went out "
        "by new spreads (by_new_spreads=True) or by hits alone (False)"
    )


def test_variants_are_off_by_default():
    assert Rules() == Rules(no_starting_discard=False, spreads_at_once=False, new_spreads_double=False)


def test_knock_strictly_lowest():
    assert payouts_knock({"Asha": 5, "Ben": 8, "Cy": 12}, "Asha") == {"Asha": 2, "Ben": -1, "Cy": -1}
    assert payouts_knock({"Asha": 5, "Ben": 8}, "Asha", stake=2) == {"Asha": 2, "Ben": -2}


def test_knock_caught_by_a_lower_hand():
    # Asha pays Ben double (8 <= 10); Ben, lowest, collects single from Asha and Cy.
    assert knock_transfers({"Asha": 10, "Ben": 8, "Cy": 12}, "Asha") == [
        Transfer("Asha", "Ben", 2), Transfer("Asha", "Ben", 1), Transfer("Cy", "Ben", 1),
    ]
    assert payouts_knock({"Asha": 10, "Ben": 8, "Cy": 12}, "Asha") == {"Asha": -3, "Ben": 4, "Cy": -1}


def test_knock_caught_by_a_tie():
    # A tie is not strictly lowest: Asha pays Ben double; Ben holds the lowest and collects
    # single stake from Cy and, "the knocker included", from Asha although she ties him.
    assert payouts_knock({"Asha": 8, "Ben": 8, "Cy": 12}, "Asha") == {"Asha": -3, "Ben": 4, "Cy": -1}


def test_knock_caught_with_several_under():
    # Ben 3 and Cy 9 are both at or under Asha's 9: Asha pays each double; Ben (lowest)
    # collects single from Asha, Cy and Dee.
    totals = {"Asha": 9, "Ben": 3, "Cy": 9, "Dee": 20}
    assert payouts_knock(totals, "Asha") == {"Asha": -5, "Ben": 5, "Cy": 1, "Dee": -1}


def test_stock_out():
    assert payouts_stock_out({"Asha": 5, "Ben": 8, "Cy": 12}) == {"Asha": 2, "Ben": -1, "Cy": -1}
    # Tied lowest players do not pay each other.
    assert payouts_stock_out({"Asha": 5, "Ben": 5, "Cy": 12}, stake=2) == {"Asha": 2, "Ben": 2, "Cy": -4}
    assert payouts_stock_out({"Asha": 7, "Ben": 7}) == {"Asha": 0, "Ben": 0}


# --- properties -----------------------------------------------------------------------

NAMES = ["Asha", "Ben", "Cy", "Dee", "Eli", "Fay"]


@st.composite
def tables(draw, high=60):
    count = draw(st.integers(2, 6))
    totals = {name: draw(st.integers(0, high)) for name in NAMES[:count]}
    return totals, draw(st.sampled_from(list(totals))), draw(st.integers(1, 100))


def _is_fair(result, players):
    return list(result) == list(players) and sum(result.values()) == 0


@settings(max_examples=150, deadline=None)
@given(tables())
def test_knock_sums_to_zero_and_follows_the_rule(table):
    totals, knocker, stake = table
    result = payouts_knock(totals, knocker, stake)
    assert _is_fair(result, totals)
    assert result == {p: stake * v for p, v in payouts_knock(totals, knocker).items()}
    others = [p for p in totals if p != knocker]
    lowest = min(totals.values())
    if all(totals[p] > totals[knocker] for p in others):
        assert result[knocker] == stake * len(others)
    else:
        assert result[knocker] < 0
        assert all(result[p] > 0 for p in others if totals[p] == lowest)
        assert all(result[p] == -stake * sum(1 for q in others if totals[q] == lowest)
                   for p in others if totals[p] > totals[knocker])


@settings(max_examples=150, deadline=None)
@given(tables())
def test_stock_out_sums_to_zero_and_follows_the_rule(table):
    totals, _, stake = table
    result = payouts_stock_out(totals, stake)
    assert _is_fair(result, totals)
    lowest = min(totals.values())
    holders = sum(1 for t in totals.values() if t == lowest)
    for player, total in totals.items():
        expected = stake * (len(totals) - holders) if total == lowest else -stake * holders
        assert result[player] == expected


@settings(max_examples=150, deadline=None)
@given(tables(high=50))
def test_dealt_tonk_sums_to_zero(table):
    totals, _, stake = table
    result = payouts_dealt_tonk(totals, stake)
    assert _is_fair(result, totals)
    tonks = [p for p, t in totals.items() if t in (49, 50)]
    if len(tonks) == 1:
        assert result[tonks[0]] == 2 * stake * (len(totals) - 1)
    else:
        assert set(result.values()) == {0}


@settings(max_examples=100, deadline=None)
@given(tables(), st.booleans(), st.booleans(), st.booleans())
def test_went_out_sums_to_zero(table, discarded, by_new_spreads, variant):
    totals, winner, stake = table
    players = list(totals)
    result = payouts_went_out(
        players, winner, discarded=discarded, stake=stake, by_new_spreads=by_new_spreads,
        rules=Rules(new_spreads_double=variant),
    )
    assert _is_fair(result, players)
    double = not discarded and (by_new_spreads or not variant)
    assert result[winner] == (2 if double else 1) * stake * (len(players) - 1)
