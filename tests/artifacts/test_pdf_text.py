"""Faithful text in every script (issue 12): extractable, tagged, named PDFs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator.dev import fidelity
from generator.i18n.translate import discover_locales

from tests.conftest import manifest

MINIMUM = 99.9
#: Words that must come back whole (no space inside, nothing glued on), per locale and reader.
MINIMUM_WHOLE = 99.5
LOCALES = discover_locales()


@pytest.fixture(scope="module")
def entries(full_build: Path) -> list[dict]:
    return manifest(full_build)


def _low(scores: dict[str, fidelity.Fidelity]) -> dict:
    return {loc: (round(f.percent, 3), round(f.percent_whole, 3), f.missing[:6], f.split_in[:4])
            for loc, f in scores.items() if f.percent < MINIMUM or f.percent_whole < MINIMUM_WHOLE}


@pytest.mark.full
@pytest.mark.parametrize("engine", fidelity.ENGINES)
def test_every_pdf_reads_whole_in_every_reader(full_build, entries, kit_build, house_rules_build, engine):
    """Words of each HTML twin found, and found whole, in the text poppler (pdftotext), PDFium and MuPDF
    extract, per locale: every PDF of a full build, a Bunco and a Tonk kit in every locale, and a
    house-rules edition. (`make test` reads words of every script in the three readers below.)"""
    scores = fidelity.by_locale(full_build, entries, engine)
    kits = fidelity.by_locale(kit_build, [], engine)
    house = fidelity.by_locale(house_rules_build, manifest(house_rules_build), engine)
    print(f"{engine}: " + ", ".join(f"{loc} {f.percent:.2f} % / {f.percent_whole:.2f} % whole"
                                    for loc, f in sorted(scores.items())))
    assert set(scores) == set(kits) == set(house) == set(LOCALES)
    for name, part in (("build", scores), ("kits", kits), ("house rules", house)):
        assert not _low(part), f"{engine}, {name}: under {MINIMUM} % found or {MINIMUM_WHOLE} % whole: {_low(part)}"


def _ua_problems(pdfs) -> list[str]:
    from generator.dev import uacheck

    return [line for pdf in pdfs for line in uacheck.problems(pdf)]


@pytest.mark.full
def test_every_pdf_passes_the_machine_checkable_pdf_ua_rules(full_build, entries, kit_build, house_rules_build):
    """PDF/UA-1 declared in XMP, 0 errors, 0 warnings, every rule evaluated: every PDF, kit and house-rules PDF."""
    pdfs = [full_build / e["path"] for e in entries if e["format"] == "pdf"]
    pdfs += sorted(kit_build.glob("kit/*.pdf")) + sorted(house_rules_build.glob("*/*/*.pdf"))
    assert len(pdfs) >= 204 + 12
    assert _ua_problems(pdfs) == []


@pytest.mark.render
def test_a_document_with_tables_faded_text_and_figures_passes_pdf_ua(tmp_path):
    """What the builds hold, in one document: header cells by column and by row, a faded group of
    text (opacity), an image with alt text, headings; rendered as the build renders."""
    from generator.render.pdf import html_to_pdf

    html = ('<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><h1>Rules</h1><h2>Hands</h2>'
            '<table><thead><tr><th scope="col">Hand</th><th scope="col">Odds</th></tr></thead>'
            '<tbody><tr><th scope="row">Three of a kind</th><td>1 in 425</td></tr></tbody></table>'
            '<p style="opacity: .4">A card you may not play</p>'
            '<img alt="Die showing 2" src="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 '
            'width=%2210%22 height=%2210%22%3E%3C/svg%3E"></body></html>')
    data, _ = html_to_pdf(html, "a4", "t")
    pdf = tmp_path / "t.pdf"
    pdf.write_bytes(data)
    assert _ua_problems([pdf]) == []


def test_a_pdf_ua_problem_is_reported(tmp_path, monkeypatch):
    """The check can fail: WeasyPrint's own tagged PDF (no PDF/UA claim, header cells without /Scope,
    an unmarked opacity group) is refused."""
    import weasyprint.pdf as wp_pdf
    from weasyprint import HTML
    from weasyprint.pdf import tags as wp_tags

    from generator.dev import uacheck
    from generator.patches import pdftags

    monkeypatch.setattr(wp_pdf, "add_tags", pdftags._original_add_tags)  # as shipped, whatever ran before
    monkeypatch.setattr(wp_tags, "_build_box_tree", pdftags._original_build_box_tree)

    pdf = tmp_path / "plain.pdf"
    HTML(string='<html lang="en"><title>t</title><p style="opacity: .5">Faded</p><table><tr><th>A</th></tr>'
                '<tr><td>1</td></tr></table>').write_pdf(pdf, pdf_tags=True)
    found = "\n".join(uacheck.problems(pdf))
    assert "does not declare PDF/UA-1" in found
    assert "UA-15-003 WARNING" in found and "UA-01-003 ERROR" in found


def _pdf_objects(path: Path):
    import pypdf

    reader = pypdf.PdfReader(path)
    return reader, [o for o in (reader.get_object(i) for i in range(1, reader.trailer["/Size"]))
                    if isinstance(o, dict)]


def test_every_pdf_is_tagged_with_language_and_title(full_build, entries):
    pdfs = [e for e in entries if e["format"] == "pdf"]
    assert len(pdfs) >= 108  # 9 documents in 6 locales and 2 papers, and whatever kinds come later
    for e in pdfs:
        info = subprocess.run(["pdfinfo", str(full_build / e["path"])], capture_output=True, text=True, check=True).stdout
        assert re.search(r"^Tagged:\s+yes$", info, re.M), e["path"]
        assert re.search(r"^Title:\s+\S", info, re.M), e["path"]
    for e in [p for p in pdfs if p["paper"] == "a4" and p["game"] == "bunco"]:
        reader, _ = _pdf_objects(full_build / e["path"])
        root = reader.trailer["/Root"]
        assert root["/Lang"] == e["locale"], e["path"]
        assert root["/ViewerPreferences"]["/DisplayDocTitle"] in (True, "true"), e["path"]


def _structure_types(path: Path) -> list[str]:
    _, objects = _pdf_objects(path)
    return [o["/S"] for o in objects if o.get("/Type") == "/StructElem"]


@pytest.mark.parametrize("locale", ["en", "bn"])
def test_structure_has_headings_lists_and_table_headers(full_build, locale):
    types = _structure_types(full_build / locale / "bunco" / "rulebook-a4.pdf")
    for tag in ("/H1", "/H2", "/P", "/L", "/LI", "/Table", "/TH", "/TD", "/Figure"):
        assert tag in types, tag


def test_sheet_tables_have_headers_and_summaries(full_build):
    for rel, summary in [("en/bunco/tally-sheet-a4.pdf", "Win or loss and Buncos for each round of each set"),
                         ("en/bunco/scorepad-table-1-a4.pdf", "Points of both teams in each round of set 1, and the winner"),
                         ("en/tonk/payout-sheet-a4.pdf", "Who pays whom for each way a hand ends, with 2 and with 3 players"),
                         ("bn/bunco/scorepad-table-1-a4.pdf", "সেট ১-এর প্রতিটি রাউন্ডে দুই দলের পয়েন্ট, আর জয়ী দল")]:
        _, objects = _pdf_objects(full_build / rel)
        tables = [o for o in objects if o.get("/S") == "/Table"]
        assert tables and all(t["/A"]["/Summary"] for t in tables), rel
        assert summary in [t["/A"]["/Summary"] for t in tables], rel
        headers = [o for o in objects if o.get("/S") == "/TH"]
        assert headers, rel
        # PDF/UA-1 7.5: every header cell says whether it heads its column or its row.
        assert all(str(h["/A"]["/Scope"]) in ("/Column", "/Row") for h in headers), rel
    _, objects = _pdf_objects(full_build / "en/stop-the-bus/hand-ranking-a4.pdf")
    scopes = {str(o["/A"]["/Scope"]) for o in objects if o.get("/S") == "/TH"}
    assert scopes == {"/Column", "/Row"}  # <th scope="row"> names each hand category


def _alt_texts(path: Path) -> list[str]:
    _, objects = _pdf_objects(path)
    return [str(o["/Alt"]) for o in objects if "/Alt" in o]


@pytest.mark.parametrize("locale, rel, names", [
    ("en", "stop-the-bus/rulebook", ["Queen of hearts", "King of hearts", "Ace of hearts", "2 of spades"]),
    ("hi", "stop-the-bus/rulebook", ["पान की बेगम", "पान का बादशाह", "पान का इक्का", "हुकुम का 2"]),
    ("bn", "stop-the-bus/rulebook", ["হরতনের বিবি", "হরতনের সাহেব", "ইস্কাপনের ২"]),
    ("en", "bunco/rulebook", ["Die showing 2, the round number: it scores", "Die showing 5"]),
    ("ko", "bunco/rulebook", ["주사위 눈 2, 라운드 숫자라서 점수가 나요"]),
])
def test_cards_and_dice_are_named_in_the_readers_language(full_build, locale, rel, names):
    """PDF alternative text and HTML aria-label, in print and on the site."""
    alts = _alt_texts(full_build / locale / f"{rel}-a4.pdf")
    html = (full_build / locale / f"{rel}.html").read_text(encoding="utf-8")
    site = (full_build / "site" / locale / rel.split("/")[0] / "index.html").read_text(encoding="utf-8")
    for name in names:
        assert name in alts, (name, sorted(set(alts))[:10])
        # Cards are labelled spans; dice are images with their name as alt text.
        assert f'aria-label="{name}"' in html or f'alt="{name}"' in html, name
        assert f'aria-label="{name}"' in site or f'alt="{name}"' in site, name
    assert not [a for a in alts if re.fullmatch(r"(10|[2-9JQKA])[SHDC]", a)], "no card is named by its code"


def test_stop_the_bus_example_tables_have_header_rows(full_build):
    for locale in LOCALES:
        for path in (full_build / locale / "stop-the-bus" / "rulebook.html",
                     full_build / "site" / locale / "stop-the-bus" / "index.html"):
            html = path.read_text(encoding="utf-8")
            tables = re.findall(r'<table class="hands">(.*?)</table>', html, re.S)
            assert tables, path
            for table in tables:
                assert re.match(r"\s*<thead><tr>(<th scope=\"col\">[^<]+</th>){4}</tr></thead>", table), path


def _spans(pdf: Path) -> list[str]:
    """The /ActualText of every marked-content span of the first page, in drawing order."""
    import pypdf

    content = pypdf.PdfReader(pdf).pages[0].get_contents().get_data().decode("latin-1")
    return [bytes.fromhex(s).decode("utf-16-be") for s in re.findall(r"/ActualText <FEFF([0-9A-F]+)>", content)]


def _render(tmp_path: Path, lang: str, body: str) -> Path:
    from generator.render.pdf import html_to_pdf
    from generator.render.script import for_print

    html = f'<!DOCTYPE html><html lang="{lang}"><head><title>t</title></head><body>{body}</body></html>'
    data, _ = html_to_pdf(for_print(html, lang), "a4", "t")
    pdf = tmp_path / f"{lang}.pdf"
    pdf.write_bytes(data)
    return pdf


@pytest.mark.render
def test_actual_text_spans_whole_words_only_where_glyphs_lose_their_text(tmp_path):
    """Bengali words with pre-base and split vowels and conjuncts come back exactly, in three readers; a span
    holds a whole word and the space after it (never a piece of a syllable); Latin text gets no spans."""
    words = "খেলোয়াড় কোনো টেবিল নম্বর কৌশল পৌঁছায়"
    latin = "Plain Latin text, office affinity."
    pdf = _render(tmp_path, "bn", f"<p style=\"font-family: 'Noto Sans Bengali'\">{words}</p>"
                                  f"<p lang=\"en\" style=\"font-family: 'Noto Sans'\">{latin}</p>")
    for engine in fidelity.ENGINES:
        assert fidelity.extract(pdf, engine).split() == words.split() + latin.split(), engine
    texts = _spans(pdf)
    assert texts and all(re.fullmatch(r" ?[\u0980-\u09ff]+ ", t) for t in texts), texts
    assert {"খেলোয়াড় ", "কোনো ", "টেবিল "} <= set(texts)  # split vowels (ো) and a pre-base one (ে)
    assert all(t.strip() in words.split() for t in texts)


@pytest.mark.render
@pytest.mark.parametrize("lang, font, text", [
    ("en", "Noto Sans", "Rules of play"),
    ("fr", "Noto Sans", "Exemple : une donne"),
    ("ko", "Noto Sans CJK KR", "한눈에 보는 규칙"),
])
def test_letter_spaced_labels_come_back_as_words(tmp_path, lang, font, text):
    """A kicker in capitals with letter-spacing (Korean with the word joiners print puts between its letters)
    extracts as its words in poppler, PDFium and MuPDF, not as spaced-out letters."""
    pdf = _render(tmp_path, lang, f"<p style=\"font-family: '{font}'; text-transform: uppercase; "
                                  f"letter-spacing: .12em\">{text}</p>")
    for engine in fidelity.ENGINES:
        assert fidelity.words(fidelity.extract(pdf, engine)) == fidelity.words(text), engine
    assert all("\u2060" not in t for t in _spans(pdf))  # the joiners are layout, not text


@pytest.mark.render
@pytest.mark.parametrize("lang, font, text", [
    ("ne", "Noto Sans Devanagari", "टेबल अङ्क तिर्नुपर्ने सकिँदा खिलाड़ियों"),
    # A combining mark that MuPDF would give to a glyph wider than 0.8 em (স্ক, ख़): the span's text
    # starts with a space there, or MuPDF would break the word over two lines (স্কো / রপ্যাড).
    ("hi", "Noto Sans Devanagari", "आख़िरी स्कोर"),
    ("bn", "Noto Sans Bengali", "স্কোর স্কোরপ্যাড পয়েন্টে খেলোয়াড়ের স্প্রেডে ক্ষেত্রে"),
])
def test_indic_words_with_marks_apart_come_back_whole(tmp_path, lang, font, text):
    """Conjuncts with a visible virama, a nukta, a candrabindu, wide conjuncts: whole in all three readers."""
    pdf = _render(tmp_path, lang, f"<p style=\"font-family: '{font}'\">{text}</p>")
    for engine in fidelity.ENGINES:
        assert fidelity.words(fidelity.extract(pdf, engine)) == fidelity.words(text), engine


def test_mupdf_model_sees_the_line_break_it_avoids():
    """The model of MuPDF's ActualText reading that decides the leading space: a combining mark given to
    a wide glyph loses its advance, and the next glyph 0.82 em on starts a line; shifted by one it does not."""
    from generator.patches.actualtext import _mupdf_breaks_line

    # आख़िरी as MuPDF reads its glyphs: आ, the i-sign drawn first (no text: U+FFFD), ख़ (three
    # characters), र, ी; font size 12, ख़ 0.818 em wide.
    items = [(True, "आ", 0.0, 12.3, 12), (True, "\ufffd", 12.3, 3.1, 12), (True, "ख", 15.4, 9.8, 12),
             (False, "\u093c", 15.4, 0, 12), (False, "ि", 15.4, 0, 12), (True, "र", 25.2, 4.9, 12),
             (True, "ी", 30.1, 3.1, 12)]
    assert _mupdf_breaks_line(items, "आख़िरी ")
    assert not _mupdf_breaks_line(items, " आख़िरी ")


def _contents(pdf: bytes) -> str:
    import io

    import pypdf

    return "\n".join(page.get_contents().get_data().decode("latin-1") for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def _glyph_stream(pdf: bytes) -> list[str]:
    """Every page's drawing operations with the TJ arrays flattened to glyphs and non-zero moves.

    Marked content (/Span ... BDC, EMC) is left out, and so are TJ boundaries: what remains is
    which glyph is drawn where.
    """
    out = []
    for line in _contents(pdf).splitlines():
        if line.endswith("TJ"):
            for hexes, number in re.findall(r"<([0-9a-f]*)>|(-?[0-9.]+)", line):
                if hexes:
                    out += [hexes[i:i + 4] for i in range(0, len(hexes), 4)]
                elif number and float(number):
                    out.append(f"{float(number):.3f}")
        elif line not in ("/Span", "BDC", "EMC") and "ActualText" not in line and "MCID" not in line:
            out.append(line)
    return out


@pytest.mark.render
def test_actual_text_draws_the_same_glyphs_in_the_same_places(monkeypatch):
    """Apart from the spans, the patched drawing writes WeasyPrint 70's own glyphs and moves (Korean
    word joiners, kerning, Latin, Indic clusters)."""
    from weasyprint.draw import text as wp_text

    from generator.patches import actualtext
    from generator.render.pdf import html_to_pdf
    from generator.render.script import for_print

    html = for_print(
        '<!DOCTYPE html><html lang="ko"><head><title>t</title></head><body>'
        '<p>판돈을 칩 2개로 정하고 하는 판에서, Tariq가 가장 낮은 합계로 노크해요. AVATAR 12.</p>'
        '<p lang="bn" style="font-family: \'Noto Sans Bengali\'">টেবিল নম্বর কৌশল পৌঁছায় স্কোর ২১</p>'
        '<p lang="hi" style="font-family: \'Noto Sans Devanagari\'">खिलाड़ियों की बारी, आख़िरी पत्ता</p>'
        '</body></html>', "ko")
    patched, _ = html_to_pdf(html, "a4", "t")
    monkeypatch.setattr(wp_text, "draw_first_line", actualtext._original_draw_first_line)
    shipped, _ = html_to_pdf(html, "a4", "t")
    assert "ActualText" in _contents(patched) and "ActualText" not in _contents(shipped)
    assert _glyph_stream(patched) == _glyph_stream(shipped)


def _struct_texts(pdf: bytes, tmp_path: Path) -> list[str]:
    """The text poppler reads through the structure tree, element by element, in order."""
    path = tmp_path / "s.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdfinfo", "-struct-text", str(path)], capture_output=True, text=True, check=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip().startswith('"')]


@pytest.mark.render
def test_folded_structure_reads_the_same_text(full_build, tmp_path, monkeypatch):
    """Bare text spans folded into their parents: fewer structure elements, the same text, element by element."""
    import weasyprint.pdf as wp

    from generator.patches import pdftags
    from generator.render.pdf import html_to_pdf

    html = (full_build / "bn" / "stop-the-bus" / "rulebook.html").read_text(encoding="utf-8")
    folded, _ = html_to_pdf(html, "a4", "t")
    monkeypatch.setattr(wp, "add_tags", pdftags._original_add_tags)
    plain, _ = html_to_pdf(html, "a4", "t")
    texts = _struct_texts(folded, tmp_path)
    assert len(texts) > 100 and texts == _struct_texts(plain, tmp_path)
    assert len(folded) < len(plain)
    _, objects = _pdf_objects(tmp_path / "s.pdf")  # the plain one, written last
    plain_elements = sum(o.get("/Type") == "/StructElem" for o in objects)
    (tmp_path / "f.pdf").write_bytes(folded)
    _, objects = _pdf_objects(tmp_path / "f.pdf")
    assert sum(o.get("/Type") == "/StructElem" for o in objects) < 0.8 * plain_elements


def test_actualtext_refuses_other_weasyprint_versions():
    """The patch mirrors WeasyPrint 70.0's drawing code: any other version fails at import, loudly."""
    code = ("import weasyprint; weasyprint.__version__ = '71.0'\n"
            "import generator.patches.actualtext")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode != 0
    assert "patches WeasyPrint 70.0's text drawing, but WeasyPrint 71.0 is installed" in r.stderr
