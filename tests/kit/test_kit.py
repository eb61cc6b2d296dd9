"""The quick-reference cards and `rulesheets kit`: one page a card, every name once, the engine's seating."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from generator import GAMES
from generator.i18n.translate import discover_locales

LOCALES = discover_locales()
from generator.cli import main
from generator.kit.assemble import KitOptions, make_kit
from generator.kit.players import read_players

from tests.conftest import manifest

HINDI_TWELVE = ["आशा", "बेन", "क्लोए", "देव", "एमरे", "फ़राह", "गीता", "हिरो", "इनेस", "जुन", "किरण", "लीना"]


def _parts(html: str) -> dict[str, str]:
    """The kit's HTML cut into its parts, by part id."""
    pieces = re.split(r'<section class="kit-part [^"]*" id="([a-z-]+)">', html)
    return dict(zip(pieces[1::2], pieces[2::2]))


def _kit(game: str, names: list[str], locale: str = "en", **kw):
    kit = make_kit(KitOptions(game, tuple(read_players(",".join(names))), locale, **kw))
    html = next(data for name, data in kit.files.items() if name.endswith(".html")).decode("utf-8")
    pdf = next(data for name, data in kit.files.items() if name.endswith(".pdf"))
    return kit, html, PdfReader(io.BytesIO(pdf))


def test_every_quick_reference_pdf_is_one_page(full_build):
    cards = [e for e in manifest(full_build) if e["kind"] == "quick-reference" and e["format"] == "pdf"]
    assert {(e["game"], e["locale"], e["paper"]) for e in cards} == {
        (g, c, p) for g in GAMES for c in LOCALES for p in ("a4", "letter")}
    for e in cards:
        assert len(PdfReader(full_build / e["path"]).pages) == 1, e["path"]
        assert e["pages"] == 1


def test_quick_reference_is_on_the_site(full_build):
    page = (full_build / "site" / "hi" / "bunco" / "index.html").read_text(encoding="utf-8")
    assert "quick-reference-a4.pdf" in page and "झटपट नियम" in page


def test_twelve_player_bunco_kit_in_hindi():
    kit, html, pdf = _kit("bunco", HINDI_TWELVE, "hi")
    parts = _parts(html)
    assert list(parts) == ["table-signs", "seat-slips", "scorepads", "quick-reference", "tally-sheets", "results"]
    names_on_tally = re.findall(r'<span class="filled player-name">([^<]+)</span>', parts["tally-sheets"])
    assert sorted(names_on_tally) == sorted(HINDI_TWELVE)  # every name exactly once
    assert parts["scorepads"].count('class="table-label"') == 3
    assert re.findall(r'<span class="table-label">([^<]+)</span>', parts["scorepads"]) == [
        "हेड टेबल", "बीच वाली\u00a0टेबल", "नीचे वाली\u00a0टेबल"]  # a short last word is tied (render/ties.py)
    slips = re.findall(r'class="slip cut" data-table="(\d)" data-team="(\d)"', parts["seat-slips"])
    assert len(slips) == 12 and all(slips.count((str(t), str(s))) == 2 for t in (1, 2, 3) for s in (1, 2))
    assert parts["quick-reference"].count('<p class="kicker">') == 3
    assert all(re.search(rf'<th scope="row" class="player-name">{n}</th>', parts["results"]) for n in HINDI_TWELVE)
    assert "घोस्ट" not in html
    # The contents page promises what is printed: 1 + 3 signs + 1 slip page + 3 pads + 3 cards + 6 tally pages + 1.
    counts = dict(re.findall(r'data-part="([a-z-]+)" data-count="(\d+)"', html))
    assert counts == {"table-signs": "3", "seat-slips": "12", "scorepads": "3", "quick-reference": "3",
                      "tally-sheets": "12", "results": "1"}
    assert len(pdf.pages) == kit.pages == 18


def test_eleven_players_give_a_ghost():
    names = [f"P{i}" for i in range(1, 12)]
    kit, html, pdf = _kit("bunco", names)
    parts = _parts(html)
    assert "a ghost sits at the low table" in html
    slips = re.findall(r'class="slip cut" data-table="(\d)" data-team="(\d)"', parts["seat-slips"])
    assert len(slips) == 11 and [s for s in slips if s[0] == "3"] == [("3", "1"), ("3", "1"), ("3", "2")]
    assert parts["seat-slips"].count("Your partner is the ghost") == 1
    assert parts["scorepads"].count('class="table-label"') == 3
    assert len(re.findall(r'class="filled player-name"', parts["tally-sheets"])) == 11  # the ghost keeps none
    assert len(pdf.pages) == kit.pages == 1 + 3 + 1 + 3 + 3 + 6 + 1


def test_tonk_kit_seats_three_tables_with_ledgers_at_the_stake():
    from decimal import Decimal

    from generator.edition.sheets import SheetOptions

    names = ["Rina", "Sam", "Tariq", "Mei", "Jo", "Ade", "Nila"]
    kit, html, pdf = _kit("tonk", names, "bn", sheets=SheetOptions(per_page=2, stake=Decimal(20)))
    parts = _parts(html)
    assert list(parts) == ["payout-sheets", "quick-reference", "ledgers"]
    heads = re.findall(r'<th scope="col" class="player-name">([^<]+)</th>', parts["ledgers"])
    assert heads == names  # every player in one table's ledger, in list order: 3, 2, 2
    from generator.i18n.translate import load_translator

    stake = load_translator("bn", ()).money(Decimal(20))
    assert parts["ledgers"].count("টেবিল ৩") == 1
    assert parts["payout-sheets"].count(f"বাজি: {stake}") == 3 and parts["ledgers"].count(f"বাজি:\u00a0{stake}") == 3
    assert len(pdf.pages) == kit.pages == 1 + 3 + 3 + 3


def test_stop_the_bus_token_tracker_follows_the_house_rule():
    kit, html, pdf = _kit("stop-the-bus", ["민준", "서연", "Ben"], "ko", house_rules={"stop-the-bus": {"tokens": "5"}})
    tracker = _parts(html)["token-trackers"]
    assert tracker.count('<span class="token"') == 3 * 5
    assert "토큰 5개로 시작해요" in _parts(html)["quick-reference"]
    assert len(pdf.pages) == 4


def _run(capsys, *args):
    code = main(["kit", *args])
    return code, capsys.readouterr().err.strip()


@pytest.mark.parametrize("players, line", [
    ("", "--players: the player list is empty"),
    ("Asha,Ben", "--players: Bunco needs a multiple of four players (4, 8, 12, ...) or one short of it, got 2"),
    ("A,B,C,D,E,F", "--players: Bunco needs a multiple of four players (4, 8, 12, ...) or one short of it, got 6"),
    (",".join(f"P{i}" for i in range(49)), "--players: 49 players is more than a kit holds (at most 48)"),
    ("Asha,Ben,Chloé,asha", "--players: 'asha' is listed twice"),
    ("Asha,Ben,Chloé,Nakamura-Fitzgerald-Okafor", "--players: the name 'Nakamura-Fitzgerald-Okafor' is longer than 24 characters"),
    ("Asha,민준,Ben,Chloé", "--players: no font of locale hi can draw '민' (U+BBFC) in '민준' "
                           "(fonts: Noto Sans Devanagari, Noto Sans, DejaVu Sans)"),
    # Issue 44: names that differ only by invisible characters are one player, shown with them written out.
    ("Ann,A\u200bnn,Ben,Chloé", "--players: 'A\\u200bnn' is listed twice: it differs from 'Ann' only by invisible characters"),
    ("Ann,Ben,Ann\u200d,Chloé", "--players: 'Ann\\u200d' is listed twice: it differs from 'Ann' only by invisible characters"),
    ("Ann,\u200b\u200b,Ben,Chloé", "--players: the name '\\u200b\\u200b' has no visible character"),
    # Bidi controls would reorder the contents page ("AnnXboB · exe.png"); control characters the terminal.
    ("Ann,Bob\u202eexe.png,Ben,Chloé", "--players: the name 'Bob\\u202eexe.png' holds a bidi control (U+202E), "
                                       "which would reorder the text around it; remove it"),
    ("Ann,\u2066Bob\u2069,Ben,Chloé", "--players: the name '\\u2066Bob\\u2069' holds a bidi control (U+2066), "
                                       "which would reorder the text around it; remove it"),
    ("Ann,B\x1bob,Ben,Chloé", "--players: the name 'B\\u001bob' holds a control character (U+001B)"),
    # A file that is not there is not one player's name.
    ("/tmp/no-such-folder-44/players.txt", "rulesheets: --players /tmp/no-such-folder-44/players.txt: no such file (the player list)"),
    ("players.txt", "rulesheets: --players players.txt: no such file (the player list)"),
])
def test_bad_players_one_line_exit_2(players, line, tmp_path, capsys):
    code, err = _run(capsys, "bunco", "--players", players, "--locale", "hi", "--out", str(tmp_path / "kit"))
    assert (code, err) == (2, line)
    assert not (tmp_path / "kit").exists()


def test_bad_player_file_names_the_line(tmp_path, capsys):
    roster = tmp_path / "players.txt"
    roster.write_text("Asha\n\nBen\nChloé\nAsha\n", encoding="utf-8")
    code, err = _run(capsys, "tonk", "--players", str(roster), "--out", str(tmp_path / "kit"))
    assert (code, err) == (2, f"{roster}:5: 'Asha' is listed twice")


def test_refusals_stay_in_english_whatever_the_locale(tmp_path, capsys):
    """Pinned on purpose (README, "Error messages ... are in English"): the person at the keyboard gets every error
    in one language; the kit's pages and summary are in the locale."""
    code, err = _run(capsys, "bunco", "--players", "Asha,Ben", "--locale", "fr", "--out", str(tmp_path / "kit"))
    assert (code, err) == (2, "--players: Bunco needs a multiple of four players (4, 8, 12, ...) or one short of it, got 2")
    assert main(["rules", "bunco"]) == 0
    assert "bunco.wipeout (default false; allowed false | true): Wipeout." in capsys.readouterr().out


def test_names_typed_under_a_c_locale_are_the_utf8_typed():
    """Under LC_ALL=C with UTF-8 mode off, Python keeps argv's bytes as surrogate escapes (U+DCE0...): read back
    as the UTF-8 they are, not refused for a font that cannot draw U+DCE0 (issue 44). Bytes that are not
    UTF-8 are refused in one line."""
    typed = ",".join(HINDI_TWELVE[:4]).encode("utf-8").decode("ascii", "surrogateescape")
    assert "\udce0" in typed
    assert [p.name for p in read_players(typed)] == HINDI_TWELVE[:4]
    from generator.core.errors import InputError

    with pytest.raises(InputError) as refusal:
        read_players(b"Asha,B\xffen,Chlo\xc3\xa9,Dev".decode("utf-8", "surrogateescape"))
    assert str(refusal.value) == "--players: the name 'B\\udcffen' is not valid UTF-8 text"


def test_card_games_refuse_one_player(tmp_path, capsys):
    code, err = _run(capsys, "tonk", "--players", "Asha", "--out", str(tmp_path / "kit"))
    assert (code, err) == (2, "--players: Tonk needs at least 2 players, got 1")


def test_kit_writes_one_pdf_and_its_html(tmp_path, capsys):
    roster = tmp_path / "players.txt"
    roster.write_text("Asha\nBen\nChloé\nDev\n", encoding="utf-8")
    code = main(["kit", "bunco", "--players", str(roster), "--paper", "letter", "--per-page", "4",
                 "--out", str(tmp_path / "kit")])
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "kit").iterdir()) == [".rulesheets-kit", "bunco-en-letter.pdf", "bunco-en.html"]
    reader = PdfReader(tmp_path / "kit" / "bunco-en-letter.pdf")
    # contents, 1 sign, 1 slip page, 1 pad, 1 card, 4 tally sheets on 1 page, results
    assert len(reader.pages) == 7
    assert "4 players, 7 pages" in capsys.readouterr().out


@pytest.mark.parametrize("out, line", [
    ("templates/kit", "rulesheets: command line: --out templates/kit is inside the project, where only output/ may be used; "
                      "choose another folder"),
    ("README.md", "rulesheets: command line: --out README.md is inside the project, where only output/ may be used; "
                  "choose another folder"),
])
def test_kit_refuses_to_write_into_the_sources(out, line, capsys, monkeypatch):
    from generator import PROJECT_DIR

    monkeypatch.chdir(PROJECT_DIR)
    code, err = _run(capsys, "bunco", "--players", "A,B,C,D", "--out", out)
    assert (code, err) == (2, line)
    assert not (PROJECT_DIR / "templates" / "kit" / "bunco-en.html").exists()


def test_kit_never_writes_into_a_users_folder(tmp_path, capsys, monkeypatch):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "todo.txt").write_text("buy dice", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, err = _run(capsys, "bunco", "--players", "A,B,C,D", "--out", "notes")
    assert (code, err) == (2, "rulesheets: command line: --out notes is not empty and holds no earlier kit (no .rulesheets-kit); "
                              "choose a new or empty folder")
    assert sorted(p.name for p in notes.iterdir()) == ["todo.txt"]


EVERY_RULE = {
    "bunco": {"wipeout": "true", "rounds_per_set": "5", "sets_per_evening": "3", "target_points": "31",
              "bunco_points": "30", "baby_bunco_points": "6"},
    "tonk": {"tonk_totals": "50", "hand_size": "7", "tonk_multiplier": "3", "tonk_out_multiplier": "3",
             "caught_multiplier": "3", "no_starting_discard": "true", "spreads_at_once": "true",
             "new_spreads_double": "true"},
}


#: French Tonk (the longest card) in `make test`; the other three in `make test-full`.
@pytest.mark.parametrize("code, game", [(c, g) if (c, g) == ("fr", "tonk") else pytest.param(c, g, marks=pytest.mark.full)
                                        for c in ("fr", "bn") for g in sorted(EVERY_RULE)])
def test_quick_reference_with_every_house_rule_is_still_one_page(game, code):
    """The longest card there can be: every house rule changed, in the longest languages."""
    from generator.pipeline.build import Options, prepare
    from generator.edition.editions import make_edition
    from generator.render.pdf import html_to_pdf
    from generator.render.sheets import quick_reference
    from generator.edition.sheets import SheetOptions

    prep = prepare(Options(games=(game,), locales=(code,), formats=("html",)))
    edition = make_edition(prep.models[game], EVERY_RULE[game])
    html = quick_reference(edition, prep.translators[code], SheetOptions())
    labels = re.findall(r'<span class="rule-name" data-rule="([a-z_]+)">', html)
    assert labels == list(EVERY_RULE[game])  # the house rules in force are named on the card
    for paper in ("a4", "letter"):
        assert html_to_pdf(html, paper, "card")[1] == 1, paper


LOCAL_NAMES = {
    "fr": ["Chloé", "Éloïse", "Léon", "Maëlle", "Noé", "Inès", "Zoé", "Théo"],
    "hi": ["आशा", "बेन", "क्लोए", "देव", "एमरे", "फ़राह", "गीता", "किरण"],
    "ko": ["민준", "서연", "지호", "하은", "도윤", "수아", "예준", "지우"],
    "bn": ["রিনা", "সাম", "তারিক", "মেই", "জো", "আদে", "নীলা", "বিনয়"],
    "ne": ["सीता", "राम", "गीता", "हरि", "माया", "श्याम", "कमला", "बिनोद"],
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("code", sorted(LOCAL_NAMES))
def test_kit_speaks_the_locale(game, code):
    """Every kit string translated (strict), none of the glossary's avoided words, native digits."""
    from generator.kit.assemble import kit_document

    from tests.i18n.test_native_style import _glossary
    from tests.i18n.test_translations import SCRIPT, visible_text

    from generator.core.errors import InputError

    # The first group size the game seats (each game says which sizes it takes).
    for count in (7, 5, 8, 4):
        try:
            doc = kit_document(KitOptions(game, tuple(read_players(",".join(LOCAL_NAMES[code][:count]))), code,
                                          strict=True))
            break
        except InputError as e:
            if not str(e).startswith("--players"):
                raise
    else:
        pytest.fail(f"{game} seats none of 7, 5, 8 or 4 players")
    text = visible_text(doc.html, drop_cards=True)
    avoid = _glossary(code).get("avoid", {})
    assert not [w for scope in (game, "common") for w in avoid.get(scope, {}) if w in text]
    if code in ("bn", "ne"):
        assert not re.findall(r".{0,20}[0-9].{0,20}", text)
    if code in SCRIPT:
        assert not re.findall(r"[A-Za-zÀ-ÿ]{3,}", text)


def test_kit_html_passes_the_nu_checker(tmp_path):
    """A kit's HTML is one valid document: its sheets' <main> become divisions, ids are unique."""
    from generator.kit.assemble import kit_document

    from tests.site.test_site import _nu_errors

    files = []
    for game, names in (("bunco", HINDI_TWELVE[:11]), ("tonk", LOCAL_NAMES["bn"]), ("stop-the-bus", LOCAL_NAMES["ko"])):
        doc = kit_document(KitOptions(game, tuple(read_players(",".join(names))), "hi" if game == "bunco" else
                                      {"tonk": "bn", "stop-the-bus": "ko"}[game],
                                      house_rules={"bunco": {"wipeout": "true"}} if game == "bunco" else {}))
        path = tmp_path / f"{game}.html"
        path.write_text(doc.html, encoding="utf-8")
        files.append(str(path))
    errors = _nu_errors(files, str(tmp_path))
    assert not errors, "\n".join(errors[:20])
