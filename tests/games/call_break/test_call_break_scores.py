"""score over every call and trick count under every rule combination; Rules, deal and game totals refused word for word."""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction

import pytest

from generator.games.call_break.engine import Rules, deal_scores, game_totals, score

from . import oracle


def every_rules():
    for must, over, low, deals, redeal in itertools.product([True, False], [0, Fraction(1, 10)], [1, 2],
                                                           range(3, 11), [False, True]):
        for high in range(low, 14):
            yield Rules(must_overtake=must, overtrick_points=over, min_call=low, max_call=high, deals=deals,
                        redeal_without_spades=redeal)


def test_every_call_and_trick_count_under_every_rule_combination():
    combos = scores = 0
    for rules in every_rules():
        combos += 1
        tenths = int(rules.overtrick_points * 10)
        for call in range(rules.min_call, rules.max_call + 1):
            for tricks in range(14):
                got = score(call, tricks, rules=rules)
                assert type(got) is Fraction and got == oracle.score(call, tricks, tenths)
                scores += 1
        for call in (rules.min_call - 1, rules.max_call + 1):
            with pytest.raises(ValueError, match=f"^a call must be {rules.min_call} to {rules.max_call}, got {call}$"):
                score(call, 5, rules=rules)
    assert combos == 2 * 2 * 8 * 2 * (13 + 12)
    assert scores == 2 * 2 * 8 * 2 * 14 * (sum(range(1, 14)) + sum(range(1, 13)))


def test_tenths_are_exact():
    assert score(4, 6) == Fraction(21, 5) and Decimal(21) / 5 == Decimal("4.2")
    assert str(Decimal(score(4, 6).numerator) / score(4, 6).denominator) == "4.2"
    assert score(1, 13) == Fraction(22, 10)  # twelve overtricks: 2.2, not 2.2000000000000002
    assert sum(score(1, 2) for _ in range(10)) == 11  # ten times 1.1 is exactly 11
    assert score(4, 6, rules=Rules(overtrick_points=0)) == 4
    assert score(3, 2) == -3 and score(8, 0) == -8 and score(8, 8) == 8


@pytest.mark.parametrize("value", [0, Fraction(0), "0", 0.0])
def test_no_overtrick_points_written_any_way(value):
    assert Rules(overtrick_points=value) == Rules(overtrick_points=Fraction(0))


@pytest.mark.parametrize("value", [Fraction(1, 10), "0.1", "1/10", 0.1, Decimal("0.1")])
def test_a_tenth_written_any_way(value):
    rules = Rules(overtrick_points=value)
    assert rules == Rules() and type(rules.overtrick_points) is Fraction


def test_the_standard_rules_of_the_design():
    assert Rules() == Rules(must_overtake=True, overtrick_points=Fraction(1, 10), min_call=1, max_call=8, deals=5,
                            redeal_without_spades=False)
    with pytest.raises(Exception):
        Rules().deals = 3  # frozen


@pytest.mark.parametrize("make, message", [
    (lambda: Rules(must_overtake=1), "must_overtake must be true or false, got 1"),
    (lambda: Rules(redeal_without_spades="yes"), "redeal_without_spades must be true or false, got 'yes'"),
    (lambda: Rules(overtrick_points=Fraction(1, 5)), "overtrick_points must be 0 or 1/10, got Fraction(1, 5)"),
    (lambda: Rules(overtrick_points=1), "overtrick_points must be 0 or 1/10, got 1"),
    (lambda: Rules(overtrick_points=True), "overtrick_points must be 0 or 1/10, got True"),
    (lambda: Rules(overtrick_points="a tenth"), "overtrick_points must be 0 or 1/10, got 'a tenth'"),
    (lambda: Rules(overtrick_points=None), "overtrick_points must be 0 or 1/10, got None"),
    (lambda: Rules(min_call=0), "min_call must be 1 or 2, got 0"),
    (lambda: Rules(min_call=3), "min_call must be 1 or 2, got 3"),
    (lambda: Rules(max_call=14), "max_call must be 1 (min_call) to 13, got 14"),
    (lambda: Rules(min_call=2, max_call=1), "max_call must be 2 (min_call) to 13, got 1"),
    (lambda: Rules(max_call=8.0), "max_call must be 1 (min_call) to 13, got 8.0"),
    (lambda: Rules(deals=2), "deals must be 3 to 10, got 2"),
    (lambda: Rules(deals=11), "deals must be 3 to 10, got 11"),
    (lambda: Rules(deals=True), "deals must be 3 to 10, got True"),
    (lambda: score(0, 3), "a call must be 1 to 8, got 0"),
    (lambda: score(9, 3), "a call must be 1 to 8, got 9"),
    (lambda: score(1, 3, rules=Rules(min_call=2)), "a call must be 2 to 8, got 1"),
    (lambda: score(True, 3), "a call must be 1 to 8, got True"),
    (lambda: score(4, 14), "tricks taken must be 0 to 13, got 14"),
    (lambda: score(4, -1), "tricks taken must be 0 to 13, got -1"),
    (lambda: score(4, 2.0), "tricks taken must be 0 to 13, got 2.0"),
])
def test_bad_values_are_refused(make, message):
    with pytest.raises(ValueError) as err:
        make()
    assert str(err.value) == message


def test_calls_up_to_thirteen_with_the_house_rule():
    rules = Rules(min_call=2, max_call=13)
    assert score(13, 13, rules=rules) == 13 and score(13, 12, rules=rules) == -13


FIVE_DEALS = [
    {"Asha": (3, 4), "Ben": (2, 1), "Kiran": (4, 5), "Maya": (3, 3)},
    {"Asha": (2, 2), "Ben": (4, 6), "Kiran": (3, 2), "Maya": (2, 3)},
    {"Asha": (5, 5), "Ben": (2, 3), "Kiran": (2, 2), "Maya": (3, 3)},
    {"Asha": (3, 1), "Ben": (3, 4), "Kiran": (4, 5), "Maya": (2, 3)},
    {"Asha": (4, 6), "Ben": (3, 3), "Kiran": (2, 1), "Maya": (3, 3)},
]


def test_a_five_deal_game_adds_up():
    sheet = game_totals(FIVE_DEALS)
    assert sheet.scores[0] == {"Asha": Fraction(31, 10), "Ben": -2, "Kiran": Fraction(41, 10), "Maya": 3}
    assert sheet.running[1] == {"Asha": Fraction(51, 10), "Ben": Fraction(22, 10), "Kiran": Fraction(11, 10),
                                "Maya": Fraction(51, 10)}
    assert sheet.totals == {"Asha": Fraction(113, 10), "Ben": Fraction(104, 10), "Kiran": Fraction(52, 10),
                            "Maya": Fraction(132, 10)}
    assert sheet.running[-1] == sheet.totals and sheet.winners == ("Maya",) and sheet.complete
    # The same sheet without overtrick points.
    flat = game_totals(FIVE_DEALS, rules=Rules(overtrick_points=0))
    assert flat.totals == {"Asha": 11, "Ben": 10, "Kiran": 5, "Maya": 13}
    # Part of a game: running totals so far, not complete.
    assert not game_totals(FIVE_DEALS[:2]).complete


def test_a_tie_for_the_highest_total_shares_the_win():
    deals = [{"Asha": (3, 3), "Ben": (3, 3), "Kiran": (3, 3), "Maya": (4, 4)}] * 3
    sheet = game_totals(deals, rules=Rules(deals=3))
    assert sheet.totals == {"Asha": 9, "Ben": 9, "Kiran": 9, "Maya": 12} and sheet.winners == ("Maya",)
    tied = [{"Asha": (4, 4), "Ben": (3, 3), "Kiran": (2, 2), "Maya": (4, 4)}] * 3
    assert game_totals(tied, rules=Rules(deals=3)).winners == ("Asha", "Maya")


@pytest.mark.parametrize("make, message", [
    (lambda: deal_scores({"Asha": (3, 4), "Ben": (2, 1), "Kiran": (4, 5)}), "a deal has 4 players, got 3"),
    (lambda: deal_scores({"Asha": (3, 4), "Ben": (2, 1), "Kiran": (4, 5), "Maya": (3, 4)}),
     "the tricks taken add up to 14, but a deal has 13"),
    (lambda: deal_scores({"Asha": (9, 4), "Ben": (2, 1), "Kiran": (4, 5), "Maya": (3, 3)}),
     "Asha: a call must be 1 to 8, got 9"),
    (lambda: deal_scores({"Asha": 3, "Ben": (2, 1), "Kiran": (4, 5), "Maya": (3, 3)}),
     "Asha: give the call and the tricks taken, got 3"),
    (lambda: game_totals([]), "no deal has been played yet"),
    (lambda: game_totals(FIVE_DEALS + FIVE_DEALS[:1]), "a game has 5 deals, got 6"),
    (lambda: game_totals(FIVE_DEALS, rules=Rules(deals=3)), "a game has 3 deals, got 5"),
    (lambda: game_totals([FIVE_DEALS[0], {**FIVE_DEALS[1], "Maya": (2, 4)}]),
     "deal 2: the tricks taken add up to 14, but a deal has 13"),
    (lambda: game_totals([FIVE_DEALS[0], {"Asha": (2, 2), "Ben": (4, 6), "Kiran": (3, 2), "Mia": (2, 3)}]),
     "deal 2 has players Asha, Ben, Kiran, Mia, but deal 1 has Asha, Ben, Kiran, Maya"),
])
def test_bad_score_sheets_are_refused(make, message):
    with pytest.raises(ValueError) as err:
        make()
    assert str(err.value) == message
