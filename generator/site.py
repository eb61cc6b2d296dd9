"""Static rules site under output/site/: language chooser, one page per locale and game, sitemap, web fonts."""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from xml.sax.saxutils import escape as xml_escape

from babel.core import get_global
from babel.units import format_unit
from markupsafe import Markup

from . import GAMES
from .fonts import web as webfonts
from .errors import CheckFailed
from .i18n import DIGITS, LOCALES_DIR, SOURCE_LOCALE, Translator, babel_locale, discover_locales, fallback_problems
from .render.html import SectionView, environment, locale_globals, model_text
from .render.html import rulebook_sections as html_sections

SITE = "site"
DEFAULT_BASE_URL = "https://example.org/rules/"
#: Fonts a class asks for whatever the language: mirrors `.card .suit` in templates/css/base.css.
CLASS_FONTS = {"suit": ("DejaVu Sans",)}
#: The language chooser's own font set (the locales' sets are named after the locale).
CHOOSER = "index"
SHEET_ORDER = ("rulebook", "quick-reference", "tally-sheet", "scorepad", "payout-sheet", "hand-ranking")


@dataclass(frozen=True)
class PdfLink:
    """One PDF of a document in one paper size, as the site links it."""

    paper: str
    #: Relative to the site root (site/).
    href: str
    pages: int | None
    size: str | None


@dataclass(frozen=True)
class Download:
    """A document (rulebook or sheet) with its PDFs, the locale's default paper first."""

    kind: str
    table: int | None
    tables: int
    links: tuple[PdfLink, ...]


@dataclass(frozen=True)
class Page:
    """A rendered page and the font set whose subsets cover its text."""

    html: str
    font_set: str
    lang: str


def render_site(prep, docs, entries, opts, files=None) -> dict[str, bytes]:
    """Files of the static site by path relative to output/ (site/...).

    `docs` (the print HTML) is not cut up: the rulebook pages are rendered again through
    templates/site, because the print document has its own banner and contents landmarks where the
    site needs one of each, and browsers keep Korean words whole with CSS where WeasyPrint needs
    no-wrap spans. PDFs are copied into the site (from `files`) so that site/ alone can be published.
    """
    base_url = getattr(opts, "base_url", DEFAULT_BASE_URL)
    base_url = base_url if base_url.endswith("/") else base_url + "/"
    every = discover_locales(getattr(opts, "locales_dir", None) or LOCALES_DIR)
    trs = {code: prep.translators[code] for code in every if code in prep.translators}
    games = [g for g in GAMES if g in prep.models]
    misses_before = {code: len(tr.misses) for code, tr in trs.items()}
    out: dict[str, bytes] = {}
    downloads = _downloads(entries, files or {}, trs, out)
    languages = {code: _native_name(code) for code in trs}
    pages: dict[str, Page] = {}
    ctx = _Context(prep, trs, games, languages, downloads, base_url)
    pages["index.html"] = ctx.chooser()
    for code in trs:
        pages[f"{code}/index.html"] = ctx.locale_index(code)
        for game in games:
            pages[f"{code}/{game}/index.html"] = ctx.game_page(code, game)
    if getattr(opts, "strict", False):
        # A site string shown in English fails --strict, as a rulebook string does.
        problems = fallback_problems(trs, since=misses_before, locales_dir=getattr(opts, "locales_dir", None))
        if problems:
            raise CheckFailed(problems)

    stacks = font_stacks(trs)
    out.update(_web_fonts(pages, trs, stacks, getattr(opts, "jobs", 0) or os.cpu_count() or 1,
                          full=set(trs) == set(every) and set(games) == set(GAMES)))
    css = environment().get_template("site/style.css.j2").render(stacks=stacks, font_stack=Markup("sans-serif"))
    out[f"{SITE}/style.css"] = css.encode("utf-8")
    for path, page in pages.items():
        out[f"{SITE}/{path}"] = page.html.encode("utf-8")
    out[f"{SITE}/sitemap.xml"] = _sitemap(pages, base_url, ctx.lastmod).encode("utf-8")
    out[f"{SITE}/robots.txt"] = f"User-agent: *\nAllow: /\n\nSitemap: {base_url}sitemap.xml\n".encode("utf-8")
    return dict(sorted(out.items()))


def _web_fonts(pages: dict[str, Page], trs: dict[str, Translator], stacks: dict[str, tuple[str, ...]],
               jobs: int, full: bool) -> dict[str, bytes]:
    """fonts/<set>.css and the WOFF2 subsets it names, for the chooser and each locale."""
    plans = {}
    for font_set in [CHOOSER, *trs]:
        htmls = [p.html for p in pages.values() if p.font_set == font_set]
        main = pages["index.html"].lang if font_set == CHOOSER else font_set
        native = DIGITS[trs[main].config.digits]  # list numbers and later edits may use any digit
        plans[font_set] = webfonts.plan_set(font_set, htmls, stacks, main, CLASS_FONTS, extra=native)
    subsets = webfonts.make_subsets(plans, jobs=jobs, cache_dir=webfonts.CACHE_DIR)
    if full:
        webfonts.prune_cache(subsets, webfonts.CACHE_DIR)  # a full build knows every subset still wanted
    out = {}
    for font_set, plan in plans.items():
        fonts = webfonts.choose_faces(plan, subsets)
        for f in fonts:
            out[f"{SITE}/fonts/{f.filename}"] = f.data
        out[f"{SITE}/fonts/{font_set}.css"] = webfonts.font_face_css(fonts).encode("utf-8")
    return out


def font_stacks(trs: dict[str, Translator]) -> dict[str, tuple[str, ...]]:
    """Each locale's fonts (locale.toml), then every other locale's.

    The tail matters: an English fallback passage in a Bengali page is tagged lang="en" but its
    numbers are in Bengali digits, and a language switcher names every language in its own script.
    """
    every = tuple(dict.fromkeys(f for tr in trs.values() for f in tr.config.fonts))
    return {code: tuple(dict.fromkeys(tr.config.fonts + every)) for code, tr in trs.items()}


def _native_name(code: str) -> str:
    """The language's name in itself; capitalised because it stands alone in a menu (CLDR uiListOrMenu)."""
    locale = babel_locale(code)
    name = locale.get_display_name(locale)
    return name[:1].upper() + name[1:]


def og_locale(code: str) -> str:
    """Open Graph wants language_TERRITORY: hi -> hi_IN, es-MX -> es_MX, from CLDR's likely subtags."""
    babel_id = str(babel_locale(code))
    parts = get_global("likely_subtags").get(babel_id, babel_id).split("_")
    return f"{parts[0]}_{parts[-1]}" if len(parts) > 1 else code


def file_size(tr: Translator, n: int) -> str:
    """A file size in the locale's words and digits: 312 kB, 312 ko, ৩১২ kB."""
    if n >= 1_000_000:
        return tr.digits(format_unit(round(n / 1_000_000, 1), "digital-megabyte", length="short", locale=tr.config.babel))
    return tr.digits(format_unit(max(1, round(n / 1000)), "digital-kilobyte", length="short", locale=tr.config.babel))


def _downloads(entries, files, trs, out) -> dict[tuple[str, str], list[Download]]:
    """PDF links per (locale, game), copying each PDF into the site next to its game page."""
    grouped: dict[tuple, list[dict]] = {}
    for e in entries:
        if e.get("format") == "pdf" and e.get("locale") in trs:
            grouped.setdefault((e["locale"], e["game"], e["kind"], e.get("table")), []).append(e)
    result: dict[tuple[str, str], list[Download]] = {}
    for (code, game, kind, table), group in sorted(grouped.items(), key=lambda kv: (
            kv[0][0], kv[0][1], SHEET_ORDER.index(kv[0][2]) if kv[0][2] in SHEET_ORDER else 99, kv[0][3] or 0)):
        default = trs[code].config.paper
        links = []
        for e in sorted(group, key=lambda e: (e["paper"] != default, e["paper"])):
            data = files.get(e["path"])
            if data is not None:
                out[f"{SITE}/{e['path']}"] = data
                href = e["path"]
            else:
                href = f"../{e['path']}"  # not handed over: link the PDF where the build wrote it
            size = file_size(trs[code], len(data)) if data is not None else None
            links.append(PdfLink(e["paper"], href, e.get("pages"), size))
        tables = max((k[3] or 0) for k in grouped if k[:3] == (code, game, kind))
        result.setdefault((code, game), []).append(Download(kind, table, tables, tuple(links)))
    return result


class _Context:
    """What every page template needs: links between pages, alternates, the locale's globals."""

    def __init__(self, prep, trs, games, languages, downloads, base_url):
        self.prep, self.trs, self.games = prep, trs, games
        self.languages, self.downloads, self.base_url = languages, downloads, base_url
        dates = [prep.models[g].model.published for g in games]
        self.lastmod = {g: prep.models[g].model.published.isoformat() for g in games}
        self.lastmod[None] = max(dates).isoformat() if dates else None
        self.x_default = SOURCE_LOCALE if SOURCE_LOCALE in trs else next(iter(trs))

    def _common(self, code: str, path: str, og_type: str) -> dict:
        """Head and link context; each template sets its own title and description (so they are extracted)."""
        url_path = path[: -len("index.html")]
        here = posixpath.dirname(path) or "."

        def url(target: str) -> str:
            """A link from this page to target (a path under site/), relative so the site works from disk."""
            return posixpath.relpath(target, here)

        return {
            "url": url, "lang": code, "canonical": self.base_url + url_path,
            # The brand link leads to the locale's own index (the chooser links to itself).
            "home": "index.html" if path == "index.html" else f"{code}/index.html",
            "og_type": og_type, "og_locale": og_locale(code),
            "og_alternates": [og_locale(c) for c in self.trs if c != code],
            "digits": self.trs[code].config.digits,
        }

    def _switcher(self, code: str, target: str) -> list[dict]:
        """Links to the same page in every built locale; target is a path under the locale folder."""
        return [{"code": c, "name": name, "href": f"{c}/{target}", "current": c == code}
                for c, name in self.languages.items()]

    def _alternates(self, target: str, x_default: str) -> list[dict]:
        """hreflang links to target in every locale; x-default is the chooser for locale indexes, else English."""
        alts = [{"hreflang": c, "href": self.base_url + c + "/" + target.removesuffix("index.html")} for c in self.trs]
        return alts + [{"hreflang": "x-default", "href": self.base_url + x_default}]

    def _render(self, template: str, code: str, **context) -> str:
        return environment().get_template(template).render(**locale_globals(self.trs[code]), **context)

    def chooser(self) -> Page:
        code = self.x_default
        tr = self.trs[code]
        choices = []
        for c, name in self.languages.items():
            pitch, fallback = self.trs[c].lookup("common", "Rules and score sheets")
            choices.append({"code": c, "name": name, "href": f"{c}/index.html", "pitch": None if fallback else pitch,
                            "draft": self.trs[c].config.draft})
        names = [model_text(tr, g, self.prep.models[g].model.name, self.prep.values[g]) for g in self.games]
        common = self._common(code, "index.html", "website")
        html = self._render("site/chooser.html.j2", code, **common, choices=choices, game_names=names,
                            alternates=self._alternates("index.html", ""), font_set=CHOOSER)
        return Page(html, CHOOSER, code)

    def _games(self, code: str) -> list[dict]:
        tr = self.trs[code]
        out = []
        for g in self.games:
            model, values = self.prep.models[g].model, self.prep.values[g]
            out.append({"id": g, "name": model_text(tr, g, model.name, values),
                        "tagline": model_text(tr, g, model.tagline, values),
                        "downloads": self.downloads.get((code, g), [])})
        return out

    def locale_index(self, code: str) -> Page:
        common = self._common(code, f"{code}/index.html", "website")
        html = self._render("site/locale.html.j2", code, **common, games=self._games(code), draft=self.trs[code].config.draft,
                            languages=self._switcher(code, "index.html"),
                            alternates=self._alternates("index.html", ""), font_set=code)
        return Page(html, code, code)

    def game_page(self, code: str, game: str) -> Page:
        tr = self.trs[code]
        model, values = self.prep.models[game].model, self.prep.values[game]
        before = len(tr.misses)
        sections = rulebook_sections(self.prep, game, tr)
        name = model_text(tr, game, model.name, values)
        tagline = model_text(tr, game, model.tagline, values)
        fallback = len(tr.misses) > before
        common = self._common(code, f"{code}/{game}/index.html", "article")
        html = self._render("site/game.html.j2", code, **common, game=game, game_name=name, tagline=tagline,
                            sections=sections, fallback=fallback, downloads=self.downloads.get((code, game), []),
                            languages=self._switcher(code, f"{game}/index.html"), published=self.lastmod[game],
                            alternates=self._alternates(f"{game}/index.html", f"{self.x_default}/{game}/"),
                            font_set=code)
        return Page(html, code, code)


def rulebook_sections(prep, game: str, tr: Translator) -> list[SectionView]:
    """The rulebook's sections and worked examples, exactly as the print rulebook has them."""
    return html_sections(prep.editions[game], tr)


def _sitemap(pages: dict[str, Page], base_url: str, lastmod: dict) -> str:
    """Every page with its language alternates (sitemaps.org plus xhtml:link, as search engines read it)."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">']
    by_target: dict[str, list[str]] = {}
    for path in pages:
        if path != "index.html":
            code, _, target = path.partition("/")
            by_target.setdefault(target, []).append(code)
    for path in pages:
        url = base_url + path.removesuffix("index.html")
        lines.append(f"  <url><loc>{xml_escape(url)}</loc>")
        game = path.split("/")[1] if path.count("/") == 2 else None
        if lastmod.get(game):
            lines.append(f"    <lastmod>{lastmod[game]}</lastmod>")
        if path != "index.html":
            target = path.partition("/")[2]
            for code in by_target[target]:
                alt = base_url + f"{code}/{target}".removesuffix("index.html")
                lines.append(f'    <xhtml:link rel="alternate" hreflang="{code}" href="{xml_escape(alt)}"/>')
        lines.append("  </url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"
