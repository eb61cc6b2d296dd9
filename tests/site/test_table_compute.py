"""The score keepers compute what the engine computes (issue 40): random requests, through every house-rule switch
that changes a score, answered by `window.rulesheetsTable.compute` in headless Chromium and by the Python engine.

The page under test is what the site builder writes for each game: the data `generator.site.table.data_script`
makes from the edition's engine Rules, the shared table-core.js and the game's own table.js, loaded from disk.
`make test` sends SAMPLE requests per game; `make test-full` sends FULL per game (the same generator, another seed).
Each batch is one page.evaluate call, so the cost is the engine's, not the browser round trips.
"""

from __future__ import annotations

import json
import os
import random
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from generator.core.registry import GAMES
from generator.edition.editions import make_edition
from generator.model.loader import load_model
from generator.site import table
from tests.chromium import CHROMIUM, CHROMIUM_ARGS

SAMPLE = 200
FULL = 1500
KEEPERS = [g for g in GAMES if table.has_table(g)]
NAMES = ["A", "B", "C", "D", "E", "Asha", "Ben", "रीना", "민지", "সাম", "Léa", "10", "2"]


@pytest.fixture(scope="module")
def chromium():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is needed: run `scripts/setup.sh --test`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def keeper_page(browser, game: str, tmp: Path):
    """A page holding exactly the scripts and data the site gives `game`'s table.html, opened from disk."""
    edition = make_edition(load_model(game), {})
    for path, data in table.table_assets([game]).items():
        (tmp / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp / path).write_bytes(data)
    page_file = tmp / "keeper.html"
    page_file.write_text(f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"></head><body>'
                         f'<script type="application/json" id="table-data">{table.data_script(edition)}</script>'
                         f'<script src="{table.CORE_PATH}"></script><script src="{table.script_path(game)}"></script>'
                         f'</body></html>', encoding="utf-8")
    page = browser.new_page()
    trouble: list[str] = []
    page.on("pageerror", lambda e: trouble.append(str(e)))
    page.goto(page_file.as_uri())
    assert not trouble, trouble
    return page, edition


# --- random requests ------------------------------------------------------------------------------------------

def _house(rng: random.Random, edition) -> dict:
    """Overrides of a random subset of the game's house rules, each within its allowed values."""
    out = {}
    for rule in edition.model.house_rules:
        if rng.random() < 0.5:
            if rule.range is not None:
                out[rule.id] = rng.randint(*rule.range)
            else:
                value = rng.choice(rule.choices)
                if isinstance(value, float):  # overtrick_points: written every way a request may write it
                    value = rng.choice([value, str(value), "1/10" if value else "0"])
                out[rule.id] = list(value) if isinstance(value, (list, tuple)) else value
    return out


def _players(rng: random.Random, low: int, high: int) -> list[str]:
    return rng.sample(NAMES, rng.randint(low, high))


def call_break_request(rng: random.Random, rules: dict) -> dict:
    low, high = int(rules.get("min_call", 1)), int(rules.get("max_call", 8))
    deals = rng.randint(1, int(rules.get("deals", 5)) + (1 if rng.random() < 0.05 else 0))
    players = _players(rng, 4, 4) if rng.random() < 0.97 else _players(rng, 3, 5)
    out = []
    for _ in range(deals):
        cuts = sorted(rng.randint(0, 13) for _ in range(len(players) - 1))
        tricks = [b - a for a, b in zip([0] + cuts, cuts + [13])]
        deal = {p: [rng.randint(low, high), t] for p, t in zip(players, tricks)}
        r = rng.random()
        if r < 0.03:  # a call outside the limits
            deal[players[0]][0] = rng.choice([low - 1, high + 1, 0, 14])
        elif r < 0.06:  # tricks that do not add up to 13
            deal[players[1 % len(players)]][1] += rng.choice([-1, 1, 2])
        elif r < 0.07:
            deal[players[0]] = rng.choice([[3], "4", None, [2, 3, 4]])
        out.append(deal)
    return {"fn": "game_totals", "deals": out}


def tonk_request(rng: random.Random, rules: dict) -> dict:
    fn = rng.choice(["payouts_knock", "payouts_dealt_tonk", "payouts_went_out", "payouts_stock_out"])
    players = _players(rng, 2, 5) if rng.random() < 0.97 else _players(rng, 0, 1)
    spread = rng.choice([5, 12, 60])
    totals = {p: rng.randint(0, spread) for p in players}
    if fn == "payouts_dealt_tonk" and players:  # one tonk (mostly), sometimes two
        for p in rng.sample(players, 1 if rng.random() < 0.8 else min(2, len(players))):
            totals[p] = rng.choice([49, 50])
    if rng.random() < 0.03 and players:
        totals[players[0]] = rng.choice([-1, 2.5, "7", None])
    req: dict = {"fn": fn}
    stake = rng.choice([1, 2, 5, 10]) if rng.random() < 0.9 else None
    if rng.random() < 0.04:
        stake = rng.choice([0, -3, 1.5, "2", True])
    if stake is not None:
        req["stake"] = stake
    if fn == "payouts_went_out":
        req["players"] = players + ([players[0]] if players and rng.random() < 0.03 else [])
        req["winner"] = rng.choice(players) if players and rng.random() < 0.97 else "nobody"
        req["discarded"] = rng.choice([True, False]) if rng.random() < 0.97 else "yes"
        if rng.random() < 0.6:
            req["by_new_spreads"] = rng.choice([True, False])
    else:
        req["totals"] = totals
        if fn == "payouts_knock":
            req["knocker"] = rng.choice(players) if players and rng.random() < 0.97 else "nobody"
    return req


def bunco_request(rng: random.Random, rules: dict) -> dict:
    rounds = int(rules.get("rounds_per_set", 6))
    round_number = rng.randint(1, rounds) if rng.random() < 0.95 else rng.choice([0, rounds + 1, 7])
    r = rng.random()
    if r < 0.3:
        dice = [rng.choice([round_number, 1, rng.randint(1, 6)])] * 3
    elif r < 0.93:
        dice = [rng.randint(1, 6) for _ in range(3)]
    else:
        dice = rng.choice([[1, 2], [0, 3, 4], [7, 1, 1], "3 3 5", "২ ২ ৫", ["4", "4", "4"], [1, 2, 3, 4], "x"])
    req = {"fn": "score_throw", "dice": dice, "round_number": round_number}
    if rng.random() < 0.6:
        req["wipeout"] = rng.choice([True, False])
    return req


RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def stop_the_bus_request(rng: random.Random, rules: dict) -> dict:
    players = _players(rng, 2, 6) if rng.random() < 0.98 else _players(rng, 1, 1)
    deck = [r + s for r in RANKS for s in "SHDC"]
    rng.shuffle(deck)
    hands = {}

    def take(rank: str, suit: str | None = None) -> str:
        """A card of `rank` still in the deck (of `suit` when it is there), so that no card is dealt twice."""
        free = [c for c in deck if c[:-1] == rank]
        card = rank + suit if suit and rank + suit in deck else (rng.choice(free) if free else deck[-1])
        deck.remove(card)
        return card

    runs_only = rng.random() < 0.25  # a showdown of runs only, where the ace rule decides who loses
    for p in players:
        r = 0 if runs_only else rng.random()
        if r < 0.25:  # a run, ace-low A-2-3 among them, suited or not
            top = 3 if rng.random() < 0.3 else rng.randint(3, 14)
            ranks = [RANKS[(top - 2 - i) % 13] for i in range(3)] if top > 3 else ["A", "2", "3"]
            suit = rng.choice("SHDC") if rng.random() < 0.5 else None
            hand = [take(rk, suit) for rk in ranks]
        elif r < 0.4 and hands:  # the same ranks as a hand already dealt: ties for lowest
            hand = [take(c[:-1]) for c in next(iter(hands.values()))]
        else:
            hand = [deck.pop() for _ in range(3)]
        hands[p] = hand
    written = {}
    for p, hand in hands.items():
        cards = [c.replace("10", "T") if rng.random() < 0.2 else c for c in hand]
        cards = [c[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[c[-1]] if rng.random() < 0.2 else c for c in cards]
        cards = [c.lower() if rng.random() < 0.1 else c for c in cards]
        if rng.random() < 0.02:
            cards = cards[:2] if rng.random() < 0.5 else cards + ["1X"]
        written[p] = " ".join(cards) if rng.random() < 0.8 else cards
    return {"fn": "losers", "hands": written}


REQUESTS = {"call-break": call_break_request, "tonk": tonk_request, "bunco": bunco_request,
            "stop-the-bus": stop_the_bus_request}


def requests_for(game: str, edition, n: int, seed: int) -> list[dict]:
    rng = random.Random(f"{game}-{seed}")
    out = []
    for _ in range(n):
        house = _house(rng, edition)
        req = REQUESTS[game](rng, house)
        if house:
            req["rules"] = house
        out.append(req)
    return out


# --- the engine's answers -------------------------------------------------------------------------------------

def _decimal(value: Fraction) -> str:
    return str(Decimal(value.numerator) / Decimal(value.denominator))


def engine_answer(game: str, edition, req: dict):
    """What the Python engine says to a request, as compute() must say it; "error" for a refusal."""
    engine = GAMES[game].rules_class.__module__
    import importlib

    mod = importlib.import_module(engine)
    house = {k: tuple(v) if isinstance(v, list) else v
             for k, v in req.get("rules", {}).items()}
    from dataclasses import replace
    try:
        rules = replace(edition.rules, **house)
        fn = req["fn"]
        if fn == "game_totals":
            return {"totals": {p: _decimal(v) for p, v in mod.game_totals(req["deals"], rules=rules).totals.items()}}
        if fn == "payouts_went_out":
            extra = {"by_new_spreads": req["by_new_spreads"]} if "by_new_spreads" in req else {}
            return {"payouts": mod.payouts_went_out(req["players"], req["winner"], discarded=req["discarded"],
                                                    stake=req.get("stake", 1), rules=rules, **extra)}
        if fn.startswith("payouts_"):
            args = (req["totals"], req["knocker"]) if fn == "payouts_knock" else (req["totals"],)
            return {"payouts": getattr(mod, fn)(*args, stake=req.get("stake", 1), rules=rules)}
        if fn == "score_throw":
            t = mod.score_throw(req["dice"], req["round_number"], wipeout=req.get("wipeout"), rules=rules)
            return {"points": t.points, "bunco": t.bunco, "baby_bunco": t.baby_bunco, "wipeout": t.wipeout,
                    "rolls_again": t.rolls_again}
        if fn == "losers":
            return {"losers": sorted(mod.losers(req["hands"], rules=rules))}
    except (ValueError, TypeError, KeyError):
        return "error"
    raise AssertionError(f"no engine call for {fn}")


def disagreements(game: str, edition, reqs: list[dict], answers: list) -> list[str]:
    found = []
    for req, got in zip(reqs, answers):
        want = engine_answer(game, edition, req)
        if want == "error":
            ok = isinstance(got, dict) and set(got) == {"error"} and isinstance(got["error"], str) \
                and got["error"] and "\n" not in got["error"]
        else:
            ok = got == want
        if not ok:
            found.append(f"{json.dumps(req, ensure_ascii=False)}\n  page:   {got}\n  engine: {want}")
    return found


def check_game(chromium, tmp_path, game: str, n: int, seed: int) -> None:
    page, edition = keeper_page(chromium, game, tmp_path)
    reqs = requests_for(game, edition, n, seed)
    answers = page.evaluate("reqs => reqs.map(r => window.rulesheetsTable.compute(r))", reqs)
    page.close()
    found = disagreements(game, edition, reqs, answers)
    assert not found, f"{len(found)} of {n} answers differ, first ones:\n" + "\n".join(found[:5])
    # The sample goes through every value of every house rule that changes a score, and mostly asks good questions.
    for rule in edition.model.house_rules:
        seen = {json.dumps(r["rules"][rule.id]) for r in reqs if rule.id in r.get("rules", {})}
        assert len(seen) >= (2 if rule.range is not None else len(rule.choices)), (rule.id, seen)
    refused = sum(engine_answer(game, edition, r) == "error" for r in reqs)
    assert refused < n * 0.35, f"{refused} of {n} requests are refusals: the sample asks too few real questions"


@pytest.mark.parametrize("game", KEEPERS)
def test_compute_agrees_with_the_engine(chromium, tmp_path, game):
    check_game(chromium, tmp_path, game, SAMPLE, seed=1)


#: The full count runs in `make test-full`; `make test` keeps the SAMPLE above (another seed).
@pytest.mark.full
@pytest.mark.parametrize("game", KEEPERS)
def test_compute_agrees_with_the_engine_full(chromium, tmp_path, game):
    check_game(chromium, tmp_path, game, FULL, seed=2)


BAD = [None, 5, "x", [], {}, {"fn": "nothing"}, {"fn": 3}, {"fn": "toString"}, {"fn": "game_totals", "rules": 3},
       {"fn": "game_totals", "rules": {"no_such_rule": 1}}, {"fn": "game_totals", "rules": {"deals": 99}},
       {"fn": "game_totals", "deals": "x"}, {"fn": "game_totals", "deals": [5]}]


def test_bad_requests_are_one_line_errors(chromium, tmp_path):
    page, _ = keeper_page(chromium, "call-break", tmp_path)
    got = page.evaluate("reqs => reqs.map(r => window.rulesheetsTable.compute(r))", BAD)
    page.close()
    for req, answer in zip(BAD, got):
        assert set(answer) == {"error"} and answer["error"] and "\n" not in answer["error"], (req, answer)
