"""HTML documents from Jinja2 templates (autoescape on), one locale at a time."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2.ext import Extension
from jinja2.lexer import Token
from markupsafe import Markup, escape

from generator.core.paths import CACHE_DIR, TEMPLATES_DIR
from generator.core.registry import GAMES
from generator.engine.cards import parse_cards
from generator.i18n.translate import COMMON_DOMAIN, Translator
from generator.render import plaintext, ties
from generator.render.markdown import render_prose
from generator.render.names import card_name, die_name

PAGE_COUNTER = {"latn": "decimal", "deva": "devanagari", "beng": "bengali"}
CATEGORY_NAMES = {
    "three_of_a_kind": "Three of a kind", "running_flush": "Running flush", "run": "Run",
    "flush": "Flush", "pair": "Pair", "high_card": "High card",
}
#: The msgctxt of the hand categories: "Run", "Flush" and "Pair" alone are ambiguous words.
CATEGORY_CONTEXT = "Stop the Bus hand category"
RANK_LABELS = {11: "J", 12: "Q", 13: "K", 14: "A"}
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s")


#: What a gettext call written in a game's template becomes: the same call with the game's domain first.
GAME_CALLS = {"_": "dgettext", "gettext": "dgettext", "_attr": "dgettext_attr", "pgettext": "dpgettext",
              "ngettext": "dngettext"}


@lru_cache(maxsize=1)
def _game_template_dirs() -> dict[Path, str]:
    return {g.templates_dir.resolve(): g.id for g in GAMES.values()}


def template_domain(filename: str | None) -> str:
    """The catalog domain of a template file: its game's own for a file of a game's templates/, else common.

    The same rule as `rulesheets i18n extract`: a string belongs to the domain of the file it is written in.
    """
    if filename:
        path = Path(filename).resolve()
        for folder, game in _game_template_dirs().items():
            if path.is_relative_to(folder):
                return game
    return COMMON_DOMAIN


class GameDomains(Extension):
    """In a game's template, `_("…")` is `dgettext("<game>", "…")` (and so for `_attr`, `pgettext`, `ngettext`).

    Bound when the template is compiled, from the file it is read from, so a game's macros drawn inside a
    shared page, a game's sheet that extends the shared `sheet.html.j2` and the shared page around them
    each speak their own domain. A game template asks for a shared string explicitly: `common_("…")`,
    `common_pgettext`, `common_ngettext`, `common_attr` (extracted into the common catalog).
    """

    def filter_stream(self, stream):
        domain = template_domain(stream.filename)
        if domain == COMMON_DOMAIN:
            return stream
        return self._bind(stream, domain)

    @staticmethod
    def _bind(stream, domain: str):
        previous = None
        for token in stream:
            if (token.type == "name" and token.value in GAME_CALLS and stream.current.type == "lparen"
                    and (previous is None or previous.type != "dot")):
                yield Token(token.lineno, "name", GAME_CALLS[token.value])
                yield next(stream)  # the opening parenthesis
                yield Token(token.lineno, "string", domain)
                previous = Token(token.lineno, "comma", ",")
                yield previous
                continue
            previous = token
            yield token


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    # "-domains": templates compiled before game templates were bound to their domain are not reused.
    folder = CACHE_DIR / "jinja-domains"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only cache folder only costs time
        return None
    return jinja2.FileSystemBytecodeCache(str(folder))


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    # Shared templates by their names; a game's own ones as "<game id>/<name>" (from its package's templates/).
    games = jinja2.PrefixLoader({g.id: jinja2.FileSystemLoader(g.templates_dir) for g in GAMES.values()})
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader([jinja2.FileSystemLoader(TEMPLATES_DIR), games]),
        # Compiled templates are kept between runs (keyed by the template's source): a cold one-sheet build
        # would otherwise spend a third of a second compiling templates.
        bytecode_cache=_bytecode_cache(),
        autoescape=True,
        extensions=[GameDomains],
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals["parse_cards"] = parse_cards
    env.globals["example_macro"] = example_macro
    env.filters["striptags"] = plaintext.striptags
    # The body of every document (base.html.j2): no paragraph ends with a short word alone on its line.
    env.filters["tie_last_words"] = lambda body, lang, cells=False: Markup(ties.tie_last_words(str(body), lang, cells))
    env.globals["rank_label"] = lambda r: RANK_LABELS.get(r, str(r))
    return env


@dataclass(frozen=True)
class ExampleDrawing:
    """Where the macro that draws a kind of worked example lives: its game's examples.html.j2."""

    template: str
    macro: str


def example_macro(kind: str) -> ExampleDrawing:
    """The macro that draws `kind` (kinds are checked against the registry when the model is read)."""
    for g in GAMES.values():
        if kind in g.example_kinds:
            return ExampleDrawing(f"{g.id}/examples.html.j2", g.example_kinds[kind].macro)
    raise ValueError(f"no game registers the example kind '{kind}'")


def _fill_markup(tr: Translator, text: str, fallback: bool, values: dict[str, Any]) -> Markup:
    # Numbers (and tuples of numbers, like the Tonk totals) are formatted by the locale after translation.
    safe = {k: (v if isinstance(v, (int, float, tuple)) or hasattr(v, "denominator") else escape(v))
            for k, v in values.items()}
    html = plaintext.Text(tr.fill(str(escape(text)), safe))
    if fallback:
        return Markup('<span class="untranslated" lang="en">') + html + Markup("</span>")
    return html


def local_names(tr: Translator, text: Markup) -> Markup:
    """Example players under the locale's own names (locale.toml `names`): Rina is रीना in Hindi.

    Translators may write the local name themselves; an English name left in a translated caption
    is swapped here, so a new example never shows a Latin name in a Devanagari sentence.
    """
    names = dict(tr.config.names)
    if not names:
        return text
    # Latin letters only on either side: "Rinaलाई" is a name with a Nepali case ending.
    pattern = re.compile(r"(?<![A-Za-zÀ-ÿ])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
                         + r")(?![A-Za-zÀ-ÿ])" + (_KO_PARTICLE if tr.code == "ko" else ""))

    def swap(m: re.Match) -> str:
        local = names[m.group(1)]
        particle = m.group(2) if tr.code == "ko" else None
        if particle:  # "Tariq가" becomes "태민이": the particle follows the new name's last sound
            particle = _KO_PARTICLES[particle][_ends_in_consonant(local)]
        return str(escape(local)) + (particle or "")

    return Markup(pattern.sub(swap, str(text)))


#: Korean particles that change with the sound before them: (after a vowel, after a consonant).
_KO_PARTICLES = {p: pair for pair in (("가", "이"), ("는", "은"), ("를", "을"), ("와", "과")) for p in pair}
_KO_PARTICLE = r"([가이는은를을와과](?![가-힣]))?"


def _ends_in_consonant(word: str) -> bool:
    """Whether a Hangul word's last syllable has a final consonant (받침)."""
    last = ord(word[-1]) - 0xAC00
    return 0 <= last < 11172 and last % 28 != 0


def player_name(tr: Translator, name: str) -> str:
    return dict(tr.config.names).get(name, name)


def table_label(tr: Translator, index: int, count: int) -> Markup:
    """A Bunco table's name: head, middle, low, or numbered beyond three; "the table" when alone."""
    _ = locale_globals(tr)["_"]
    if count == 1:
        return _("The table")
    if index == 0:
        return _("Head table")
    if index == count - 1:
        return _("Low table")
    if count == 3:
        return _("Middle table")
    return _("Table {number}", number=index + 1)


def card_table_label(tr: Translator, index: int, count: int) -> Markup:
    """A card game's table: not ranked like Bunco tables, so "The table" alone, else "Table 1", "Table 2"..."""
    _ = locale_globals(tr)["_"]
    return _("The table") if count == 1 else _("Table {number}", number=index + 1)


def locale_globals(tr: Translator, domain: str = COMMON_DOMAIN) -> dict[str, Any]:
    """The functions templates use to speak the locale: `_`, `ngettext`, and the translator itself.

    `_`, `pgettext`, `_attr` and `ngettext` look in `domain`; `dgettext` and its kin take the domain first
    (what a game template's calls become, see GameDomains); `common_` and its kin always look in common.
    """

    def dgettext(in_domain: str, msgid: str, **values: Any) -> Markup:
        text, fallback = tr.lookup(in_domain, msgid)
        return _fill_markup(tr, text, fallback, values)

    def dpgettext(in_domain: str, context: str, msgid: str, **values: Any) -> Markup:
        """A short or ambiguous string, told apart by its msgctxt ("Hand" the cards held, "won" a mark)."""
        text, fallback = tr.lookup(in_domain, msgid, context=context)
        return _fill_markup(tr, text, fallback, values)

    def dgettext_attr(in_domain: str, msgid: str, **values: Any) -> Markup:
        """For attribute values (aria-label, content): the text alone; a fallback's marker is markup, so none here."""
        text, _fallback = tr.lookup(in_domain, msgid)
        return _fill_markup(tr, text, False, values)

    def dngettext(in_domain: str, singular: str, plural: str, n: int, **values: Any) -> Markup:
        text, fallback = tr.lookup_plural(in_domain, singular, plural, n)
        return _fill_markup(tr, text, fallback, values)

    def bound(function, to: str):
        return lambda *args, **values: function(to, *args, **values)

    def category_name(category: str) -> Markup:
        return dpgettext(COMMON_DOMAIN, CATEGORY_CONTEXT, CATEGORY_NAMES[category])

    return {
        "tr": tr, "_": bound(dgettext, domain), "pgettext": bound(dpgettext, domain), "_attr": bound(dgettext_attr, domain),
        "ngettext": bound(dngettext, domain), "category_name": category_name,
        "dgettext": dgettext, "dpgettext": dpgettext, "dgettext_attr": dgettext_attr, "dngettext": dngettext,
        "common_": bound(dgettext, COMMON_DOMAIN), "common_pgettext": bound(dpgettext, COMMON_DOMAIN),
        "common_attr": bound(dgettext_attr, COMMON_DOMAIN), "common_ngettext": bound(dngettext, COMMON_DOMAIN),
        "table_label": lambda index, count: table_label(tr, index, count),
        "player": lambda name: player_name(tr, name),
        "card_name": lambda card: card_name(tr, card),
        "die_name": lambda number, scores=False: die_name(tr, number, scores),
        # Font names are checked to be plain words (i18n.load_locale_config), so this is safe CSS.
        "font_stack": Markup(", ".join(f'"{f}"' for f in tr.config.fonts) + ", sans-serif"),
        "page_counter": PAGE_COUNTER[tr.config.digits],
    }


def print_stylesheet(tr: Translator, kind: str) -> str:
    """CSS only WeasyPrint reads: cheaper boxes for every document (css/print-boxes.css), and for
    rulebooks page furniture (margin boxes, string-set, bookmarks)."""
    env = environment()
    boxes = env.get_template("css/print-boxes.css").render()
    if kind != "rulebook":
        return boxes
    return boxes + "\n" + env.get_template("css/print.css.j2").render(**locale_globals(tr))


@dataclass(frozen=True)
class SectionView:
    id: str
    title: Markup
    html: Markup
    examples: tuple


@dataclass(frozen=True)
class ExampleView:
    example: Any
    caption: Markup
    input: dict
    result: dict


def model_text(tr: Translator, game: str, text: str, values: dict) -> Markup:
    """A one-line model string (title, caption) translated, filled and escaped."""
    translated, fallback = tr.lookup(game, text, values)
    return _fill_markup(tr, translated, fallback, values)


def section_markdown(section, edition) -> str:
    """A section's Markdown under the edition's rules: plain parts and the blocks whose condition holds."""
    out = ""
    for part in section.parts():
        if isinstance(part, str) or edition.applies(part.when):
            text = (part if isinstance(part, str) else part.text).strip("\n")
            # A block that continues a list joins it; anything else is a new paragraph.
            joint = "\n" if out and _LIST_ITEM.match(text) and _LIST_ITEM.match(out.rsplit("\n", 1)[-1]) else "\n\n"
            out = f"{out}{joint}{text}" if out else text
    return out


def rulebook_sections(edition, tr: Translator) -> list[SectionView]:
    """The rulebook's sections with their worked examples, translated; shared by print and site.

    Made once per edition and translator (the print rulebook, then the site page, ask for the same):
    a repeat gives the same sections and notes the same English fallbacks again, so a caller that
    counts `tr.misses` sees what a fresh rendering would have given it. A new edition or translator
    (serve makes new ones when a model or catalog changes) is rendered anew.
    """
    memo = tr.__dict__.setdefault("_rulebook_sections", {})
    hit = memo.get(edition.model.game)
    if hit is not None and hit[0] is edition:
        tr.misses.extend(hit[2])
        return list(hit[1])
    before = len(tr.misses)
    sections = _rulebook_sections(edition, tr)
    memo[edition.model.game] = (edition, tuple(sections), tuple(tr.misses[before:]))
    return sections


def _rulebook_sections(edition, tr: Translator) -> list[SectionView]:
    game, values, outcomes = edition.model.game, edition.values, edition.outcomes
    sections = []
    for s in edition.model.sections:
        if not edition.applies(s.when):
            continue
        examples = tuple(
            ExampleView(outcomes[e].example, local_names(tr, model_text(tr, game, outcomes[e].example.caption, values)),
                        outcomes[e].input.model_dump(), outcomes[e].result)
            for e in s.examples if e in outcomes)
        sections.append(SectionView(s.id, model_text(tr, game, s.title, values),
                                    render_prose(section_markdown(s, edition), game, tr, values), examples))
    return sections


def house_rules_box(edition, tr: Translator) -> list[dict]:
    """The house rules an edition was built with, in the reader's language: label and what it does."""
    rules = edition.model.house_rules_by_id
    return [{"id": name, "label": model_text(tr, edition.model.game, rules[name].label, edition.values),
             "describe": model_text(tr, edition.model.game, rules[name].describe, edition.values)}
            for name in edition.changed]


def rules_in_force(edition) -> str:
    """The edition's house rules for PDF metadata (Keywords): `house rules: bunco.wipeout=true`, or ""."""
    from generator.edition.editions import show_value

    if not edition.changed:
        return ""
    return "house rules: " + ", ".join(f"{edition.model.game}.{k}={show_value(v)}" for k, v in edition.changed.items())


def render_rulebook(edition, tr: Translator) -> str:
    """The rulebook of one game in one locale, as a complete HTML document."""
    model, values = edition.model, edition.values
    game = model.game
    misses_before = len(tr.misses)
    sections = rulebook_sections(edition, tr)
    name = model_text(tr, game, model.name, values)
    tagline = model_text(tr, game, model.tagline, values)
    g = locale_globals(tr)
    template = environment().get_template("rulebook.html.j2")
    html = template.render(
        **g, title=name.striptags(), game_name=name, tagline=tagline, description=tagline.striptags(),
        author=model.author, published=model.published.isoformat(), body_class=f"rulebook game-{game}", game=game,
        sections=sections, house_rules=house_rules_box(edition, tr), rules_in_force=rules_in_force(edition),
        tie_cells=True,  # the example tables size their columns to their content (render/ties.py)
        fallback_count=len(tr.misses) - misses_before,
    )
    return html
