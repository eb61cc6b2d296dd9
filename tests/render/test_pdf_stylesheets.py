"""The document's stylesheet is parsed once per process and handed to WeasyPrint beside the document
(issue 17): the PDFs must come out byte for byte as when WeasyPrint reads the <style> itself."""

from __future__ import annotations

import pytest

from generator.pipeline.build import Options, prepare, print_stylesheets, render_html
from generator.render import pdf
from generator.render.script import for_print


@pytest.fixture(scope="module")
def documents():
    opts = Options(games=("tonk", "bunco"), locales=("ko", "hi"))
    prep = prepare(opts)
    docs = render_html(prep, opts)
    extra = print_stylesheets(prep, docs)
    wanted = [k for k in docs if k[2] in ("rulebook", "tally-sheet", "payout-sheet")]
    return [(k, for_print(docs[k], k[1]), extra[k]) for k in sorted(wanted, key=str)]


def test_split_stylesheet_gives_the_same_pdf(documents, monkeypatch):
    """Korean (cut fonts with @font-face in the print CSS) and Hindi, rulebooks and sheets, both papers."""
    for key, html, extra in documents:
        for paper in ("a4", "letter"):
            split = pdf.html_to_pdf(html, paper, "split", extra)
            again = pdf.html_to_pdf(html, paper, "split", extra)  # from the parsed sheets kept by the first
            with monkeypatch.context() as m:
                m.setattr(pdf, "_split_style", lambda h: (h, ""))  # WeasyPrint reads the <style> itself
                inline = pdf.html_to_pdf(html, paper, "split", extra)
            assert split == again == inline, (key, paper)


def test_the_style_element_is_taken_out_only_when_there_is_one():
    html = "<html><head><style>p { color: red }</style></head><body><p>x</p></body></html>"
    assert pdf._split_style(html) == ("<html><head></head><body><p>x</p></body></html>", "p { color: red }")
    two = "<style>a{}</style><style>b{}</style><p>x</p>"
    assert pdf._split_style(two) == (two, "")
    assert pdf._split_style("<p>x</p>") == ("<p>x</p>", "")


def test_a_stylesheet_that_cannot_load_fails_every_document(monkeypatch):
    """Not only the first: a refused sheet is never kept for the next document."""
    monkeypatch.setattr(pdf, "_sheets", {})
    css = '@font-face { font-family: "x"; src: url("file:///etc/passwd"); }'
    html = "<html><head></head><body><p>x</p></body></html>"
    for _ in range(2):
        with pytest.raises(pdf.RenderError, match="doc: Font-face 'x' cannot be loaded"):
            pdf.html_to_pdf(html, "a4", "doc", css)
    assert css not in pdf._sheets


def test_the_kept_stylesheets_are_bounded(monkeypatch):
    monkeypatch.setattr(pdf, "_sheets", {})
    monkeypatch.setattr(pdf, "SHEETS_KEPT", 3)
    html = "<html><head><style>p { margin: %dpt }</style></head><body><p>x</p></body></html>"
    for n in range(5):
        pdf.html_to_pdf(html % n, "a4", "doc")
    kept = [css for css in pdf._sheets if "margin" in css]
    assert kept == ["p { margin: 3pt }", "p { margin: 4pt }"]
    assert len(pdf._sheets) == 3


def test_images_are_kept_across_documents_but_files_are_read_again():
    cache = pdf._ImageCache()
    cache["data:image/svg+xml,<svg/>"] = "die"
    cache["file:///project/templates/logo.png"] = "logo"
    cache[12345] = "image data by WeasyPrint's own key"
    assert dict(cache) == {"data:image/svg+xml,<svg/>": "die", 12345: "image data by WeasyPrint's own key"}
