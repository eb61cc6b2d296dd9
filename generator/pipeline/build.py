"""The build orchestrator: plan, check everything, render in memory, then write output/ atomically."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from generator import PROJECT_DIR
from generator.core import cache, lifecycle
from generator.render import budget
from generator.output import folder as output
from generator.core.registry import GAMES, Ref
from generator.core.errors import CheckFailed, InputError, Problem
from generator.core.paths import LOCALES_DIR, check_locales, default_output, discover_locales
from generator.edition.sheets import SheetOptions

# The models, catalogs and templates (pydantic, Babel, Jinja, markdown-it) are imported where they
# are used, not here: a build that finds nothing changed only hashes its inputs, and is done
# before they would have finished loading.
if TYPE_CHECKING:
    from generator.edition.editions import Edition
    from generator.i18n.translate import Translator

FORMATS = ("html", "pdf")
PAPERS = ("a4", "letter")
#: Artifact kinds, and the games that have each (`--kinds`).
KINDS = {"rulebook": tuple(GAMES),
         **{sheet.kind: tuple(g for g, other in GAMES.items() if other.sheet(sheet.kind))
            for game in GAMES.values() for sheet in game.sheets}}


@dataclass(frozen=True)
class ImposedKind:
    """An artifact kind made from another kind's document by imposition; built only when asked for."""

    #: The kind whose document is laid out (and whose games have this kind).
    source: str
    #: (html, sheet paper, name, print CSS) -> (PDF, pages); generator.render.imposition, loaded when used.
    make: Ref
    #: A template of print CSS added to the source kind's (page margins at the half size).
    css: str


IMPOSED = {"booklet": ImposedKind("rulebook", Ref("generator.render.imposition:make_booklet"), "css/booklet.css"),
           "card-sheet": ImposedKind("quick-reference", Ref("generator.render.imposition:make_card_sheet"),
                                     "css/card-sheet.css")}
#: Kinds imposed from another kind's document (booklets, card sheets): PDF only, and built only when asked for.
KINDS.update({kind: KINDS.get(imposed.source, ()) for kind, imposed in IMPOSED.items()})
#: What a build makes when --kinds is not given.
DEFAULT_KINDS = tuple(k for k in KINDS if k not in IMPOSED)


@dataclass(frozen=True)
class Options:
    games: tuple[str, ...] = tuple(GAMES)
    #: Default: every locale of locales/ (a folder with a locale.toml).
    locales: tuple[str, ...] = field(default_factory=discover_locales)
    formats: tuple[str, ...] = FORMATS
    papers: tuple[str, ...] = PAPERS
    out: Path = field(default_factory=default_output)
    jobs: int = 0
    strict: bool = False
    games_dir: Path | None = None
    locales_dir: Path | None = None
    sheets: SheetOptions = field(default_factory=SheetOptions)
    #: Where the static site will be published, for canonical links, Open Graph URLs and the sitemap;
    #: empty: the site has relative links only and no sitemap.
    base_url: str = ""
    #: The static site's name (title, header, Open Graph site name): `site_name` of the project file or --site-name.
    site_name: str = "rulesheets"
    #: An image shown before the site's name in its header (--site-logo): SVG, PNG or WebP.
    site_logo: Path | None = None
    cache_dir: Path | None = None
    #: House rules by game: {"bunco": {"wipeout": True}}, from --rule and --house-rules.
    house_rules: dict = field(default_factory=dict)
    kinds: tuple[str, ...] = DEFAULT_KINDS
    #: PDFs for a print shop (--press): bleed, crop marks, PDF/X-4 (render/press.py).
    press: bool = False


@dataclass(frozen=True)
class Artifact:
    game: str
    locale: str
    kind: str
    format: str
    paper: str | None
    #: Scorepads come one per table: 1 is the head table.
    table: int | None = None

    @property
    def path(self) -> str:
        stem = self.kind if self.table is None else f"{self.kind}-table-{self.table}"
        stem = stem if self.paper is None else f"{stem}-{self.paper}"
        return f"{self.locale}/{self.game}/{stem}.{self.format}"


@dataclass
class Report:
    artifacts: list[dict] = field(default_factory=list)
    seconds: float = 0.0
    #: PDFs rendered by this build, and PDFs taken unchanged from the cache (or, for a no-op, every artifact).
    built: int = 0
    reused: int = 0
    #: Nothing changed since the last build into the same folder: nothing was written.
    noop: bool = False
    #: Seconds per stage (prepare, html, fonts, pdf, site, write), for `make bench`.
    stages: dict = field(default_factory=dict)


def _choose(values: tuple[str, ...], known: tuple[str, ...], what: str) -> None:
    for v in values:
        if v not in known:
            raise InputError(Problem("command line", None, f"unknown {what} '{v}' (known: {', '.join(known)})"))


def validate_options(opts: Options) -> None:
    locales = discover_locales(opts.locales_dir or LOCALES_DIR)
    for what, values, known in (("games", opts.games, GAMES), ("locales", opts.locales, locales),
                                ("formats", opts.formats, FORMATS), ("papers", opts.papers, PAPERS),
                                ("kinds", opts.kinds, KINDS)):
        if not values:  # `--formats ,` would build nothing and replace the output with an empty one
            raise InputError(Problem("command line", None, f"--{what} needs at least one of {', '.join(known)}"))
    _choose(opts.games, GAMES, "game")
    check_locales(opts.locales, opts.locales_dir or LOCALES_DIR)
    _choose(opts.kinds, tuple(KINDS), "kind")
    if not any(g in KINDS[k] for g in opts.games for k in opts.kinds):
        wanted = "; ".join(f"{k}: {', '.join(KINDS[k])}" for k in opts.kinds)
        raise InputError(Problem("command line", None, f"--kinds {' '.join(opts.kinds)}: none of the chosen games "
                                                       f"has that kind ({wanted})"))
    if "pdf" not in opts.formats and set(opts.kinds) <= set(IMPOSED):
        raise InputError(Problem("command line", None, f"--kinds {' '.join(opts.kinds)}: only made as PDF, "
                                                       f"but --formats is {' '.join(opts.formats)}"))
    _choose(opts.formats, FORMATS, "format")
    _choose(opts.papers, PAPERS, "paper")
    opts.sheets.validate()
    if not opts.site_name.strip() or len(opts.site_name) > 60 or any(c < " " for c in opts.site_name):
        raise InputError(Problem("command line", None, "--site-name must be 1 to 60 characters on one line, "
                                                       f"got '{opts.site_name}'"))
    if opts.site_logo is not None:
        from generator.site.builder import check_logo

        check_logo(opts.site_logo)
    if opts.press and "pdf" in opts.formats:
        from generator.render.press import missing_profile

        if missing_profile():
            raise InputError(Problem("--press", None, missing_profile()))
    if opts.base_url:
        problem = base_url_problem(opts.base_url)
        if problem:
            from generator.core.lifecycle import printable

            raise InputError(Problem("command line", None, f"--base-url {problem}, got '{printable(opts.base_url)}'"))


#: What a base URL may hold: letters, digits and the URL punctuation that needs no escaping in HTML or XML.
_URL_CHARS = re.compile(r"[][A-Za-z0-9._~:/@!$()*+,;=-]|%[0-9A-Fa-f]{2}")


def base_url_problem(url: str) -> str | None:
    """Why `url` cannot be the site's public address (None: it can): absolute http(s), a host, a path
    ending in '/', no query, fragment, space, control character or character that needs escaping."""
    from urllib.parse import urlsplit

    if re.sub(_URL_CHARS, "", url.replace("?", "").replace("#", "")):
        return "may hold only letters, digits and URL punctuation (no spaces, control characters, quotes, <, > or &)"
    if "?" in url or "#" in url:
        return "must not have a query (?...) or fragment (#...)"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises ValueError for a bad port)
    except ValueError:
        return "is not a valid address"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "must be an absolute http:// or https:// address"
    if not url.endswith("/"):
        return "must end in '/'"
    return None


@dataclass
class Prepared:
    """Everything checked and in memory, before a single byte is written."""

    editions: dict[str, Edition]
    translators: dict[str, Translator]

    @property
    def models(self):
        return {g: e.loaded for g, e in self.editions.items()}

    @property
    def values(self):
        return {g: e.values for g, e in self.editions.items()}


def prepare(opts: Options) -> Prepared:
    """Read and check every input: models, examples, catalogs. Raises InputError or CheckFailed."""
    from generator.edition.editions import check_editions, make_edition
    from generator.model.examples import input_problems
    from generator.i18n.translate import COMMON_DOMAIN, load_translator
    from generator.model.loader import load_models, standard_values

    validate_options(opts)
    unknown = sorted(set(opts.house_rules) - set(GAMES))
    if unknown:
        raise InputError(Problem("--rule", None, f"unknown game '{unknown[0]}' (known: {', '.join(GAMES)})"))
    models = load_models(opts.games, opts.games_dir)
    problems = [p for m in models.values() for p in input_problems(m, standard_values(m.model))]
    if problems:
        raise InputError(problems)
    editions = {game: make_edition(loaded, opts.house_rules.get(game, {})) for game, loaded in models.items()}
    check_editions(editions)
    domains = tuple(opts.games) + (COMMON_DOMAIN,)
    kwargs = {"locales_dir": opts.locales_dir} if opts.locales_dir else {}
    translators, problems = {}, []
    for code in opts.locales:
        try:
            translators[code] = load_translator(code, domains, **kwargs)
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(problems)
    from babel.numbers import get_currency_precision

    for tr in translators.values():
        currency = opts.sheets.currency or tr.config.currency
        stake = opts.sheets.stake if opts.sheets.stake is not None else tr.config.stake
        exponent = -stake.normalize().as_tuple().exponent
        if exponent > get_currency_precision(currency):
            raise InputError(Problem("command line", None, f"--stake {stake} has more decimals than {currency} uses"))
    return Prepared(editions, translators)


def render_html(prep: Prepared, opts: Options) -> dict[tuple[str, str, str, int | None], str]:
    """Every HTML document, keyed by (game, locale, kind, table); strict mode refuses English fallbacks."""
    from generator.i18n.translate import fallback_problems
    from generator.render.html import render_rulebook

    docs = {}
    so = opts.sheets
    for code, tr in prep.translators.items():
        for game, edition in prep.editions.items():
            # An imposed kind (a booklet) is made from the document of its source kind (the rulebook).
            wanted = set(opts.kinds) | {IMPOSED[k].source for k in opts.kinds if k in IMPOSED}
            if "rulebook" in wanted:  # the one costly document; other kinds left out are cheap to skip
                docs[(game, code, "rulebook", None)] = render_rulebook(edition, tr)
            for sheet in edition.game.sheets:
                if sheet.kind not in wanted:
                    continue
                for table in range(so.tables) if sheet.per_table else (None,):
                    key = (game, code, sheet.kind, None if table is None else table + 1)
                    docs[key] = sheet.html(edition, tr, so, table)
            for kind, imposed in IMPOSED.items():
                for key in [k for k in docs if k[:3] == (game, code, imposed.source)]:
                    if kind in opts.kinds:
                        docs[(game, code, kind, key[3])] = docs[key]
            for key in [k for k in docs if k[:2] == (game, code) and k[2] not in opts.kinds]:
                del docs[key]  # a source document made only for an imposed kind
    if opts.strict:
        problems = fallback_problems(prep.translators, locales_dir=opts.locales_dir)
        if problems:
            raise CheckFailed(problems)
    return docs


def _pdf_job(group):
    """Render a group of (html, paper, name, print CSS, kind, fit start, press) jobs in one worker, in order.

    A card's papers are one group: the second starts its type-size search from the first's result.
    Returns, per job, ((PDF, pages), fitted type size or None, seconds).
    """
    from generator.render import pdf

    out, previous = [], None
    for html, paper, name, print_css, kind, start, for_press in group:
        began = time.process_time()
        start = start if start is not None else previous
        with budget.limits(name):
            make = IMPOSED[kind].make.resolve() if kind in IMPOSED else pdf.html_to_pdf
            result = make(html, paper, name, print_css, fit_start=start, for_press=for_press)
        previous = pdf.fitted.get(name)
        out.append((result, previous, time.process_time() - began))
    return out


def _options_key(opts: Options) -> dict:
    return {"games": opts.games, "locales": opts.locales, "kinds": opts.kinds, "formats": opts.formats,
            "papers": opts.papers, "strict": opts.strict, "press": opts.press, "sheets": opts.sheets, "base_url": opts.base_url,
            "site_name": opts.site_name,
            "site_logo": hashlib.sha256(opts.site_logo.read_bytes()).hexdigest() if opts.site_logo else None,
            "house_rules": {g: sorted(r.items()) for g, r in sorted(opts.house_rules.items())}}


def build(opts: Options, progress=None, on_plan=None) -> Report:
    """Plan, prepare, render and write; output/ is replaced only when everything succeeded.

    Nothing is done when no input changed since the last build into the same folder; otherwise
    only PDFs whose HTML (or paper, fonts, library versions) changed are rendered again.
    """
    start = time.perf_counter()
    validate_options(opts)
    out = output.check_target(opts.out)
    with output.locked(out, output.shown(opts.out)):
        return _build(opts, out, start, progress, on_plan)


def _build(opts: Options, out: Path, start: float, progress, on_plan) -> Report:
    """The build itself, holding the output's lock."""
    key = cache.input_key(_options_key(opts), opts.games_dir, opts.locales_dir)
    previous = output.unchanged(out, key)
    if previous is not None:
        return Report(previous, seconds=time.perf_counter() - start, reused=len(previous), noop=True)
    kit = output.kit_files(out)  # kits in kit/ are kept: read (and refused if odd) before any work
    from generator.render.script import for_print

    stages: dict[str, float] = {}
    mark = time.perf_counter()

    def stage(name: str) -> None:
        nonlocal mark
        now = time.perf_counter()
        stages[name] = stages.get(name, 0.0) + now - mark
        mark = now

    prep = prepare(opts)
    from generator.fonts import font_problems

    missing_fonts = font_problems(prep.translators.values())  # one line per font, not per missing glyph
    if missing_fonts:
        raise CheckFailed(missing_fonts)
    stage("prepare")
    docs = render_html(prep, opts)
    stage("html")
    files: dict[str, bytes] = {}
    entries: list[dict] = []
    pdf_jobs = []
    print_css = print_stylesheets(prep, docs) if "pdf" in opts.formats else {}
    stage("fonts")
    for (game, code, kind, table), html in sorted(docs.items(), key=lambda kv: tuple(map(str, kv[0]))):
        if "html" in opts.formats and kind not in IMPOSED:
            art = Artifact(game, code, kind, "html", None, table)
            files[art.path] = html.encode("utf-8")
            entries.append(_entry(art, files[art.path], None, prep.editions[game].changed))
        if "pdf" in opts.formats:
            html = for_print(html, code)
            for paper in opts.papers:
                art = Artifact(game, code, kind, "pdf", paper, table)
                extra = print_css[(game, code, kind, table)]
                # An imposed kind's key names it: the same HTML makes a rulebook and a booklet.
                how = f"{kind}:{paper}" if kind in IMPOSED else paper
                how += ":press" if opts.press else ""
                pdf_jobs.append((art, html, paper, cache.pdf_key(html + extra, how), extra))
    pdfs = cache.PdfCache(opts.cache_dir) if opts.cache_dir else cache.PdfCache()
    results: dict[str, tuple[bytes, int]] = {}
    todo, planned = [], set()
    for art, html, paper, k, extra in pdf_jobs:
        hit = pdfs.get(k)
        if hit is not None:
            results[k] = hit
        elif k not in planned:  # identical documents (same HTML and paper) are rendered once
            planned.add(k)
            todo.append((art, html, paper, k, extra))
    if on_plan:
        on_plan(len(todo))
    hints = cache.FitHints(opts.cache_dir) if opts.cache_dir else cache.FitHints()
    groups = _job_groups(todo, hints)
    workers = opts.jobs or os.cpu_count() or 1

    def done(i: int, group_result: list) -> None:
        for (art, _, _, k, _), (result, size, seconds) in zip(groups[i], group_result):
            # Cached at once: a build killed half-way keeps the work it finished.
            results[k] = result
            pdfs.put(k, *result)
            hints.record(art.path, size, seconds)
            if progress:
                progress(art.path)

    _run_pdf_jobs([[(html, paper, art.path, extra, art.kind, hints.size(art.path), opts.press)
                    for art, html, paper, _, extra in group] for group in groups], workers, done)
    hints.save()
    stage("pdf")
    for art, _, _, k, _ in pdf_jobs:
        data, pages = results[k]
        files[art.path] = data
        entries.append(_entry(art, data, pages, prep.editions[art.game].changed))
    full = is_full(opts)
    # Artifacts of the previous output this build does not make (other locales, formats, papers).
    carried = output.previous_artifacts(out, {e["path"] for e in entries})
    everything = entries + [e for e, _ in carried.values()]
    files.update({path: data for path, (_, data) in carried.items()})
    # A build of some games, locales or kinds keeps the site of the last full build; without one
    # (a new folder, or a site edited since), the site shows what this build has, if it has rulebooks.
    kept_site = None if full else output.previous_folder(out, "site")
    if kept_site is not None:
        files.update(kept_site)
    elif full or "rulebook" in opts.kinds:
        # The static site links to the PDFs, so it is made last, from the finished entries
        # (with the carried-over PDFs: a build of HTML only keeps the site's downloads);
        # unchanged inputs and PDFs give the same site, taken from the cache (sitecache).
        from generator.site import cache as sitecache

        skey = sitecache.site_key(key, everything)
        site = sitecache.get(skey, files)
        if site is None:
            from generator.site.builder import render_site  # imported only here: a one-sheet build has no use for the web fonts

            site = render_site(prep, docs, everything, opts, files=files)
            sitecache.put(skey, site, files)
        files.update(site)
    stage("site")
    output.write_output(out, output.shown(opts.out), files, everything, key=None if carried else key, kit=kit)
    if full and set(opts.papers) == set(PAPERS) and "pdf" in opts.formats:
        pdfs.prune({job[3] for job in pdf_jobs})  # a full build knows every PDF still wanted
    stage("write")
    return Report(entries, seconds=time.perf_counter() - start, built=len(todo),
                  reused=len(pdf_jobs) - len(todo), stages=stages)


def is_full(opts: Options) -> bool:
    """Every game, locale and kind: only such a build makes the static site (a partial one keeps the last)."""
    return (set(opts.games) == set(GAMES) and set(DEFAULT_KINDS) <= set(opts.kinds)
            and set(opts.locales) == set(discover_locales(opts.locales_dir or LOCALES_DIR)))


def print_stylesheets(prep: Prepared, docs: dict) -> dict:
    """The CSS WeasyPrint gets beside each document: page furniture, and the locale's cut-down fonts."""
    from generator.render.html import environment, print_stylesheet
    from generator.fonts.pdf import print_css as cut_fonts_css

    fonts = {code: cut_fonts_css(tr.config.fonts, [h for k, h in docs.items() if k[1] == code])
             for code, tr in prep.translators.items()}
    def furniture(tr, kind: str) -> str:
        # An imposed kind is laid out as its source kind is (the booklet's pages are the rulebook's), at half size.
        if kind not in IMPOSED:
            return print_stylesheet(tr, kind)
        return print_stylesheet(tr, IMPOSED[kind].source) + "\n" + environment().get_template(IMPOSED[kind].css).render()

    return {key: "\n".join(filter(None, [furniture(prep.translators[key[1]], key[2]), fonts[key[1]]])) for key in docs}


def _job_groups(todo: list, hints) -> list[list]:
    """The PDFs to render as groups for the workers, costliest first, so that no worker is left alone at the end.

    A fitted card's papers form one group (the second paper starts from the first's type size); every
    other PDF is a group of its own. The cost of a group is what its PDFs took last time (FitHints),
    else an estimate: the HTML's length, times the layouts a fitted card takes.
    """
    from generator.render.fit import wants_fit

    groups: dict[tuple, list] = {}
    for job in todo:
        art, html = job[0], job[1]
        fitted = wants_fit(html)
        key = (art.game, art.locale, art.kind, art.table) if fitted else (art.path,)
        groups.setdefault(key, []).append(job)

    def cost(group: list) -> float:
        return sum(hints.seconds(job[0].path) or len(job[1]) * (3 if wants_fit(job[1]) else 1) / 20000
                   for job in group)

    return sorted(groups.values(), key=lambda g: (-cost(g), g[0][0].path))


def _run_pdf_jobs(jobs: list, workers: int, done) -> list:
    """Render groups of PDF jobs (see `_pdf_job`); `done(i, results)` is called as each group finishes, in order."""
    out = []
    # Even with one worker, a full build renders in a child process: WeasyPrint's heap (about
    # 130 MB after a hundred documents) then never adds to the site stage's peak in this one.
    # Two jobs or fewer are rendered here: a pool would cost more than it saves.
    pooled = len(jobs) > 2
    if pooled:
        from generator.render.pdf import preload

        preload()  # WeasyPrint, its fonts and stylesheets parser loaded once, before the workers fork
    with lifecycle.worker_pool(min(workers, len(jobs))) if pooled else contextlib.nullcontext() as pool:
        results = map(_pdf_job, jobs) if pool is None else pool.map(_pdf_job, jobs, chunksize=1)
        for i, result in enumerate(lifecycle.checked(results)):
            out.append(result)
            done(i, result)
    return out


def _entry(art: Artifact, data: bytes, pages: int | None, rules: dict | None = None) -> dict:
    entry = {"game": art.game, "locale": art.locale, "kind": art.kind, "format": art.format}
    if art.format == "pdf":
        entry["paper"] = art.paper
    if art.table is not None:
        entry["table"] = art.table
    entry["path"] = art.path
    entry["sha256"] = hashlib.sha256(data).hexdigest()
    if art.format == "pdf":
        entry["pages"] = pages
    if rules:  # house rules that differ from the standard ones
        from generator.edition.editions import json_value

        entry["rules"] = {k: json_value(v) for k, v in rules.items()}
    return entry


def check(opts: Options) -> Prepared:
    """Everything a build checks, without writing: models, examples, catalogs, fonts."""
    prep = prepare(opts)
    render_html(prep, opts)
    from generator.fonts import font_problems

    from generator.i18n.translate import glossary_problems

    bad = [p for code in prep.translators
           for p in glossary_problems(code, **({"locales_dir": opts.locales_dir} if opts.locales_dir else {}))]
    if bad:
        raise InputError(bad)
    problems = font_problems(prep.translators.values())
    if problems:
        raise CheckFailed(problems)
    return prep
