"""The project file rulesheets.toml: `rulesheets init`, every key read, flags over the file, `file:line` errors (issue 32)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

from generator.cli import main, parser
from generator.commands import project
from generator.commands.project import PROJECT_FILE, key_lines, read_project
from generator.commands.projectschema import ProjectFile

ROOT = Path(__file__).resolve().parents[2]
KEYS = [f.alias or name for name, f in ProjectFile.model_fields.items()]


def _run(capsys, *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    return code, capsys.readouterr().err.strip().splitlines()


def _uncommented(text: str) -> str:
    """The template with every example setting switched on (its prose left as comments)."""
    return re.sub(r"(?m)^# (?=[a-z_]+ = |\[)", "", text)


# --- rulesheets init ------------------------------------------------------------------------

def test_init_writes_a_commented_file_that_reads_as_no_settings(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    assert capsys.readouterr().out.startswith("wrote rulesheets.toml")
    text = (tmp_path / PROJECT_FILE).read_text(encoding="utf-8")
    assert tomllib.loads(text) == {}  # everything commented out
    assert read_project(tmp_path / PROJECT_FILE).settings == ProjectFile()
    for key in KEYS:  # every key is there, commented, with what it does
        assert re.search(rf"(?m)^# (\[)?{re.escape(key)}[ .=]", text), key


def test_init_examples_are_valid_settings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    path = tmp_path / PROJECT_FILE
    path.write_text(_uncommented(path.read_text(encoding="utf-8")), encoding="utf-8")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert set(data) == set(KEYS)
    (tmp_path / data["site_logo"]).write_text('<svg xmlns="http://www.w3.org/2000/svg"/>', encoding="utf-8")
    settings = read_project(path).settings
    for key in ("games", "locales", "kinds", "papers", "formats", "group", "currency", "base_url", "site_name",
                "site_logo", "out"):
        assert getattr(settings, key) == data[key], key
    assert str(settings.stake) == str(data["stake"])
    assert settings.house_rules == data["house-rules"]


def test_init_never_replaces_a_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / PROJECT_FILE).write_text('games = ["tonk"]\n', encoding="utf-8")
    assert _run(capsys, "init") == (2, ["rulesheets.toml: already exists; edit it, or remove it to start afresh"])
    assert (tmp_path / PROJECT_FILE).read_text(encoding="utf-8") == 'games = ["tonk"]\n'


def test_init_config_names_where_to_write(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["init", "--config", "club/rulesheets.toml"]) == 0
    assert (tmp_path / "club/rulesheets.toml").is_file()
    assert not (tmp_path / PROJECT_FILE).exists()


# --- every key documented --------------------------------------------------------------------

def test_readme_documents_every_key():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The project file", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"(?m)^\| `([a-z_-]+)`", section))
    assert documented == set(KEYS)


# --- bad input: one `file:line: problem` line each, exit 2 -------------------------------------

@pytest.mark.parametrize("text, lines", [
    ('games = ["bunco"]\nbase-url = "https://example.org/"\n',
     ["rulesheets.toml:2: unknown key 'base-url' (did you mean 'base_url'? known: " + ", ".join(KEYS) + ")"]),
    ('# our club\n\ngames = ["bunco", "tonks"]\n',
     ["rulesheets.toml:3: games: unknown game 'tonks' (did you mean 'tonk'? known: bunco, call-break, stop-the-bus, tonk)"]),
    ('papers = "a4,legal"\nformats = ["pdf"]\n', ["rulesheets.toml:1: papers: unknown paper 'legal' (known: a4, letter)"]),
    ('kinds = []\n', ["rulesheets.toml:1: kinds: needs at least one of rulebook, tally-sheet, scorepad, quick-reference, "
                      "score-sheet, hand-ranking, payout-sheet, booklet, card-sheet"]),
    ('stake = -3\n', ["rulesheets.toml:1: stake: must be a positive amount with at most 2 decimals, got -3"]),
    ('stake = "2.505"\n', ["rulesheets.toml:1: stake: must be a positive amount with at most 2 decimals, got 2.505"]),
    # Found by tests/commands/test_hostile_text.py: rounding 1e999 to cents was an InvalidOperation traceback.
    ('stake = "1e999"\n', ["rulesheets.toml:1: stake: must be at most 1,000,000, got 1e999"]),
    ('stake = 1e300\n', ["rulesheets.toml:1: stake: must be at most 1,000,000, got 1e+300"]),
    ('currency = "GBP"\n', ["rulesheets.toml:1: currency: unknown currency 'GBP' (known: INR, NPR, BDT, KRW, EUR, USD)"]),
    ('group = 5\n', ["rulesheets.toml:1: group: input should be a valid string"]),
    ('site_name = ""\n', ["rulesheets.toml:1: site_name: must be 1 to 60 characters on one line"]),
    ('base_url = "example.org"\n',
     ["rulesheets.toml:1: base_url: must be an http(s) address ending in '/', got 'example.org'"]),
    ('[house-rules.bunco]\nwipeout = "maybe"\n', ["rulesheets.toml:2: bunco.wipeout: expected true or false, got 'maybe'"]),
    ('[house-rules]\nchess = {x = 1}\n',
     ["rulesheets.toml:2: house-rules: unknown game 'chess' (known: bunco, call-break, stop-the-bus, tonk)"]),
    ('house-rules.tonk.tonk_totals = [12]\n', ["rulesheets.toml:1: tonk.tonk_totals must be 49,50 | 50, got 12"]),
    # every problem at once, in the file's order
    ('games = [\n  "bunco",\n]\ncolour = "red"\n[house-rules.tonk]\nnope = 1\n',
     ["rulesheets.toml:4: unknown key 'colour' (known: " + ", ".join(KEYS) + ")",
      "rulesheets.toml:6: unknown house rule 'tonk.nope' (house rules of tonk: "
      "tonk_totals, hand_size, tonk_multiplier, tonk_out_multiplier, caught_multiplier, no_starting_discard, "
      "spreads_at_once, new_spreads_double)"]),
    ('games = ["bunco",\n', ["rulesheets.toml:2: invalid TOML: Invalid value"]),
    ('games = ["bunco"]\ngames = ["tonk"]\n', ["rulesheets.toml:2: invalid TOML: Cannot overwrite a value"]),
])
def test_bad_project_file_is_one_line_per_problem(text, lines, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / PROJECT_FILE).write_text(text, encoding="utf-8")
    assert _run(capsys, "check") == (2, lines)


def test_not_utf8_names_the_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / PROJECT_FILE).write_bytes(b'games = ["bunco"]\ngroup = "caf\xe9"\n')
    assert _run(capsys, "build") == (2, ["rulesheets.toml:2: the project file is not UTF-8 text"])


def test_missing_config_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert _run(capsys, "build", "--config", "club.toml") == (2, ["club.toml: no such project file"])


def test_key_lines_follow_tables_and_dotted_keys():
    text = ('games = [\n  "a",  # [not a table]\n]\n[house-rules.bunco]\nwipeout = true\n'
            '[house-rules]\ntonk.hand_size = 5\n"quoted" = 1\n')
    lines = key_lines(text)
    assert lines[("games",)] == 1
    assert lines[("house-rules", "bunco", "wipeout")] == 5
    assert lines[("house-rules", "tonk", "hand_size")] == 7
    assert lines[("house-rules", "quoted")] == 8
    assert ("not a table",) not in lines


# --- flags over the file ----------------------------------------------------------------------

def _args(tmp_path, monkeypatch, text: str, *argv: str):
    monkeypatch.chdir(tmp_path)
    (tmp_path / PROJECT_FILE).write_text(text, encoding="utf-8")
    args = parser().parse_args(list(argv))
    return project.apply(args, project.find_project(args.config))


FILE = ('games = ["tonk", "bunco"]\nlocales = ["fr"]\nkinds = ["payout-sheet"]\npapers = ["a4"]\nformats = ["html"]\n'
        'group = "Club du vendredi"\nstake = "2.50"\ncurrency = "EUR"\nbase_url = "https://example.org/regles/"\n'
        'site_name = "Règles du club"\nout = "sorties"\n[house-rules.tonk]\ntonk_totals = [50]\n')


def test_the_file_fills_in_what_no_flag_gives(tmp_path, monkeypatch):
    args = _args(tmp_path, monkeypatch, FILE, "build")
    assert (args.games, args.locales, args.kinds, args.papers, args.formats) == (
        ["tonk", "bunco"], ["fr"], ["payout-sheet"], ["a4"], ["html"])
    assert (args.group, args.stake, args.currency) == ("Club du vendredi", "2.50", "EUR")
    assert (args.base_url, args.site_name) == ("https://example.org/regles/", "Règles du club")
    assert args.output_root == tmp_path / "sorties"  # relative to the project file's folder
    assert args.project_house_rules == {"tonk": {"tonk_totals": [50]}}


def test_flags_win_over_the_file(tmp_path, monkeypatch):
    from generator.commands.options import house_rules as _house_rules

    args = _args(tmp_path, monkeypatch, FILE, "build", "--locales", "ko", "--kinds", "rulebook", "--group", "",
                 "--site-name", "Our rules", "--base-url", "https://x.example/", "--rule", "tonk.tonk_totals=49,50")
    assert (args.locales, args.kinds, args.group, args.site_name, args.base_url) == (
        ["ko"], ["rulebook"], "", "Our rules", "https://x.example/")
    assert args.games == ["tonk", "bunco"]  # not given: from the file
    assert _house_rules(args) == {"tonk": {"tonk_totals": "49,50"}}


def test_no_project_file_gives_the_defaults(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = project.apply(parser().parse_args(["build"]), project.find_project(None))
    assert (args.games, args.group, args.base_url, args.site_name, args.output_root) == (None, "", "", "rulesheets", None)


def test_a_kit_takes_the_files_only_locale_and_paper(tmp_path, monkeypatch):
    args = _args(tmp_path, monkeypatch, 'locales = ["ko"]\npapers = ["a4"]\n', "kit", "tonk", "--players", "A,B")
    assert (args.locale, args.paper) == ("ko", "a4")
    args = _args(tmp_path, monkeypatch, 'locales = ["ko", "fr"]\n', "kit", "tonk", "--players", "A,B")
    assert (args.locale, args.paper) == ("en", None)


def test_a_build_follows_the_project_file(tmp_path):
    """One real build: output folder, selection and house rules all from the file; --locales from the flag."""
    from tests.safety import cli

    (tmp_path / "club").mkdir()
    (tmp_path / "club" / PROJECT_FILE).write_text(FILE, encoding="utf-8")
    r = cli(ROOT, "build", "--config", "club/rulesheets.toml", "--locales", "en", "fr", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = tmp_path / "club" / "sorties"
    entries = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(e["path"] for e in entries) == ["en/tonk/payout-sheet.html", "fr/tonk/payout-sheet.html"]
    assert all(e["rules"] == {"tonk_totals": [50]} for e in entries)
    html = (out / "fr/tonk/payout-sheet.html").read_text(encoding="utf-8")
    assert "2,50" in html and "€" in html  # the stake and currency of the file


def test_site_name_reaches_every_site_page(monkeypatch):
    from generator.i18n.translate import load_translator
    from generator.site.builder import _Context

    ctx = _Context(SimpleNamespace(models={}), {"en": load_translator("en", ("common",))}, (), {}, {}, "", "Club")
    assert ctx._common("en", "en/index.html", "website")["site_name"] == "Club"
    ctx = _Context(SimpleNamespace(models={}), {"en": load_translator("en", ("common",))}, (), {}, {}, "")
    assert ctx._common("en", "404.html", "website")["site_name"] == "rulesheets"


# --- site_logo: a file next to the project file -------------------------------------------------

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8"/></svg>'


def test_site_logo_is_relative_to_the_project_file(tmp_path, monkeypatch):
    (tmp_path / "club" / "art").mkdir(parents=True)
    (tmp_path / "club" / "art" / "logo.svg").write_text(SVG, encoding="utf-8")
    (tmp_path / "club" / PROJECT_FILE).write_text('site_logo = "art/logo.svg"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    args = project.apply(parser().parse_args(["build", "--config", "club/rulesheets.toml"]),
                         project.find_project(Path("club/rulesheets.toml")))
    assert args.site_logo == tmp_path / "club" / "art" / "logo.svg"
    flag = project.apply(parser().parse_args(["build", "--config", "club/rulesheets.toml", "--site-logo", "x.png"]),
                         project.find_project(Path("club/rulesheets.toml")))
    assert flag.site_logo == Path("x.png")  # the flag wins


@pytest.mark.parametrize("files, text, line", [
    ({}, 'games = ["bunco"]\nsite_logo = "logo.svg"\n',
     "rulesheets.toml:2: cannot read site_logo 'logo.svg': No such file or directory"),
    ({"logo.png": b"GIF89a"}, '# ours\n\nsite_logo = "logo.png"\n', "rulesheets.toml:3: site_logo 'logo.png' is not a PNG image"),
    ({"logo.gif": b"GIF89a"}, 'site_logo = "logo.gif"\n',
     "rulesheets.toml:1: site_logo 'logo.gif' must be an .svg, .png or .webp image, not '.gif'"),
    ({"art": None}, 'site_logo = "art"\n', "rulesheets.toml:1: site_logo 'art' must be an .svg, .png or .webp image, not 'art'"),
    ({}, 'site_logo = ""\n', "rulesheets.toml:1: site_logo: must name an .svg, .png or .webp file"),
])
def test_bad_site_logo_names_the_line(files, text, line, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for name, data in files.items():
        (tmp_path / name).mkdir() if data is None else (tmp_path / name).write_bytes(data)
    (tmp_path / PROJECT_FILE).write_text(text, encoding="utf-8")
    assert _run(capsys, "check") == (2, [line])


def test_a_site_build_shows_the_project_files_logo(tmp_path):
    from tests.safety import cli

    (tmp_path / "club").mkdir()
    (tmp_path / "club" / "badge.svg").write_text(SVG, encoding="utf-8")
    (tmp_path / "club" / PROJECT_FILE).write_text('formats = ["html"]\nsite_logo = "badge.svg"\nout = "site-out"\n'
                                                  'games = ["tonk"]\nlocales = ["en", "ko"]\n', encoding="utf-8")
    r = cli(ROOT, "build", "--config", "club/rulesheets.toml", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    site = tmp_path / "club" / "site-out" / "site"
    assert (site / "logo.svg").read_text(encoding="utf-8") == SVG  # published under the site's own name for it
    assert '<img class="logo" src="../../logo.svg"' in (site / "ko" / "tonk" / "index.html").read_text(encoding="utf-8")


def test_a_nul_byte_in_the_config_name_is_one_line(capsys):
    """Found by tests/commands/test_hostile_text.py: open() raises ValueError, not OSError, for a NUL byte."""
    assert _run(capsys, "check", "--config", "club\x00.toml") == (
        2, ["club\\u0000.toml: no such project file (a file name cannot hold a NUL byte)"])
