"""Hostile and broken inputs: one line `path:line: problem`, exit 2, in well under a second, nothing changed (issue 10)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.model.loader import load_model
from generator.model.textunits import split_units

from generator.core.errors import InputError

from tests.conftest import ROOT, copy_of_build, run_cli
from tests.safety import cli, refused, tree
from tests.commands.test_bad_input import _edit, _line_of
from tests.pipeline.test_safe_builds import set_translation

HTML = ("build", "--games", "bunco", "--locales", "en", "--formats", "html")
FR = ("build", "--games", "bunco", "--locales", "fr", "--formats", "html")
BUNCO = Path("generator/games/bunco/model.yaml")
TONK = Path("generator/games/tonk/model.yaml")


@pytest.fixture
def built(tmp_path_factory, tmp_path) -> Path:
    """A project copy with the output of an HTML build of Bunco in English (a copy of one shared build)."""
    return copy_of_build(tmp_path_factory, tmp_path / "proj", *HTML[1:])


# --- 5. links in translations ----------------------------------------------------------------------

def test_reference_link_split_across_two_units_is_refused(built):
    body = next(s for s in load_model("bunco").model.sections if s.id == "equipment").body
    units = [u.text for u in split_units(body)]
    first, second = units[-2], units[-1]  # two list items in a row
    po = built / "locales/fr/LC_MESSAGES/bunco.po"
    set_translation(po, first, "Une cloche : voir [ici][r].")
    set_translation(po, second, "[r]: https://example.com/")
    assert refused(built, *FR) == (f"locales/fr/LC_MESSAGES/bunco.po: link to 'https://example.com/' in "
                                   f"{second[:40]!r}: rule prose may only link inside the document")


def test_in_document_links_are_allowed(built):
    set_translation(built / "locales/fr/LC_MESSAGES/bunco.po", "Pens for everyone.", "Un stylo, voir [la mise en place](#setup).")
    r = run_cli(built, *FR)
    assert r.returncode == 0, r.stderr
    assert 'href="#setup"' in (built / "output/fr/bunco/rulebook.html").read_text(encoding="utf-8")


# --- 6. bounded YAML and examples -------------------------------------------------------------------

def test_billion_laughs_is_refused(built):
    _edit(built / BUNCO, "facts:\n", 'lol: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n'
                                     'lol2: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n'
                                     'lol3: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nfacts:\n')
    n = _line_of(built / BUNCO, "lol: &a")
    assert refused(built, *HTML) == (f"{BUNCO}:{n}: YAML anchors and aliases (&name, *name) are not allowed "
                                     "in a rule model; write the value out")


def test_deep_nesting_is_refused(built):
    _edit(built / BUNCO, "facts:\n", "deep: " + "[" * 5000 + "]" * 5000 + "\nfacts:\n")
    n = _line_of(built / BUNCO, "deep: [")
    assert refused(built, *HTML) == f"{BUNCO}:{n}: nested more than 32 levels deep"


def test_huge_integer_is_refused(built):
    _edit(built / BUNCO, "bunco_points: 21", "bunco_points: " + "9" * 5000)
    n = _line_of(built / BUNCO, "bunco_points: 999")
    assert refused(built, *HTML) == f"{BUNCO}:{n}: number with more than 18 digits"


FACT_LIMITS = {
    "10000000000000000000000000": "number with more than 18 digits",
    "10000000": "facts.usual_players.value: input should be less than or equal to 1000000 (got 10000000)",
    "-1": "facts.usual_players.value: input should be greater than or equal to 0 (got -1)",
}


def test_a_fact_out_of_range_stops_the_build_in_one_line(built):
    _edit(built / BUNCO, "    value: 12\n", "    value: 10000000\n")
    n = _line_of(built / BUNCO, "    value: 10000000")
    assert refused(built, *HTML) == f"{BUNCO}:{n}: {FACT_LIMITS['10000000']}"


@pytest.mark.parametrize("value", FACT_LIMITS)
def test_facts_are_range_checked(tmp_path, value):
    """Each limit, through the loader the build calls (the line above shows the build's own report)."""
    folder = tmp_path / "bunco"
    folder.mkdir()
    model = folder / "model.yaml"
    model.write_text((ROOT / BUNCO).read_text(encoding="utf-8").replace("    value: 12\n", f"    value: {value}\n", 1),
                     encoding="utf-8")
    with pytest.raises(InputError) as refusal:
        load_model("bunco", games_dir=tmp_path)
    assert [(p.line, p.message) for p in refusal.value.problems] == [
        (_line_of(model, f"    value: {value}"), FACT_LIMITS[value])]


def test_invalid_published_date(built):
    _edit(built / BUNCO, "published: 2026-11-30", "published: 2026-02-30")
    n = _line_of(built / BUNCO, "published:")
    assert refused(built, *HTML) == f"{BUNCO}:{n}: invalid date '2026-02-30': day is out of range for month"


def test_example_with_every_card_is_refused_by_the_schema(project):
    _edit(project / TONK, 'input: {cards: "7S 7H 7D"}', 'input: {cards: "' + " ".join(
        r + s for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")) + '"}')
    n = _line_of(project / TONK, "input: {cards: \"AS 2S")
    line = refused(project, "check", "--games", "tonk", "--locales", "en")
    assert line == f"{TONK}:{n}: example 'spread-book' input.cards: value error, at most 12 cards in one hand"


def test_non_utf8_model_names_the_line(built):
    path = built / BUNCO
    raw = path.read_bytes().replace(b"Pens for everyone.", b"Pens for \xe9veryone.")
    path.write_bytes(raw)
    n = raw[: raw.index(b"\xe9")].count(b"\n") + 1
    assert refused(built, *HTML) == f"{BUNCO}:{n}: not valid UTF-8 (byte 0xe9)"


# --- 7. no traceback for any user input ---------------------------------------------------------------

PLURAL = 'Plural-Forms: nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;'


PLURAL_RULES = {
    "nplurals=3; plural=n/(n-1);": "plural='n/(n-1)' divides by zero for n = 1",
    "nplurals=3; plural=n % 0;": "plural='n % 0' divides by zero for n = 0",
    "nplurals=3; plural=exit(1);": "plural='exit(1)' is not an expression of n (only numbers, n and C operators)",
    "nplurals=3; plural=__import__('os').system('x');":
        "plural=\"__import__('os').system('x')\" is not an expression of n (only numbers, n and C operators)",
    "nplurals=3; plural=n;": "plural='n' gives form 3 for n = 3, but nplurals=3",
    "nplurals=9; plural=0;": "nplurals=9 must be between 1 and 6",
}


def test_a_bad_plural_rule_stops_the_build_in_one_line(built):
    po = built / "locales/fr/LC_MESSAGES/common.po"
    _edit(po, PLURAL, "Plural-Forms: nplurals=3; plural=exit(1);")
    n = _line_of(po, "Plural-Forms:")
    assert refused(built, *FR) == (f"locales/fr/LC_MESSAGES/common.po:{n}: Plural-Forms: "
                                   f"{PLURAL_RULES['nplurals=3; plural=exit(1);']}")


@pytest.mark.parametrize("rule", PLURAL_RULES)
def test_bad_plural_forms(tmp_path, rule):
    """Each unsafe or impossible rule, through the reader every catalog goes through."""
    from generator.i18n.translate import read_catalog

    po = tmp_path / "common.po"
    po.write_text((ROOT / "locales/fr/LC_MESSAGES/common.po").read_text(encoding="utf-8").replace(
        PLURAL, f"Plural-Forms: {rule}"), encoding="utf-8")
    with pytest.raises(InputError) as refusal:
        read_catalog(po, "fr")
    assert [(p.line, p.message) for p in refusal.value.problems] == [
        (_line_of(po, "Plural-Forms:"), f"Plural-Forms: {PLURAL_RULES[rule]}")]


def test_missing_plural_form_is_marked_and_fails_strict(built):
    """A plural entry without the form its rule picks is shown marked as English, and --strict fails."""
    from babel.messages.pofile import read_po, write_po

    po = built / "locales/fr/LC_MESSAGES/bunco.po"  # a Bunco example's, in the game's own catalog
    with po.open("rb") as fh:
        cat = read_po(fh)
    plural = next(m for m in cat if isinstance(m.id, tuple) and m.id[0] == "{points} point")
    plural.string = (plural.string[0], "")  # French needs three forms
    with po.open("wb") as fh:
        write_po(fh, cat, width=100)
    from generator.i18n.translate import load_translator

    tr = load_translator("fr", ("bunco",), locales_dir=built / "locales")
    text, fallback = tr.lookup_plural("bunco", plural.id[0], plural.id[1], 5)
    assert fallback and text == plural.id[1]
    r = run_cli(built, *FR, "--strict")
    assert r.returncode == 1 and "missing translation" in r.stderr and "Traceback" not in r.stderr


def _stake_refusal(value: str) -> str:
    return f"stake must be a finite amount more than 0 and at most 1,000,000, not {float(value) if value not in ('-3', '0') else int(value)}"


def test_a_bad_stake_in_locale_toml_stops_the_build_in_one_line(built):
    toml = built / "locales/fr/locale.toml"
    _edit(toml, "stake = 1", "stake = inf")
    n = _line_of(toml, "stake =")
    assert refused(built, *FR) == f"locales/fr/locale.toml:{n}: {_stake_refusal('inf')}"


@pytest.mark.parametrize("value", ["inf", "nan", "1e308", "-3", "0"])
def test_stake_in_locale_toml(tmp_path, value):
    """Each impossible stake, through the reader of locale.toml the build calls."""
    from generator.i18n.translate import load_locale_config

    toml = tmp_path / "fr" / "locale.toml"
    toml.parent.mkdir()
    text = (ROOT / "locales/fr/locale.toml").read_text(encoding="utf-8")
    assert "stake = 1\n" in text
    toml.write_text(text.replace("stake = 1\n", f"stake = {value}\n"), encoding="utf-8")
    with pytest.raises(InputError) as refusal:
        load_locale_config("fr", locales_dir=tmp_path)
    assert [(p.line, p.message) for p in refusal.value.problems] == [(_line_of(toml, "stake ="), _stake_refusal(value))]


@pytest.mark.parametrize("value, message", [
    ("inf", "--stake must be an amount like 10 or 2.50, got 'inf'"),
    ("nan", "--stake must be an amount like 10 or 2.50, got 'nan'"),
    ("1e308", "--stake must be at most 1,000,000, got 1E+308"),
    ("2000000", "--stake must be at most 1,000,000, got 2000000"),
])
def test_stake_option(built, value, message):
    assert refused(built, *HTML, "--stake", value) == f"rulesheets: command line: {message}"


@pytest.mark.parametrize("group, message", [
    ("Club\x1b[2J", "--group may not hold control characters (found U+001B)"),
    ("Line\nbreak", "--group may not hold control characters (found U+000A)"),
    (os.fsdecode(b"Club \xff"), "--group is not valid UTF-8 text"),
])
def test_group_option(built, group, message):
    assert refused(built, *HTML, "--group", group) == f"rulesheets: command line: {message}"


def test_template_syntax_error(built):
    path = built / "generator/games/bunco/templates/tally-sheet.html.j2"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[2] = lines[2].rstrip("\n") + " {% if %}\n"
    path.write_text("".join(lines), encoding="utf-8")
    assert refused(built, *HTML) == ("generator/games/bunco/templates/tally-sheet.html.j2:3: template syntax error: "
                                     "Expected an expression, got 'end of statement block'")


def test_template_undefined_variable(built):
    path = built / "generator/games/bunco/templates/tally-sheet.html.j2"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[2] = lines[2].rstrip("\n") + " {{ no_such_value }}\n"
    path.write_text("".join(lines), encoding="utf-8")
    assert refused(built, *HTML) == "generator/games/bunco/templates/tally-sheet.html.j2:3: template error: 'no_such_value' is undefined"


# --- 8. i18n update never drops translations ---------------------------------------------------------

def test_i18n_update_refuses_a_template_that_does_not_parse(project):
    path = project / "templates/site/downloads.html.j2"
    path.write_text(path.read_text(encoding="utf-8") + "{% for %}\n", encoding="utf-8")
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert refused(project, "i18n", "update") == (
        f"templates/site/downloads.html.j2:{n}: template syntax error: Expected an expression, got 'end of statement block'")


def test_i18n_update_keeps_every_translation_the_build_uses(project):
    """Strings that code supplies through `_()` (the Bunco table names) survive an update."""
    from babel.messages.pofile import read_po

    def translated(code):
        with (project / f"locales/{code}/LC_MESSAGES/common.po").open("rb") as fh:
            return {m.id: m.string for m in read_po(fh) if m.id and m.string and not m.fuzzy}

    before = {code: translated(code) for code in ("fr", "ko")}
    r = cli(project, "i18n", "update")
    assert r.returncode == 0, r.stderr
    for code, strings in before.items():
        after = translated(code)
        assert {k: v for k, v in strings.items() if k not in after} == {}
    assert before["fr"]["Head table"] == translated("fr")["Head table"]


# --- 10. smaller ones -----------------------------------------------------------------------------------

def test_invalid_po_bytes_name_the_line(built):
    po = built / "locales/fr/LC_MESSAGES/bunco.po"
    raw = po.read_bytes()
    at = raw.index("Un stylo".encode()) if "Un stylo".encode() in raw else raw.index(b'msgstr "', 200) + 8
    raw = raw[:at] + b"\xff" + raw[at:]
    po.write_bytes(raw)
    n = raw[:at].count(b"\n") + 1
    assert refused(built, *FR) == f"locales/fr/LC_MESSAGES/bunco.po:{n}: cannot read catalog: not valid UTF-8 (byte 0xff)"


def test_locale_toml_errors_carry_a_line(built):
    toml = built / "locales/fr/locale.toml"
    _edit(toml, 'paper = "a4"', 'paper = "a5"')
    n = _line_of(toml, "paper =")
    assert refused(built, *FR) == f"locales/fr/locale.toml:{n}: paper must be a4 or letter, not 'a5'"


def test_locale_toml_syntax_and_bytes(built):
    toml = built / "locales/fr/locale.toml"
    _edit(toml, 'paper = "a4"', 'paper = "a4')
    n = _line_of(toml, "paper =")
    assert refused(built, *FR) == f"locales/fr/locale.toml:{n}: TOML syntax error: Illegal character '\\n'"
    toml.write_bytes(toml.read_bytes().replace(b'paper = "a4', b'paper = "a4"\n# \xe9'))
    n = toml.read_bytes()[: toml.read_bytes().index(b"\xe9")].count(b"\n") + 1
    assert refused(built, *FR) == f"locales/fr/locale.toml:{n}: not valid UTF-8 (byte 0xe9)"


def test_glossary_is_validated(project):
    glossary = project / "locales/fr/glossary.toml"
    _edit(glossary, 'round = "manche"', 'round = ""')
    n = _line_of(glossary, 'round = ""')
    assert refused(project, "check", "--locales", "fr", code=2) == (
        f"locales/fr/glossary.toml:{n}: [bunco] 'round' must be a non-empty text")


def test_missing_font_is_one_short_line(project):
    # Built in place, not copied: the output's lock file in .cache is named after the output's own path.
    built = project
    r = run_cli(built, *HTML)
    assert r.returncode == 0, r.stderr
    toml = built / "locales/ko/locale.toml"
    text = toml.read_text(encoding="utf-8")
    fonts_line = next(line for line in text.splitlines() if line.startswith("fonts ="))
    toml.write_text(text.replace(fonts_line, 'fonts = ["Noto Sans Nowhere"]'), encoding="utf-8")
    before = tree(built.parent)
    r = cli(built, "build", "--locales", "ko", "--formats", "html")
    assert (r.returncode, r.stderr.strip()) == (1, "locales/ko/locale.toml: font 'Noto Sans Nowhere' is not installed (run make setup)")
    assert tree(built.parent) == before


def test_refused_font_face_and_missing_image_are_errors():
    from generator.render.pdf import RenderError, html_to_pdf

    missing = '<!DOCTYPE html><html lang=en><body><p>x</p><img src="no-such-picture.png"></body></html>'
    with pytest.raises(RenderError, match=r"^t\.pdf: Failed to load image at '.*no-such-picture\.png'"):
        html_to_pdf(missing, "a4", "t.pdf")
    face = ('<!DOCTYPE html><html lang=en><head><style>@font-face { font-family: X; src: url(file:///etc/passwd) } '
            'p { font-family: X }</style></head><body><p>x</p></body></html>')
    with pytest.raises(RenderError, match=r"^t\.pdf: Font-face 'X' cannot be loaded$"):
        html_to_pdf(face, "a4", "t.pdf")
