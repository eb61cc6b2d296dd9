"""The line `rulesheets kit` ends with: each part counted with the kit language's own plurals (issue 32)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.i18n.translate import COMMON_DOMAIN, load_translator
from generator.kit.summary import COUNTS, kit_summary

ROOT = Path(__file__).resolve().parents[2]
CALL_BREAK = [{"id": "seat-slips", "title": "Call Break seats", "count": 4},
              {"id": "score-sheets", "title": "Call Break score sheet", "count": 1},
              {"id": "quick-reference", "title": "Quick reference", "count": 1}]


@pytest.mark.parametrize("code, line", [
    ("en", "4 players, 4 pages: 4 seat slips, 1 score sheet, and 1 quick-reference card"),
    ("fr", "4 joueurs, 4 pages\u00a0: 4 billets de place, 1 feuille de score et 1 aide-mémoire"),
    ("hi", "4 खिलाड़ी, 4 पेज: जगह की 4 पर्चियाँ, 1 स्कोर शीट और झटपट नियम की 1 प्रति"),
    ("bn", "৪ জন খেলোয়াড়, ৪ পৃষ্ঠা: আসনের ৪টি চিরকুট, ১টি স্কোর শিট এবং এক নজরে নিয়মের ১টি কপি"),
    ("ko", "플레이어 4명, 4쪽: 자리 쪽지 4장, 점수표 1장 및 한눈에 보는 규칙 1장"),
    ("ne", "४ जना खेलाडी, ४ पृष्ठ: ठाउँको ४ वटा चिट्ठा, १ वटा अङ्क पाना र एक नजरमा नियमको १ प्रति"),
])
def test_a_call_break_kit_is_counted_in_its_language(code, line):
    tr = load_translator(code, (COMMON_DOMAIN,))
    assert kit_summary(tr, 4, 4, CALL_BREAK) == line
    assert not tr.misses  # every word translated, none in English


def test_plural_forms_follow_the_language():
    tr = load_translator("fr", (COMMON_DOMAIN,))
    parts = [{"id": "score-sheets", "title": "", "count": n} for n in (0, 2, 1_000_000)]
    assert kit_summary(tr, 1, 1, parts).endswith(
        ": 0 feuille de score, 2 feuilles de score et 1\u202f000\u202f000 de feuilles de score")
    tr = load_translator("hi", (COMMON_DOMAIN,))
    assert "1 टैली शीट" in kit_summary(tr, 2, 2, [{"id": "tally-sheets", "title": "", "count": 1}])
    assert "2 टैली शीटें" in kit_summary(tr, 2, 2, [{"id": "tally-sheets", "title": "", "count": 2}])


def test_every_part_a_game_makes_is_counted():
    made = {m for path in (ROOT / "generator").rglob("*.py") for m in re.findall(r'\bpart\("([a-z-]+)"', path.read_text())}
    assert made and made <= set(COUNTS), made - set(COUNTS)


def test_an_unknown_part_is_counted_by_its_title():
    tr = load_translator("en", (COMMON_DOMAIN,))
    assert kit_summary(tr, 2, 3, [{"id": "x", "title": "Dice cups", "count": 2}]) == "2 players, 3 pages: 2 × Dice cups"


def test_the_kit_command_prints_it(tmp_path):
    from tests.conftest import run_main

    r = run_main("kit", "call-break", "--players", "A,B,C,D", "--out", str(tmp_path / "kit"))
    assert r.returncode == 0, r.stderr
    assert "4 players, 4 pages: 4 seat slips, 1 score sheet, and 1 quick-reference card" in r.stdout + r.stderr
    assert "score-sheets" not in r.stdout + r.stderr
