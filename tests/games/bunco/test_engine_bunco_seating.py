"""Bunco movement between tables: worked cases and properties over any number of tables."""

from hypothesis import given, settings, strategies as st

from generator.games.bunco.engine import next_seating


def test_one_table_partners_rotate():
    seating = [(("A", "B"), ("C", "D"))]
    assert next_seating(seating, [0]) == [(("A", "C"), ("B", "D"))]
    assert next_seating(seating, [1]) == [(("C", "A"), ("D", "B"))]


def test_two_tables():
    seating = [(("A", "B"), ("C", "D")), (("E", "F"), ("G", "H"))]
    # Head winners A B stay and take the table-2 winners G H; table-2 losers E F stay and
    # take the head losers C D.
    assert next_seating(seating, [0, 1]) == [(("A", "G"), ("B", "H")), (("E", "C"), ("F", "D"))]


def test_three_tables():
    seating = [
        (("A", "B"), ("C", "D")),
        (("E", "F"), ("G", "H")),
        (("I", "J"), ("K", "L")),
    ]
    assert next_seating(seating, [1, 0, 1]) == [
        (("C", "E"), ("D", "F")),  # head winners C D stay, table-2 winners E F move up
        (("G", "K"), ("H", "L")),  # table-2 losers G H stay, table-3 winners K L move up
        (("I", "A"), ("J", "B")),  # table-3 losers I J stay, head losers A B drop down
    ]


def test_accepts_tuples_and_returns_a_new_list():
    seating = ((("A", "B"), ("C", "D")),)
    result = next_seating(seating, (0,))
    assert isinstance(result, list) and seating == ((("A", "B"), ("C", "D")),)


def expected_table(old_table, won, tables):
    if old_table == 0:
        return 0 if won else tables - 1
    return old_table - 1 if won else old_table


@st.composite
def rounds(draw):
    tables = draw(st.integers(min_value=1, max_value=6))
    players = draw(st.permutations(range(4 * tables)))
    seating = [((players[4 * i], players[4 * i + 1]), (players[4 * i + 2], players[4 * i + 3])) for i in range(tables)]
    winners = draw(st.lists(st.integers(0, 1), min_size=tables, max_size=tables))
    return seating, winners


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_movement_properties(round_):
    seating, winners = round_
    tables = len(seating)
    after = next_seating(seating, winners)
    old_place, old_partner, old_won = {}, {}, {}
    for i, (team0, team1) in enumerate(seating):
        for team_index, (a, b) in enumerate((team0, team1)):
            old_partner[a], old_partner[b] = b, a
            for p in (a, b):
                old_place[p], old_won[p] = i, team_index == winners[i]
    # Everyone exactly once, in the same shape.
    everyone = [p for table in after for team in table for p in team]
    assert sorted(everyone) == sorted(old_place) and len(after) == tables
    for i, table in enumerate(after):
        assert len(table) == 2 and all(len(team) == 2 for team in table)
        for team in table:
            a, b = team
            # Each player sits where the movement rule sends them.
            for p in team:
                assert i == expected_table(old_place[p], old_won[p], tables)
            # Nobody keeps their partner: the two who stayed split up.
            assert old_partner[a] != b
        stayers = [p for team in table for p in team if _stayed(p, old_place, old_won, tables, i)]
        assert len(stayers) == 2 and old_partner[stayers[0]] == stayers[1]
        # Each stayer partners exactly one newcomer.
        for a, b in table:
            assert (a in stayers) != (b in stayers)


def _stayed(player, old_place, old_won, tables, table):
    if tables == 1:
        return old_won[player]
    return old_place[player] == table


@settings(max_examples=50, deadline=None)
@given(rounds())
def test_movement_is_deterministic(round_):
    seating, winners = round_
    assert next_seating(seating, winners) == next_seating(list(seating), list(winners))
