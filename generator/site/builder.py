"""Static rules site under output/site/: language chooser, one page per locale and game, search, sitemap, web fonts."""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path
from urllib.parse import urlsplit
from concurrent.futures import Future
from dataclasses import dataclass
from xml.sax.saxutils import escape as xml_escape

from babel.core import get_global
from babel.units import format_unit
from markupsafe import Markup

from generator.core.registry import GAMES
from generator.fonts import web as webfonts
from generator.fonts.fallback import WAIT_MS, needs_wait
from generator.core.errors import CheckFailed, InputError, Problem
from generator.i18n.translate import (DIGITS, LOCALES_DIR, SOURCE_LOCALE, Translator, babel_locale, discover_locales, fallback_problems)
from generator.core.paths import TEMPLATES_DIR
from generator.site.search import page_entries, search_script
from generator.site import table as keeper
from generator.render.html import SectionView, environment, locale_globals, model_text
from generator.render.html import rulebook_sections as html_sections

SITE = "site"
#: Files copied into the site as they are: the one script (search, language switch, suggestion) and the icon.
STATIC_DIR = TEMPLATES_DIR / "site" / "static"
STATIC_FILES = ("site.js", "favicon.svg")
#: Fonts a class asks for whatever the language: mirrors `.card .suit` in templates/css/base.css.
CLASS_FONTS = {"suit": ("DejaVu Sans",)}
#: The language chooser's own font set (the locales' sets are named after the locale).
CHOOSER = "index"
#: Strings the site takes from another locale's catalog than the page's (a language's own words for
#: itself); `rulesheets i18n extract` adds them to the common catalog.
SITE_TEXT = ("draft translation", "The language of your browser")
SITE_PLURALS = (("{count} section found", "{count} sections found"),)
#: The search box placeholder's msgctxt (templates/site/base.html.j2).
SEARCH_CONTEXT = "search box placeholder"
#: A site logo (--site-logo): the kinds a browser shows in an <img>, and how big it may be.
LOGO_TYPES = {".svg": b"<", ".png": b"\x89PNG\r\n\x1a\n", ".webp": b"RIFF"}
LOGO_MAX_BYTES = 200_000


def at_host_root(base_url: str) -> bool:
    """Whether the site is published at a host's root (https://host/), the one place crawlers read robots.txt."""
    return bool(base_url) and urlsplit(base_url).path in ("", "/")


def check_logo(path: Path, where: str | None = None, line: int | None = None, what: str = "--site-logo") -> bytes:
    """The logo's bytes; a missing, unknown or oversized file is one line naming it.

    `where` and `line` place the problem elsewhere (the project file's `site_logo` line), and `what` then names
    the key and the path as written there.
    """
    name = what
    where = str(path) if where is None else where
    kind = path.suffix.lower()
    if kind not in LOGO_TYPES:
        raise InputError(Problem(where, line, f"{name} must be an .svg, .png or .webp image, not '{path.suffix or path.name}'"))
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(Problem(where, line, f"cannot read {name}: {exc.strerror}")) from None
    if len(data) > LOGO_MAX_BYTES:
        raise InputError(Problem(where, line, f"{name} is {len(data)} bytes; at most {LOGO_MAX_BYTES} (a small header image)"))
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n") if kind == ".svg" else data
    if not head.startswith(LOGO_TYPES[kind]) or (kind == ".svg" and b"<svg" not in data[:4096]):
        raise InputError(Problem(where, line, f"{name} is not a {kind[1:].upper()} image"))
    return data


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
    #: The sheet's title (a msgid of `domain`, its game's catalog); "" for the rulebook.
    title: str = ""
    #: Made once per table (a scorepad): its label names the table.
    per_table: bool = False
    domain: str = ""
    #: A per-table sheet's table, named by its own game (`Sheet.label_table`); "" otherwise.
    table_label: str = ""


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
    base_url = getattr(opts, "base_url", "") or ""
    if base_url and not base_url.endswith("/"):
        base_url += "/"
    every = discover_locales(getattr(opts, "locales_dir", None) or LOCALES_DIR)
    trs = {code: prep.translators[code] for code in every if code in prep.translators}
    games = [g for g in GAMES if g in prep.models]
    misses_before = {code: len(tr.misses) for code, tr in trs.items()}
    out: dict[str, bytes] = {}
    downloads = _downloads(entries, files or {}, trs, out)
    languages = {code: _native_name(code) for code in trs}
    pages: dict[str, Page] = {}
    logo = getattr(opts, "site_logo", None)
    logo_name = f"logo{logo.suffix.lower()}" if logo else None
    ctx = _Context(prep, trs, games, languages, downloads, base_url, getattr(opts, "site_name", "rulesheets"), logo_name)
    stacks = font_stacks(trs)
    plans: dict[str, dict[str, frozenset[str]]] = {}
    jobs = getattr(opts, "jobs", 0) or os.cpu_count() or 1
    with webfonts.Subsets(jobs, cache_dir=webfonts.CACHE_DIR) as subsets:
        # Pages are made here; the workers read each page's text (for its fonts and the search
        # index) as soon as it is made, then cut each page set's fonts as soon as its plan is known.
        scans: dict[str, Future] = {}

        def made(path: str, page: Page, search: bool = False) -> None:
            pages[path] = page
            scans[path] = subsets.submit(scan_page, path if search else None, page.html, stacks)

        def plan(code: str) -> None:
            """The locale's search index and font plan, from its pages' scans; its fonts start at once."""
            found = [e for game in games for page in ("index.html", keeper.PAGE) if f"{code}/{game}/{page}" in scans
                     for e in scans[f"{code}/{game}/{page}"].result()[1]]
            ctx.search_scripts[code] = ctx.search_script(code, found)
            plans[code] = _plan_fonts(code, pages, scans, trs, stacks, ctx.scripted_text(code))
            subsets.add(plans[code])

        made("index.html", ctx.chooser())
        made("404.html", ctx.not_found())
        codes = list(trs)
        for i, code in enumerate(codes):
            for game in games:
                made(f"{code}/{game}/index.html", ctx.game_page(code, game), search=True)
                if keeper.has_table(game):
                    made(f"{code}/{game}/{keeper.PAGE}", ctx.table_page(code, game), search=True)
            made(f"{code}/index.html", ctx.locale_index(code))
            # One locale behind: the scans of the locale before this one are done by now.
            if i == 0:
                plans[CHOOSER] = _plan_fonts(CHOOSER, pages, scans, trs, stacks, "")
                subsets.add(plans[CHOOSER])
            else:
                plan(codes[i - 1])
        if codes:
            plan(codes[-1])
        if getattr(opts, "strict", False):
            # A site string shown in English fails --strict, as a rulebook string does.
            problems = fallback_problems(trs, since=misses_before, locales_dir=getattr(opts, "locales_dir", None))
            if problems:
                raise CheckFailed(problems)
        made = subsets.done()
    out.update(_web_fonts(plans, made, full=set(trs) == set(every) and set(games) == set(GAMES),
                          waiting={code: wait["family"] for code, wait in ctx.font_waits.items()}))
    from generator.fonts.fallback import fallback_names

    fallbacks = {f: fallback_names(f) for fonts in stacks.values() for f in fonts}
    css = environment().get_template("site/style.css.j2").render(stacks=stacks, font_stack=Markup("sans-serif"),
                                                              games=sorted(GAMES), fallbacks=fallbacks)
    out[f"{SITE}/style.css"] = css.encode("utf-8")
    for path, page in pages.items():
        out[f"{SITE}/{path}"] = page.html.encode("utf-8")
    for code, script in ctx.search_scripts.items():
        out[f"{SITE}/search/{code}.js"] = script.encode("utf-8")
    for name in STATIC_FILES:
        out[f"{SITE}/{name}"] = (STATIC_DIR / name).read_bytes()
    out.update({f"{SITE}/{path}": data for path, data in keeper.table_assets(games).items()})
    if logo_name:
        out[f"{SITE}/{logo_name}"] = check_logo(logo)
    if base_url:
        # Without a public address there is nothing true to write: sitemaps need absolute URLs.
        listed = {p: pg for p, pg in pages.items() if p != "404.html" and p.split("/")[0] not in ctx.drafts}
        out[f"{SITE}/sitemap.xml"] = _sitemap(listed, base_url, ctx.lastmod, ctx.x_default).encode("utf-8")
    if at_host_root(base_url):
        # Crawlers read robots.txt at the host's root only: anywhere else it would be a file nobody reads
        # (the build says so and names the line to add to the host's own).
        out[f"{SITE}/robots.txt"] = f"User-agent: *\nAllow: /\n\nSitemap: {base_url}sitemap.xml\n".encode("utf-8")
    return dict(sorted(out.items()))


def scan_page(search_path: str | None, html: str, stacks: dict[str, tuple[str, ...]]) -> tuple[dict, list]:
    """A page's text by font stack, and its search entries when it is a rulebook page (a worker's job)."""
    return (webfonts.text_by_stack(html, stacks, CLASS_FONTS),
            page_entries(search_path, html) if search_path is not None else [])


def _plan_fonts(font_set: str, pages: dict[str, Page], scans: dict[str, Future], trs: dict[str, Translator],
                stacks: dict[str, tuple[str, ...]], scripted: str) -> dict[str, frozenset[str]]:
    """Which characters each family must draw in one font set (the chooser's, or a locale's).

    `scripted` is text the set's pages show that is in no page's text: what site.js writes into the
    search results (counts, "nothing found"), and the search box's placeholder.
    """
    texts = [scans[path].result()[0] for path, p in pages.items() if p.font_set == font_set]
    main = pages["index.html"].lang if font_set == CHOOSER else font_set
    native = DIGITS[trs[main].config.digits]  # list numbers and later edits may use any digit
    return webfonts.plan_set(font_set, texts, stacks, main, extra=native + scripted)


def _web_fonts(plans: dict[str, dict[str, frozenset[str]]], subsets: dict[tuple[str, int, frozenset[str]], bytes],
               full: bool, waiting: dict[str, str]) -> dict[str, bytes]:
    """fonts/<set>.css and the WOFF2 subsets it names, for the chooser and each locale.

    `waiting`: the family each locale's pages wait for (_Context.font_waits); its set declares it `font-display: block`.
    """
    if full:
        webfonts.prune_cache(subsets, webfonts.CACHE_DIR)  # a full build knows every subset still wanted
    out = {}
    for font_set, plan in plans.items():
        fonts = webfonts.choose_faces(plan, subsets)
        for f in fonts:
            out[f"{SITE}/fonts/{f.filename}"] = f.data
        out[f"{SITE}/fonts/{font_set}.css"] = webfonts.font_face_css(fonts, block=waiting.get(font_set)).encode("utf-8")
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
            kv[0][0], kv[0][1], _download_order(kv[0][1], kv[0][2]), kv[0][3] or 0)):
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
        sheet = GAMES[game].sheet(kind)
        per_table = bool(sheet and sheet.per_table)
        label = sheet.label_table(trs[code], (table or 1) - 1, tables or 1) if per_table else ""
        result.setdefault((code, game), []).append(
            Download(kind, table, tables, tuple(links), sheet.title if sheet else "", per_table, game, label))
    return result


def _download_order(game: str, kind: str) -> int:
    """The rulebook and its booklet first, then the quick-reference card and its card sheet, then the game's
    sheets in the order it declares them."""
    first = ("rulebook", "booklet", "quick-reference", "card-sheet")
    if kind in first:
        return first.index(kind)
    kinds = [s.kind for s in GAMES[game].sheets if s.kind not in first]
    return len(first) + kinds.index(kind) if kind in kinds else 99


class _Context:
    """What every page template needs: links between pages, alternates, the locale's globals."""

    def __init__(self, prep, trs, games, languages, downloads, base_url, site_name="rulesheets", logo=None):
        self.prep, self.trs, self.games = prep, trs, games
        self.languages, self.downloads, self.base_url = languages, downloads, base_url
        #: The site's name (project file `site_name`, --site-name); every page's context has it.
        self.site_name = site_name
        #: The logo's file name at the site's root (--site-logo), or None.
        self.logo = logo
        dates = [prep.models[g].model.published for g in games]
        self.lastmod = {g: prep.models[g].model.published.isoformat() for g in games}
        self.lastmod[None] = max(dates).isoformat() if dates else None
        self.x_default = SOURCE_LOCALE if SOURCE_LOCALE in trs else next(iter(trs))
        #: Locales whose locale.toml says status = "draft": marked on every page, kept out of the sitemap.
        self.drafts = {c for c, tr in trs.items() if getattr(tr.config, "status", "complete") == "draft"}
        self.search_scripts: dict[str, str] = {}
        #: Locales whose letters no metric-matched local face can stand in for (fallback.needs_wait): their pages
        #: stay hidden until the locale's first font is ready (at most WAIT_MS), as font-display: block would.
        self.font_waits = {c: {"family": tr.config.fonts[0], "ms": WAIT_MS,
                               "fonts": [f'{w} 1em "{tr.config.fonts[0]}"' for w in (400, 700)], "sample": letter}
                           for c, tr in trs.items() for letter in [_native_name(c)[0]] if needs_wait(letter)}

    def _draft_badge(self, code: str) -> dict | None:
        """"draft translation" in the draft's own words, or in English (marked so) while it has none."""
        if code not in self.drafts:
            return None
        text = self._text(code, "draft translation")
        return {"text": text, "lang": code} if text else {"text": "draft translation", "lang": SOURCE_LOCALE}

    def _text(self, code: str, msgid: str, context: str | None = None) -> str | None:
        """A common string in the locale's own words, or None when the locale lacks it (no English inside)."""
        text, fallback = self.trs[code].lookup("common", msgid, context=context)
        return None if fallback else text

    def _common(self, code: str, path: str, og_type: str) -> dict:
        """Head and link context; each template sets its own title and description (so they are extracted)."""
        url_path = path[: -len("index.html")] if path.endswith("index.html") else path
        here = posixpath.dirname(path) or "."

        def url(target: str) -> str:
            """A link from this page to target (a path under site/), relative so the site works from disk."""
            return posixpath.relpath(target, here)

        page_lang = None if path in ("index.html", "404.html") else code
        return {
            "url": url, "lang": code, "site_name": self.site_name, "logo": self.logo,
            "canonical": self.base_url + url_path if self.base_url and path != "404.html" else None,
            # The brand link leads to the locale's own index (the chooser links to itself).
            "home": "index.html" if page_lang is None else f"{code}/index.html",
            "og_type": og_type, "og_locale": og_locale(code),
            "og_alternates": [og_locale(c) for c in self.trs if c != code],
            "digits": self.trs[code].config.digits,
            "draft": page_lang in self.drafts, "noindex": page_lang in self.drafts or path == "404.html",
            "search": None, "alternates": [],
            # 404.html is served at whatever address was missing, at any depth: on the host its relative
            # links resolve against the base URL (a <base> its first script adds), from disk against itself.
            # Only the base URL's path: on another host (a staging copy, a local server) the style and links
            # come from that host, not from the production address.
            "base_href": urlsplit(self.base_url).path if path == "404.html" and self.base_url else None,
            "font_wait": self.font_waits.get(code) if page_lang else None,
        }

    def _switcher(self, code: str, target: str) -> list[dict]:
        """Links to the same page in every built locale; target is a path under the locale folder."""
        return [{"code": c, "name": name, "href": f"{c}/{target}", "current": c == code,
                 "draft": self._draft_badge(c)}
                for c, name in self.languages.items()]

    def _alternates(self, here: str, target: str, x_default: str) -> list[dict]:
        """hreflang links to target in every finished locale; x-default is the chooser for locale indexes, else English.

        Absolute with a base URL, as search engines want them; relative without one (never a made-up host).
        """
        def href(path: str) -> str:
            if self.base_url:
                return self.base_url + path.removesuffix("index.html")
            return posixpath.relpath(path, posixpath.dirname(here) or ".")

        alts = [{"hreflang": c, "href": href(f"{c}/{target}")} for c in self.trs if c not in self.drafts]
        return alts + [{"hreflang": "x-default", "href": href(x_default or "index.html")}]

    def _render(self, template: str, code: str, **context) -> str:
        return environment().get_template(template).render(**locale_globals(self.trs[code]), **context)

    def _choices(self, keys: tuple[str, ...]) -> list[dict]:
        """Each locale named in itself, with its own words for the keys asked (pitch, suggest, not_found, draft)."""
        msgids = {"pitch": "Rules and score sheets", "suggest": "The language of your browser",
                  "not_found": "This page does not exist. Choose a language to find the rules."}
        out = []
        for c, name in self.languages.items():
            choice = {"code": c, "name": name, "href": f"{c}/index.html",
                      "draft": self._draft_badge(c)}
            choice.update({k: self._text(c, msgids[k]) for k in keys})
            out.append(choice)
        return out

    def chooser(self) -> Page:
        code = self.x_default
        tr = self.trs[code]
        names = [model_text(tr, g, self.prep.models[g].model.name, self.prep.values[g]) for g in self.games]
        common = self._common(code, "index.html", "website")
        common["alternates"] = self._alternates("index.html", "index.html", "")
        common["alternates"] = [{**a, "href": a["href"].removesuffix("index.html") or "./"} if self.base_url else a
                                for a in common["alternates"]]
        html = self._render("site/chooser.html.j2", code, **common, choices=self._choices(("pitch", "suggest")),
                            game_names=names, font_set=CHOOSER)
        return Page(html, CHOOSER, code)

    def not_found(self) -> Page:
        code = self.x_default
        common = self._common(code, "404.html", "website")
        html = self._render("site/404.html.j2", code, **common, choices=self._choices(("not_found",)), font_set=CHOOSER)
        return Page(html, CHOOSER, code)

    def _games(self, code: str) -> list[dict]:
        tr = self.trs[code]
        out = []
        for g in self.games:
            model, values = self.prep.models[g].model, self.prep.values[g]
            out.append({"id": g, "name": model_text(tr, g, model.name, values),
                        "tagline": model_text(tr, g, model.tagline, values), "table": keeper.has_table(g),
                        "downloads": self.downloads.get((code, g), [])})
        return out

    def search_script(self, code: str, entries: list[list[str]]) -> str:
        """search/<code>.js, with "N sections found" for every N it can show, in the locale's plurals and digits."""
        ngettext = locale_globals(self.trs[code])["ngettext"]
        return search_script(entries, lambda n: ngettext(
            "{count} section found", "{count} sections found", n, count=n).striptags())

    def locale_index(self, code: str) -> Page:
        common = self._common(code, f"{code}/index.html", "website")
        common["alternates"] = self._alternates(f"{code}/index.html", "index.html", "")
        common["search"] = True
        html = self._render("site/locale.html.j2", code, **common, games=self._games(code),
                            languages=self._switcher(code, "index.html"), font_set=code)
        return Page(html, code, code)

    def scripted_text(self, code: str) -> str:
        """Characters site.js may draw on the locale's pages that no page's text holds (see _plan_fonts)."""
        return "".join(filter(None, [self.search_scripts.get(code), self._text(code, "Search", SEARCH_CONTEXT),
                                     self._text(code, "Nothing found for “{query}”."), "…·“”«»"]))

    def game_page(self, code: str, game: str) -> Page:
        tr = self.trs[code]
        model, values = self.prep.models[game].model, self.prep.values[game]
        before = len(tr.misses)
        sections = rulebook_sections(self.prep, game, tr)
        name = model_text(tr, game, model.name, values)
        tagline = model_text(tr, game, model.tagline, values)
        fallback = len(tr.misses) > before
        path = f"{code}/{game}/index.html"
        common = self._common(code, path, "article")
        common["alternates"] = self._alternates(path, f"{game}/index.html", f"{self.x_default}/{game}/index.html")
        common["search"] = True
        html = self._render("site/game.html.j2", code, **common, game=game, game_name=name, tagline=tagline,
                            sections=sections, fallback=fallback, downloads=self.downloads.get((code, game), []),
                            languages=self._switcher(code, f"{game}/index.html"), published=self.lastmod[game],
                            font_set=code, table=keeper.has_table(game),
                            table_section=keeper.scoring_section(game))
        html = nowrap_sequences(html)
        return Page(html, code, code)

    def table_page(self, code: str, game: str) -> Page:
        """<code>/<game>/table.html: the game's score keeper (generator/site/table.py)."""
        path = f"{code}/{game}/{keeper.PAGE}"
        common = self._common(code, path, "website")
        common["alternates"] = self._alternates(path, f"{game}/{keeper.PAGE}", f"{self.x_default}/{game}/{keeper.PAGE}")
        common["search"] = True
        html = self._render(f"{game}/table.html.j2", code, **common, **keeper.page_context(self, code, game),
                            languages=self._switcher(code, f"{game}/{keeper.PAGE}"), font_set=code)
        return Page(html, code, code)


#: A card rank or die face: 2-10 and J Q K A in any of the site's digits (T is the engine's ten).
_RANK = re.compile(r"10|[2-9AKQJT]|[০-৯]{1,2}|[०-९]{1,2}")
#: Hyphen-joined short words: "Q-K-A", "A-2-3", and the names card tables use ("বিবি-সাহেব-টেক্কা",
#: "টেক্কা-২-৩"). A Korean particle stays with its run ("Q-K-A는").
_PART = r"[^\s\-<>&.,;:!?()\[\]/\"'“”«»।]{1,7}"
_SEQUENCE = re.compile(rf"(?<![^\s<>(“«]){_PART}(?:-{_PART})+(?![^\s<>.,;:!?)”»।])")
_MAIN = re.compile(r"(<main\b.*?</main>)", re.S)


def _run_of_cards(m: re.Match) -> str:
    """A span for a run of ranks (any part a rank, or three and more short words, up to six), else the text as it was."""
    parts = m.group(0).split("-")
    if len(parts) > 6:  # a whole card order (13 ranks) is wider than a phone: it may break at its hyphens
        return m.group(0)
    if any(_RANK.fullmatch(p) for p in parts) or len(parts) >= 3:
        return f'<span class="seq">{m.group(0)}</span>'
    return m.group(0)


def nowrap_sequences(html: str) -> str:
    """Keep "Q-K-A" and "2-3-4" whole: browsers may break after a hyphen, and a run split over two lines misreads.

    A no-wrap span rather than U+2011: it works whatever glyphs the fonts have. Only text between tags
    of <main> is touched, never attributes.
    """
    def text(m: re.Match) -> str:
        parts = re.split(r"(<[^>]*>)", m.group(1))
        return "".join(p if p.startswith("<") else _SEQUENCE.sub(_run_of_cards, p) for p in parts)

    return _MAIN.sub(text, html, count=1)


def rulebook_sections(prep, game: str, tr: Translator) -> list[SectionView]:
    """The rulebook's sections and worked examples, exactly as the print rulebook has them."""
    return html_sections(prep.editions[game], tr)


def _sitemap(pages: dict[str, Page], base_url: str, lastmod: dict, x_default: str) -> str:
    """Every page with its language alternates (sitemaps.org plus xhtml:link, as search engines read it).

    Each set of alternates ends with x-default, as the pages' own <link>s do: the language chooser for
    the locale indexes (the chooser is listed with that set), the x_default locale's page for a game page.
    """
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
        target = "index.html" if path == "index.html" else path.partition("/")[2]
        default = base_url if target == "index.html" else base_url + f"{x_default}/{target}".removesuffix("index.html")
        for code in by_target.get(target, []):
            alt = base_url + f"{code}/{target}".removesuffix("index.html")
            lines.append(f'    <xhtml:link rel="alternate" hreflang="{code}" href="{xml_escape(alt)}"/>')
        lines.append(f'    <xhtml:link rel="alternate" hreflang="x-default" href="{xml_escape(default)}"/>')
        lines.append("  </url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"
