"""The live preview's builder: everything in memory once, then only what a changed file touches is rebuilt.

A changed catalog reloads that locale's catalogs and re-renders that locale's documents of the games
it concerns; a changed model re-runs that game's examples and re-renders it in every locale; a changed
template re-renders every document. A PDF is rendered again only when its HTML (or print CSS) changed,
by warm worker processes, and files are written in place one by one (the preview folder is serve's own).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator.core import cache, lifecycle
from generator.pipeline.build import (Artifact, Options, Prepared, _entry, _pdf_job, prepare, print_stylesheets, render_html)
from generator.i18n.translate import COMMON_DOMAIN, LOCALES_DIR, discover_locales, load_translator
from generator.core.paths import GAMES_DIR, MODEL_FILE, TEMPLATES_DIR, game_folder
from generator.render.script import for_print

DocKey = tuple  # (game, locale, kind, table)


@dataclass
class Change:
    """What one batch of changed files means for the documents."""

    #: (game, locale) pairs whose documents must be rendered again.
    pairs: set[tuple[str, str]] = field(default_factory=set)
    #: Locales whose catalogs must be read again; those whose locale.toml changed; games whose model did.
    locales: set[str] = field(default_factory=set)
    settings: set[str] = field(default_factory=set)
    games: set[str] = field(default_factory=set)
    #: A locale folder appeared or went: start again from scratch.
    everything: bool = False

    def __bool__(self) -> bool:
        return bool(self.pairs or self.everything)

    def merge(self, other: Change) -> Change:
        return Change(self.pairs | other.pairs, self.locales | other.locales, self.settings | other.settings,
                      self.games | other.games, self.everything or other.everything)


def _write(path: Path, data: bytes) -> None:
    """Replace one file whole, so a browser or PDF viewer never reads half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


class Preview:
    """The preview folder's contents, kept in memory and brought up to date change by change."""

    def __init__(self, opts: Options, jobs: int = 2):
        self.opts = opts
        self.out = opts.out
        self.locales_dir = opts.locales_dir or LOCALES_DIR
        self.games_dir = opts.games_dir or GAMES_DIR
        self.pdfs = cache.PdfCache(opts.cache_dir) if opts.cache_dir else cache.PdfCache()
        # Warm workers that die with the server; they leave Ctrl-C, SIGTERM and SIGHUP to it.
        self.pool = lifecycle.pool(jobs) if jobs > 1 else None
        self.prep: Prepared | None = None
        self.docs: dict[DocKey, str] = {}
        self.pdf_keys: dict[str, str] = {}
        self.files: dict[str, bytes] = {}
        self.entries: dict[str, dict] = {}
        self.site_files: dict[str, bytes] = {}
        #: Serving every locale (none named): a locale added while serving joins the preview.
        self.every_locale = set(opts.locales) == set(discover_locales(self.locales_dir))
        #: What a failed rebuild left to do: retried with the next change.
        self.pending = Change()

    def close(self) -> None:
        if self.pool is not None:  # a rebuild may be running: its workers are killed, not awaited
            lifecycle.kill_pool(self.pool)
            self.pool = None

    # -- what a change touches ------------------------------------------------------------------
    def classify(self, paths: set[Path]) -> Change:
        change = Change()
        games, locales = self.opts.games, self.opts.locales
        folders = {game_folder(g): g for g in games}
        for path in paths:
            path = Path(path)
            if path.suffix == ".j2" or (path.is_relative_to(TEMPLATES_DIR) and path.suffix == ".css"):
                change.pairs |= {(g, c) for g in games for c in locales}
            elif path.name == MODEL_FILE and path.parent.parent == self.games_dir and path.parent.name in folders:
                game = folders[path.parent.name]
                change.games.add(game)
                change.pairs |= {(game, c) for c in locales}
            elif path.is_relative_to(self.locales_dir):
                parts = path.relative_to(self.locales_dir).parts
                code = parts[0] if len(parts) > 1 else None
                if path.name == "locale.toml" and (code in locales) != path.exists():
                    change.everything = True  # a locale was added or removed
                elif code in locales and (path.name == "locale.toml" or path.suffix == ".po"):
                    (change.settings if path.name == "locale.toml" else change.locales).add(code)
                    domain = path.stem
                    touched = games if path.name == "locale.toml" or domain == COMMON_DOMAIN else (domain,)
                    change.pairs |= {(g, code) for g in touched if g in games}
        return change

    # -- building -------------------------------------------------------------------------------
    def build_all(self) -> dict[str, float]:
        """The first build (and the one after a locale comes or goes): every document of the selection."""
        opts = self.opts
        if self.every_locale:
            opts = self.opts = replace(opts, locales=discover_locales(self.locales_dir))
        self.prep = prepare(opts)
        self.docs, self.pdf_keys, self.files, self.entries, self.site_files = {}, {}, {}, {}, {}
        return self._render({(g, c) for g in opts.games for c in opts.locales})

    def apply(self, change: Change) -> dict[str, float]:
        """Bring the folder up to date with a batch of changes; returns seconds per stage.

        A failed rebuild (a broken template, a bad catalog) raises and keeps its work pending,
        so the change that fixes it also redoes what the failure left out.
        """
        change = self.pending.merge(change)
        try:
            stages = self._apply(change)
        except BaseException:
            self.pending = change
            raise
        self.pending = Change()
        return stages

    def _apply(self, change: Change) -> dict[str, float]:
        if change.everything or self.prep is None:
            try:
                return self.build_all()
            except BaseException:
                self.prep = None  # half a first build is no base for small updates: start over next time
                raise
        if change.games:
            sub = prepare(replace(self.opts, games=tuple(sorted(change.games))))
            self.prep.editions.update(sub.editions)
            self.prep.translators.update(sub.translators)
        if change.settings:  # locale.toml goes through all of prepare's checks (the stake against the currency)
            sub = prepare(replace(self.opts, locales=tuple(sorted(change.settings))))
            self.prep.translators.update(sub.translators)
        domains = tuple(self.opts.games) + (COMMON_DOMAIN,)
        for code in sorted(change.locales - change.settings):
            self.prep.translators[code] = load_translator(code, domains, self.locales_dir)
        return self._render(change.pairs)

    def _render(self, pairs: set[tuple[str, str]]) -> dict[str, float]:
        stages: dict[str, float] = {}
        mark = time.perf_counter()

        def stage(name: str) -> None:
            nonlocal mark
            now = time.perf_counter()
            stages[name] = now - mark
            mark = now

        opts, prep = self.opts, self.prep
        games = sorted({g for g, _ in pairs})
        codes = sorted({c for _, c in pairs})
        for code in codes:
            prep.translators[code].misses.clear()
        sub = Prepared({g: prep.editions[g] for g in games}, {c: prep.translators[c] for c in codes})
        fresh = {k: html for k, html in render_html(sub, opts).items() if (k[0], k[1]) in pairs}
        changed = [k for k, html in fresh.items() if self.docs.get(k) != html]
        self.docs.update(fresh)
        for key in changed:
            if "html" in opts.formats:
                self._put(Artifact(key[0], key[1], key[2], "html", None, key[3]), self.docs[key].encode("utf-8"), None)
        stage("html")
        self._render_pdfs(codes)
        stage("pdf")
        self._render_site()
        stage("site")
        _write(self.out / "manifest.json",
               (json.dumps(sorted(self.entries.values(), key=lambda e: e["path"]), indent=2, ensure_ascii=False)
                + "\n").encode("utf-8"))
        return stages

    def _render_pdfs(self, codes: list[str]) -> None:
        """PDFs of the given locales whose HTML or print CSS changed (a Korean edit can change the cut font)."""
        if "pdf" not in self.opts.formats:
            return
        docs = {k: html for k, html in self.docs.items() if k[1] in codes}
        sub = Prepared({}, {c: self.prep.translators[c] for c in codes})
        extra = print_stylesheets(sub, docs)
        todo: dict[str, tuple] = {}
        wanted: list[tuple[Artifact, str]] = []
        for key, html in sorted(docs.items(), key=lambda kv: tuple(map(str, kv[0]))):
            printed = for_print(html, key[1])
            for paper in self.opts.papers:
                art = Artifact(key[0], key[1], key[2], "pdf", paper, key[3])
                k = cache.pdf_key(printed + extra[key], paper + (":press" if self.opts.press else ""))
                if self.pdf_keys.get(art.path) == k:
                    continue
                wanted.append((art, k))
                if k not in todo and self.pdfs.get(k) is None:
                    todo[k] = (printed, paper, art.path, extra[key], key[2])
        keys = sorted(todo, key=lambda k: -len(todo[k][0]))
        hints = cache.FitHints(self.opts.cache_dir) if self.opts.cache_dir else cache.FitHints()
        # One job a group (see build._pdf_job); a card starts its type-size search where it ended last time.
        jobs = [[(*todo[k], hints.size(todo[k][2]), self.opts.press)] for k in keys]
        results = self.pool.map(_pdf_job, jobs) if self.pool is not None and len(jobs) > 1 else map(_pdf_job, jobs)
        for k, group in zip(keys, lifecycle.checked(results)):
            (result, size, seconds), = group
            self.pdfs.put(k, *result)
            hints.record(todo[k][2], size, seconds)
        hints.save()
        for art, k in wanted:
            data, pages = self.pdfs.get(k)
            self.pdf_keys[art.path] = k
            self._put(art, data, pages)

    def _put(self, art: Artifact, data: bytes, pages: int | None) -> None:
        if self.files.get(art.path) != data:
            _write(self.out / art.path, data)
        self.files[art.path] = data
        self.entries[art.path] = _entry(art, data, pages, self.prep.editions[art.game].changed)

    def _render_site(self) -> None:
        """The site of the selection (it links the PDFs); only files whose bytes changed are written."""
        from generator.site.builder import render_site

        site = render_site(self.prep, self.docs, sorted(self.entries.values(), key=lambda e: e["path"]),
                           self.opts, files=self.files)
        for rel, data in site.items():
            if self.site_files.get(rel) != data:
                _write(self.out / rel, data)
        self.site_files = site
