"""Simulated Bunco evenings: reproducible, one winner per table, tallies that add up."""

import pytest
from hypothesis import given, settings, strategies as st

from generator.games.bunco.engine import GHOST, Evening, next_seating, play_evening

NAMES = [f"P{i}" for i in range(16)]


def test_same_seed_same_evening():
    first = play_evening(NAMES[:8], seed=7)
    assert first == play_evening(NAMES[:8], seed=7)
    assert first != play_evening(NAMES[:8], seed=8)


def test_an_evening_is_four_sets_of_six_rounds_by_default():
    evening = play_evening(NAMES[:12], seed=1)
    assert [(r.set_number, r.round_number) for r in evening.rounds] == [
        (s, r) for s in range(1, 5) for r in range(1, 7)
    ]
    assert all(wins + losses == 24 for wins, losses, _ in evening.standings.values())


def check_evening(evening: Evening, players, sets):
    rounds = 6 * sets
    assert len(evening.rounds) == rounds
    assert list(evening.standings) == list(players) == list(evening.players)
    assert GHOST not in evening.standings
    for wins, losses, _ in evening.standings.values():
        assert wins + losses == rounds
    tables = (len(players) + 3) // 4
    for before, after in zip(evening.rounds, evening.rounds[1:]):
        assert list(after.seating) == next_seating(before.seating, before.winners)
    for record in evening.rounds:
        assert len(record.seating) == len(record.points) == len(record.winners) == tables
        for i, ((first, second), won) in enumerate(zip(record.points, record.winners)):
            assert won in (0, 1)
            winner, loser = (first, second) if won == 0 else (second, first)
            # Exactly one winning team: no ties survive the tie-break throws.
            assert winner > loser
            if i == 0:
                assert winner >= 21 > loser
        assert GHOST not in record.buncos
    buncos = sum(len(r.buncos) for r in evening.rounds)
    assert sum(b for _, _, b in evening.standings.values()) == buncos
    for player, (_, _, count) in evening.standings.items():
        assert count == sum(r.buncos.count(player) for r in evening.rounds)
    # Two winners per table each round; a win of the ghost's team is tallied for its partner only.
    ghost_wins = sum(
        GHOST in table[won] for r in evening.rounds for table, won in zip(r.seating, r.winners)
    )
    assert sum(w for w, _, _ in evening.standings.values()) == 2 * tables * rounds - ghost_wins


@settings(max_examples=25, deadline=None)
@given(
    count=st.sampled_from([3, 4, 7, 8, 11, 12, 16]),
    sets=st.integers(1, 2),
    seed=st.integers(0, 10**9),
    wipeout=st.booleans(),
)
def test_evening_properties(count, sets, seed, wipeout):
    players = NAMES[:count]
    evening = play_evening(players, sets=sets, seed=seed, wipeout=wipeout)
    check_evening(evening, players, sets)
    assert evening == play_evening(players, sets=sets, seed=seed, wipeout=wipeout)


def test_a_ghost_fills_the_empty_seat():
    evening = play_evening(NAMES[:7], sets=1, seed=3)
    seats = [p for table in evening.rounds[0].seating for team in table for p in team]
    assert seats == NAMES[:7] + [GHOST]
    assert GHOST not in evening.standings and len(evening.standings) == 7
    assert str(GHOST) == "(ghost)"


def test_winner_and_most_buncos():
    evening = play_evening(NAMES[:8], seed=11)
    best = max(w for w, _, _ in evening.standings.values())
    assert evening.winner == tuple(p for p, (w, _, _) in evening.standings.items() if w == best)
    most = max(b for _, _, b in evening.standings.values())
    expected = tuple(p for p, (_, _, b) in evening.standings.items() if b == most) if most else ()
    assert evening.most_buncos == expected


def test_wipeout_changes_the_evening():
    assert play_evening(NAMES[:4], seed=5, wipeout=True) != play_evening(NAMES[:4], seed=5)


@pytest.mark.parametrize("count", [0, 1, 2, 5, 6, 9, 10, 13])
def test_player_counts_bunco_cannot_seat(count):
    with pytest.raises(ValueError) as error:
        play_evening(NAMES[:count], seed=1)
    assert str(error.value) == (
        f"Bunco needs a multiple of four players (4, 8, 12, ...) or one short of it, got {count}"
    )
