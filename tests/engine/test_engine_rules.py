"""The engines' Rules: standard defaults, validation, and each switch changing what the engine computes."""

from __future__ import annotations

import itertools
from dataclasses import fields

import pytest
from hypothesis import given, settings, strategies as st

from generator.games.bunco import engine as bunco
from generator.games.stop_the_bus import odds as stop_the_bus_odds
from generator.games.tonk import odds as tonk_odds
from generator.games.stop_the_bus import engine as stop_the_bus
from generator.games.tonk import engine as tonk
from generator.engine.cards import full_deck


def test_defaults_are_the_standard_rules_of_the_design():
    assert bunco.Rules() == bunco.Rules(rounds_per_set=6, point_per_die=1, baby_bunco_points=5, bunco_points=21,
                                        target_points=21, wipeout=False)
    assert stop_the_bus.Rules() == stop_the_bus.Rules(ace_low_run=False, tokens=3)
    assert tonk.Rules() == tonk.Rules(tonk_totals=(49, 50), hand_size=5, tonk_multiplier=2, tonk_out_multiplier=2,
                                      caught_multiplier=2, no_starting_discard=False, spreads_at_once=False,
                                      new_spreads_double=False)
    for cls in (bunco.Rules, stop_the_bus.Rules, tonk.Rules):
        with pytest.raises(Exception):
            setattr(cls(), fields(cls)[0].name, None)  # frozen


@pytest.mark.parametrize("make, message", [
    (lambda: bunco.Rules(rounds_per_set=7), "rounds_per_set must be 1 to 6 (a die has six faces), got 7"),
    (lambda: bunco.Rules(bunco_points=0), "bunco_points must be a whole number, 1 or more, got 0"),
    (lambda: stop_the_bus.Rules(tokens=True), "tokens must be a whole number, 1 or more, got True"),
    (lambda: tonk.Rules(tonk_totals=()), "tonk_totals must be one or more different whole numbers, got ()"),
    (lambda: tonk.Rules(hand_size=2), "hand_size must be 3 to 10 cards, got 2"),
])
def test_bad_rules_are_refused(make, message):
    with pytest.raises(ValueError) as err:
        make()
    assert str(err.value) == message


def test_bunco_rounds_and_points_follow_the_rules():
    short = bunco.Rules(rounds_per_set=4, bunco_points=25, baby_bunco_points=7, point_per_die=2)
    assert bunco.score_throw([4, 4, 4], 4, rules=short).points == 25
    assert bunco.score_throw([5, 5, 5], 4, rules=short).points == 7
    assert bunco.score_throw([4, 1, 4], 4, rules=short).points == 4
    with pytest.raises(ValueError, match="the round must be 1 to 4, got 5"):
        bunco.score_throw([1, 2, 3], 5, rules=short)
    evening = bunco.play_evening([f"p{i}" for i in range(8)], seed=7, rules=short)
    assert len(evening.rounds) == 4 * short.sets_per_evening
    assert max(r.round_number for r in evening.rounds) == 4


@settings(max_examples=30, deadline=None)
@given(st.integers(11, 51), st.integers(0, 10**6))
def test_the_head_table_rings_at_the_target(target, seed):
    rules = bunco.Rules(target_points=target)
    evening = bunco.play_evening([f"p{i}" for i in range(4)], sets=1, seed=seed, rules=rules)
    for record in evening.rounds:
        assert max(record.points[0]) >= target


def test_ace_low_run_orders_every_run():
    low = stop_the_bus.Rules(ace_low_run=True)
    rank = lambda text: stop_the_bus.hand_rank(text, rules=low)
    assert rank("AC 2D 3H").category == "run" and rank("AH 2H 3H").category == "running_flush"
    assert rank("AC 2D 3H") < rank("2S 3C 4D") < rank("QD KC AS")
    assert rank("KC AD 2H").category == "high_card"  # K-A-2 never wraps
    assert stop_the_bus.hand_rank("AC 2D 3H").category == "high_card"
    counts = stop_the_bus_odds.stop_the_bus_counts(rules=low)
    assert counts == {"high_card": 16440, "pair": 3744, "flush": 1096, "run": 720, "running_flush": 48,
                      "three_of_a_kind": 52}


def test_ace_low_run_is_a_total_order_over_all_hands():
    low = stop_the_bus.Rules(ace_low_run=True)
    ranks = sorted(stop_the_bus.hand_rank(h, rules=low) for h in itertools.combinations(full_deck(), 3))
    runs = [r for r in ranks if r.category == "run"]
    assert runs[0].tiebreak == (3,) and runs[-1].tiebreak == (14,)


def test_tokens_rule_starts_every_player_with_that_many():
    game = stop_the_bus.Game.start(["a", "b", "c"], "a", rules=stop_the_bus.Rules(tokens=5))
    assert dict(game.tokens) == {"a": 5, "b": 5, "c": 5}
    for seed in range(5):
        result = stop_the_bus.simulate_game(["a", "b", "c"], seed=seed, rules=stop_the_bus.Rules(tokens=2))
        # Every token is either in the pot or still held by the winner.
        assert result.pot + result.history[-1].tokens[result.winner] == 2 * 3


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 5), st.integers(2, 5), st.integers(2, 5),
       st.dictionaries(st.sampled_from("ABCD"), st.integers(0, 60), min_size=2, max_size=4), st.integers(1, 5))
def test_tonk_multipliers_replace_the_double(m_tonk, m_out, m_caught, totals, stake):
    rules = tonk.Rules(tonk_multiplier=m_tonk, tonk_out_multiplier=m_out, caught_multiplier=m_caught)
    players = list(totals)
    for payout in (tonk.payouts_dealt_tonk(totals, stake, rules=rules), tonk.payouts_stock_out(totals, stake, rules=rules),
                   tonk.payouts_knock(totals, players[0], stake, rules=rules),
                   tonk.payouts_went_out(players, players[0], discarded=False, stake=stake, rules=rules)):
        assert sum(payout.values()) == 0
    assert tonk.payouts_went_out(players, players[0], discarded=False, stake=stake, rules=rules)[players[0]] == \
        m_out * stake * (len(players) - 1)
    tonks = [p for p, t in totals.items() if t in rules.tonk_totals]
    if len(tonks) == 1:
        assert tonk.payouts_dealt_tonk(totals, stake, rules=rules)[tonks[0]] == m_tonk * stake * (len(players) - 1)


def test_tonk_totals_and_hand_size():
    only_50 = tonk.Rules(tonk_totals=(50,))
    assert tonk.payouts_dealt_tonk({"a": 49, "b": 20}, rules=only_50) == {"a": 0, "b": 0}
    assert tonk.payouts_dealt_tonk({"a": 49, "b": 20}) == {"a": 2, "b": -2}
    seven = tonk_odds.tonk_dealt_odds(rules=tonk.Rules(hand_size=7))
    five = tonk_odds.tonk_dealt_odds()
    assert set(seven) == {"total_49", "total_50", "tonk"} and seven["tonk"] != five["tonk"]
    assert set(tonk_odds.tonk_dealt_odds(rules=only_50)) == {"total_50", "tonk"}
