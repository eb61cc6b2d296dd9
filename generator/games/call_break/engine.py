"""Call Break: legal plays, trick winners and scores, seeded deals and games played out, and exact odds."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from math import comb, factorial, prod

from generator.engine.cards import SUITS, Card, as_cards, full_deck

#: The shape of the game, not house rules: four players, each dealt the whole deck's quarter.
PLAYERS = 4
HAND_SIZE = 13
TRICKS_PER_DEAL = HAND_SIZE
#: Spades are always trump.
TRUMP = "S"
#: The values a house rule may take (DESIGN.md, "Call Break").
MIN_CALL_CHOICES = (1, 2)
MAX_CALL_LIMIT = TRICKS_PER_DEAL
DEALS_RANGE = (3, 10)
OVERTRICK_CHOICES = (Fraction(0), Fraction(1, 10))
#: Cards above the 10: jack, queen, king, ace.
FACE_RANKS = (11, 12, 13, 14)
DEFAULT_PLAYERS = ("Asha", "Ben", "Kiran", "Maya")


def _points(value) -> Fraction:
    """0, Fraction(1, 10), "0.1", "1/10" or 0.1 (read as the decimal it is written as) -> Fraction."""
    if isinstance(value, bool):
        raise TypeError
    if isinstance(value, float):
        return Fraction(repr(value))
    if isinstance(value, (int, Fraction, Decimal, str)):
        return Fraction(value)
    raise TypeError


@dataclass(frozen=True)
class Rules:
    """The rules one table plays by; the defaults are the standard rules, every field a house-rule switch."""

    must_overtake: bool = True
    """A player following suit must head the trick when they can (as played in Nepal); False: any card of the suit."""
    overtrick_points: Fraction = Fraction(1, 10)
    """Points for each trick taken over the call; 0 is the only other value allowed."""
    min_call: int = 1
    """The lowest call allowed (1 or 2)."""
    max_call: int = 8
    """The highest call allowed (min_call to 13)."""
    deals: int = 5
    """Deals in a game (3 to 10)."""
    redeal_without_spades: bool = False
    """A player dealt no spade may show the hand and ask for a new deal before the calls."""

    def __post_init__(self) -> None:
        for name in ("must_overtake", "redeal_without_spades"):
            if type(getattr(self, name)) is not bool:
                raise ValueError(f"{name} must be true or false, got {getattr(self, name)!r}")
        try:
            points = _points(self.overtrick_points)
        except (TypeError, ValueError, ZeroDivisionError):
            points = None
        if points not in OVERTRICK_CHOICES:
            raise ValueError(f"overtrick_points must be 0 or 1/10, got {self.overtrick_points!r}")
        object.__setattr__(self, "overtrick_points", points)  # one value, one type: Fraction
        if type(self.min_call) is not int or self.min_call not in MIN_CALL_CHOICES:
            raise ValueError(f"min_call must be 1 or 2, got {self.min_call!r}")
        if type(self.max_call) is not int or not self.min_call <= self.max_call <= MAX_CALL_LIMIT:
            raise ValueError(f"max_call must be {self.min_call} (min_call) to {MAX_CALL_LIMIT}, got {self.max_call!r}")
        low, high = DEALS_RANGE
        if type(self.deals) is not int or not low <= self.deals <= high:
            raise ValueError(f"deals must be {low} to {high}, got {self.deals!r}")


STANDARD = Rules()


# --- one trick -------------------------------------------------------------------------


def _trick(trick, *, complete_ok: bool) -> list[Card]:
    played = as_cards(trick)
    limit = PLAYERS if complete_ok else PLAYERS - 1
    if len(played) > limit:
        raise ValueError(f"a trick holds at most {PLAYERS} cards, one from each player; "
                         f"{'this one has' if complete_ok else 'nobody can play to one that has'} {len(played)}")
    return played


def legal_plays(hand, trick, *, rules: Rules = STANDARD) -> list[Card]:
    """The cards of `hand` that may be played to `trick` (the cards already in it, in play order), in hand order."""
    cards = as_cards(hand)
    played = _trick(trick, complete_ok=False)
    if not cards:
        raise ValueError("the hand is empty: there is no card to play")
    if len(cards) > HAND_SIZE:
        raise ValueError(f"a hand holds at most {HAND_SIZE} cards, got {len(cards)}")
    for card in played:
        if card in cards:
            raise ValueError(f"{card} is in the trick and in the hand")
    if not played:
        return cards  # any card may be led, spades included
    led = played[0].suit
    follow = [c for c in cards if c.suit == led]
    trumps_in = [c.rank for c in played if c.suit == TRUMP]
    if follow:
        # Heading only matters while the led suit can still win: once a spade has
        # trumped a trick of another suit, any card of the led suit will do.
        if not rules.must_overtake or (led != TRUMP and trumps_in):
            return follow
        top = max(c.rank for c in played if c.suit == led)
        return [c for c in follow if c.rank > top] or follow
    spades = [c for c in cards if c.suit == TRUMP]
    if not spades:
        return cards
    if not trumps_in:
        return spades
    # Over-trump when possible; with no spade high enough to win, any card at all.
    return [c for c in spades if c.rank > max(trumps_in)] or cards


def trick_winner(trick, *, rules: Rules = STANDARD) -> int:
    """Index, in play order, of the card that wins (or is winning) the trick: the highest spade, else the highest of the led suit."""
    played = _trick(trick, complete_ok=True)
    if not played:
        raise ValueError("the trick is empty: nobody has played to it yet")
    trumps = [i for i, c in enumerate(played) if c.suit == TRUMP]
    contenders = trumps or [i for i, c in enumerate(played) if c.suit == played[0].suit]
    return max(contenders, key=lambda i: played[i].rank)


# --- scores ----------------------------------------------------------------------------


def _check_call(call, rules: Rules) -> int:
    if type(call) is not int or not rules.min_call <= call <= rules.max_call:
        raise ValueError(f"a call must be {rules.min_call} to {rules.max_call}, got {call!r}")
    return call


def _check_tricks(tricks) -> int:
    if type(tricks) is not int or not 0 <= tricks <= TRICKS_PER_DEAL:
        raise ValueError(f"tricks taken must be 0 to {TRICKS_PER_DEAL}, got {tricks!r}")
    return tricks


def score(call: int, tricks: int, *, rules: Rules = STANDARD) -> Fraction:
    """One player's points for one deal: the call plus overtrick_points per extra trick, or minus the call when short."""
    _check_call(call, rules)
    _check_tricks(tricks)
    if tricks >= call:
        return call + rules.overtrick_points * (tricks - call)
    return Fraction(-call)


def deal_scores(results: Mapping[str, tuple[int, int]], *, rules: Rules = STANDARD) -> dict[str, Fraction]:
    """Every player's score for one deal from `{player: (call, tricks)}`; the four players' tricks add up to 13."""
    if len(results) != PLAYERS:
        raise ValueError(f"a deal has {PLAYERS} players, got {len(results)}")
    checked = {}
    for player, pair in results.items():
        try:
            call, tricks = pair
        except (TypeError, ValueError):
            raise ValueError(f"{player}: give the call and the tricks taken, got {pair!r}") from None
        try:
            checked[player] = (_check_call(call, rules), _check_tricks(tricks))
        except ValueError as exc:
            raise ValueError(f"{player}: {exc}") from None
    taken = sum(tricks for _, tricks in checked.values())
    if taken != TRICKS_PER_DEAL:
        raise ValueError(f"the tricks taken add up to {taken}, but a deal has {TRICKS_PER_DEAL}")
    return {player: score(call, tricks, rules=rules) for player, (call, tricks) in checked.items()}


@dataclass(frozen=True)
class Totals:
    """A game on the score sheet: each deal's scores, the running totals after it, and who leads."""

    scores: tuple[Mapping[str, Fraction], ...]
    """Each deal's scores, in the order the deals were played."""
    running: tuple[Mapping[str, Fraction], ...]
    """Each player's total after each deal."""
    totals: Mapping[str, Fraction]
    """The totals after the last deal given."""
    winners: tuple[str, ...]
    """Everyone holding the highest total, in seating order (several share the win on a tie)."""
    complete: bool
    """All rules.deals deals have been played."""


def game_totals(deals: Sequence[Mapping[str, tuple[int, int]]], *, rules: Rules = STANDARD) -> Totals:
    """Add up a game: `deals` holds `{player: (call, tricks)}` per deal, at most rules.deals of them, same players in each."""
    if not deals:
        raise ValueError("no deal has been played yet")
    if len(deals) > rules.deals:
        raise ValueError(f"a game has {rules.deals} deals, got {len(deals)}")
    players = tuple(deals[0])
    scores, running = [], []
    total = {p: Fraction(0) for p in players}
    for number, results in enumerate(deals, start=1):
        if set(results) != set(players):
            raise ValueError(f"deal {number} has players {', '.join(results)}, but deal 1 has {', '.join(players)}")
        try:
            points = deal_scores(results, rules=rules)
        except ValueError as exc:
            raise ValueError(f"deal {number}: {exc}") from None
        total = {p: total[p] + points[p] for p in players}
        scores.append({p: points[p] for p in players})
        running.append(dict(total))
    best = max(total.values())
    return Totals(tuple(scores), tuple(running), total, tuple(p for p in players if total[p] == best),
                  len(deals) == rules.deals)


# --- a deal played out -------------------------------------------------------------------


def _seats(players: Sequence[str]) -> tuple[str, ...]:
    seats = tuple(players)
    if len(seats) != PLAYERS:
        raise ValueError(f"Call Break is for {PLAYERS} players, got {len(seats)}")
    for player in seats:
        if seats.count(player) > 1:
            raise ValueError(f"player {player} is listed twice")
    return seats


def _right_of(seats: tuple[str, ...], player: str, steps: int = 1) -> str:
    """Seats are listed going right (counter-clockwise), the way the deal and play pass."""
    return seats[(seats.index(player) + steps) % len(seats)]


def deal_hands(players: Sequence[str], dealer: str, rng: random.Random) -> dict[str, tuple[Card, ...]]:
    """Shuffle with `rng` and deal the whole deck one card at a time, starting with the player right of the dealer."""
    seats = _seats(players)
    if dealer not in seats:
        raise ValueError(f"unknown dealer {dealer!r}: players are {', '.join(seats)}")
    deck = full_deck()
    rng.shuffle(deck)
    order = [_right_of(seats, dealer, k) for k in range(1, PLAYERS + 1)]
    return {p: tuple(deck[order.index(p)::PLAYERS]) for p in seats}


def sensible_call(hand, *, rules: Rules = STANDARD) -> int:
    """A plain estimate of the tricks a hand takes: aces, guarded kings, top spades and long spades."""
    cards = as_cards(hand)
    by_suit = {s: sorted((c.rank for c in cards if c.suit == s), reverse=True) for s in SUITS}
    estimate = 0
    for suit, ranks in by_suit.items():
        if suit == TRUMP:
            estimate += sum(r >= 12 for r in ranks) + max(0, len(ranks) - 3)
        else:
            estimate += (14 in ranks) + (13 in ranks and len(ranks) >= 2)
    return min(max(estimate, rules.min_call), rules.max_call)


Chooser = Callable[[Sequence[Card], Sequence[Card], random.Random], Card]


def random_legal_play(legal: Sequence[Card], trick: Sequence[Card], rng: random.Random) -> Card:
    """Any legal card, chosen by `rng`."""
    return rng.choice(list(legal))


@dataclass(frozen=True)
class Trick:
    """One trick of a deal."""

    players: tuple[str, ...]
    """Who played each card, in play order; the first led."""
    cards: tuple[Card, ...]
    winner: str


@dataclass(frozen=True)
class Deal:
    """One deal played out: the hands, the calls, thirteen tricks, and the scores."""

    players: tuple[str, ...]
    """Seats going right (counter-clockwise), the direction of the deal and of play."""
    dealer: str
    hands: Mapping[str, tuple[Card, ...]]
    """The thirteen cards each player was dealt (after any redeal)."""
    calls: Mapping[str, int]
    tricks: tuple[Trick, ...]
    taken: Mapping[str, int]
    """Tricks each player won."""
    scores: Mapping[str, Fraction]
    redeals: int = 0
    """How many times the cards were dealt again because someone held no spade (redeal_without_spades)."""


def _play(players: tuple[str, ...], dealer: str, rng: random.Random, rules: Rules,
          choose: Chooser, max_redeals: int = 1000) -> Deal:
    redeals = 0
    hands = deal_hands(players, dealer, rng)
    while rules.redeal_without_spades and any(all(c.suit != TRUMP for c in h) for h in hands.values()):
        # Whoever holds no spade shows it and asks for a new deal; the same dealer deals again.
        redeals += 1
        if redeals > max_redeals:  # pragma: no cover (odds about 1 in 20 a deal)
            raise RuntimeError("no deal without a spadeless hand in 1000 tries")
        hands = deal_hands(players, dealer, rng)
    calls = {p: sensible_call(hands[p], rules=rules) for p in players}
    held = {p: list(h) for p, h in hands.items()}
    leader = _right_of(players, dealer)
    tricks = []
    for _ in range(TRICKS_PER_DEAL):
        order = tuple(_right_of(players, leader, k) for k in range(PLAYERS))
        cards: list[Card] = []
        for player in order:
            card = choose(legal_plays(held[player], cards, rules=rules), tuple(cards), rng)
            if card not in legal_plays(held[player], cards, rules=rules):
                raise ValueError(f"{player} may not play {card} to {' '.join(map(str, cards)) or 'an empty trick'}")
            held[player].remove(card)
            cards.append(card)
        leader = order[trick_winner(cards, rules=rules)]
        tricks.append(Trick(order, tuple(cards), leader))
    taken = {p: sum(t.winner == p for t in tricks) for p in players}
    scores = {p: score(calls[p], taken[p], rules=rules) for p in players}
    return Deal(players, dealer, hands, calls, tuple(tricks), taken, scores, redeals)


def play_deal(seed, players: Sequence[str] = DEFAULT_PLAYERS, dealer: str | None = None, *,
              rules: Rules = STANDARD, choose: Chooser = random_legal_play) -> Deal:
    """Shuffle with random.Random(seed), deal, call sensibly and play 13 tricks of legal plays chosen by `choose`.

    `dealer` defaults to the last player listed, so the first listed calls and leads first.
    """
    seats = _seats(players)
    dealer = seats[-1] if dealer is None else dealer
    if dealer not in seats:
        raise ValueError(f"unknown dealer {dealer!r}: players are {', '.join(seats)}")
    return _play(seats, dealer, random.Random(seed), rules, choose)


@dataclass(frozen=True)
class Game:
    """A whole game: rules.deals deals, the deal passing to the right, and the totals."""

    deals: tuple[Deal, ...]
    totals: Totals


def play_game(seed, players: Sequence[str] = DEFAULT_PLAYERS, dealer: str | None = None, *,
              rules: Rules = STANDARD, choose: Chooser = random_legal_play) -> Game:
    """Play rules.deals deals from one random.Random(seed); the first dealer defaults to the last player listed."""
    seats = _seats(players)
    dealer = seats[-1] if dealer is None else dealer
    if dealer not in seats:
        raise ValueError(f"unknown dealer {dealer!r}: players are {', '.join(seats)}")
    rng = random.Random(seed)
    deals = []
    for _ in range(rules.deals):
        deals.append(_play(seats, dealer, rng, rules, choose))
        dealer = _right_of(seats, dealer)
    sheet = [{p: (d.calls[p], d.taken[p]) for p in seats} for d in deals]
    return Game(tuple(deals), game_totals(sheet, rules=rules))


# --- odds of the deal --------------------------------------------------------------------


def _hands_without(cards_left_out: int, hands: int = 1) -> Fraction:
    """The chance that `hands` given players' cards (13 each) all avoid a set of `cards_left_out` cards."""
    size = HAND_SIZE * hands
    deck = len(full_deck())
    return Fraction(comb(deck - cards_left_out, size), comb(deck, size))


def spade_count_odds() -> dict[int, Fraction]:
    """The chance that a dealt hand holds exactly k spades, k = 0 to 13."""
    deck, spades = len(full_deck()), HAND_SIZE
    hands = comb(deck, HAND_SIZE)
    return {k: Fraction(comb(spades, k) * comb(deck - spades, HAND_SIZE - k), hands) for k in range(HAND_SIZE + 1)}


def odds() -> dict[str, Fraction]:
    """Exact chances a player asks about, counted from the deck (never typed in).

    - `no_spade`: a hand with no spade, C(39,13)/C(52,13).
    - `someone_no_spade`: at least one of the four hands has no spade (how often
      redeal_without_spades throws a deal in), by inclusion and exclusion over the players.
    - `no_face_card`: a hand with no ace, king, queen or jack.
    - `void`: a hand missing at least one whole suit. (It equals `someone_no_spade`: swap
      the roles of suits and players in a deal and one becomes the other.)
    """
    suit_size = HAND_SIZE
    someone = sum((-1) ** (k + 1) * comb(PLAYERS, k) * _hands_without(suit_size, k) for k in range(1, PLAYERS))
    void = sum((-1) ** (k + 1) * comb(len(SUITS), k) * _hands_without(k * suit_size) for k in range(1, len(SUITS)))
    return {
        "no_spade": _hands_without(suit_size),
        "someone_no_spade": someone,
        "no_face_card": _hands_without(len(FACE_RANKS) * len(SUITS)),
        "void": void,
    }


def most_likely_spades() -> int:
    """The number of spades a dealt hand most often holds."""
    counts = spade_count_odds()
    return max(counts, key=counts.get)


def deals_count() -> int:
    """How many different deals of 13 cards to each of 4 players there are: 52! / (13!)^4."""
    return factorial(len(full_deck())) // prod(factorial(HAND_SIZE) for _ in range(PLAYERS))
