"""The site's score keepers: `<lang>/<game>/table.html` for every game that brings a `table.js`.

A game brings its keeper as two files of its own folder: `table.js` (the engine's scoring, in JavaScript,
and the page's controls) and `templates/table.html.j2` (its form, in the game's catalog domain). This
module adds what every keeper shares: the rules the site was built with, read from the edition's engine
`Rules` at build time (so a `--rule` build computes under its house rules), the allowed values of each
house rule (a request may override them), the numbers the engine fixes, and `table-core.js`.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import fields
from decimal import Decimal
from fractions import Fraction
from typing import Any

from generator.core.paths import TEMPLATES_DIR
from generator.core.registry import GAMES
from generator.render.html import house_rules_box, model_text

#: The shared script: storage, undo, digits, money, the compute() entry point.
CORE_SCRIPT = TEMPLATES_DIR / "site" / "static" / "table-core.js"
CSS = TEMPLATES_DIR / "site" / "static" / "table.css"
#: Where the scripts go in the site (relative to site/).
CORE_PATH = "table/core.js"
PAGE = "table.html"


def has_table(game: str) -> bool:
    """Whether the game brings a score keeper (its own table.js and templates/table.html.j2)."""
    g = GAMES[game]
    return g.folder is not None and (g.folder / "table.js").is_file() and (g.templates_dir / "table.html.j2").is_file()


def scoring_section(game: str) -> str | None:
    """The rulebook section the keeper is linked beside (the game's table.toml), None without a keeper."""
    if not has_table(game):
        return None
    path = GAMES[game].folder / "table.toml"
    return tomllib.loads(path.read_text(encoding="utf-8")).get("scoring_section") if path.is_file() else None


def script_path(game: str) -> str:
    return f"table/{game}.js"


def table_assets(games) -> dict[str, bytes]:
    """The scripts, by path relative to site/: the shared core and each game's own."""
    out = {CORE_PATH: CORE_SCRIPT.read_bytes(), "table/table.css": CSS.read_bytes()}
    for game in games:
        if has_table(game):
            out[script_path(game)] = (GAMES[game].folder / "table.js").read_bytes()
    return out


def _plain(value: Any) -> Any:
    """A rule or engine value as JSON: tuples as lists, a Fraction as the exact decimal it is ("0.1")."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Fraction):
        return str(Decimal(value.numerator) / Decimal(value.denominator))
    return value


def table_data(edition) -> dict:
    """What a keeper computes with: the rules in force, each house rule's allowed values, the engine's fixed numbers.

    Numbers the prose quotes that are whole (card values, tricks per deal, the first round...) go in as they are;
    odds and counts of hands are left out (the page does not need them).
    """
    rules = {f.name: _plain(getattr(edition.rules, f.name)) for f in fields(edition.rules)}
    allowed = {}
    for r in edition.model.house_rules:
        allowed[r.id] = {"range": list(r.range)} if r.range is not None else {"choices": [_plain(_exact(c)) for c in r.choices]}
    values = {k: v for k, v in edition.values.items()
              if type(v) is int and not k.startswith(("odds_", "count_")) and k not in rules}
    return {"game": edition.model.game, "rules": rules, "allowed": allowed, "values": values}


def _exact(value: Any) -> Any:
    """A choice written 0.1 in YAML is the decimal 0.1, not the float."""
    return Fraction(repr(value)) if isinstance(value, float) else value


def data_script(edition) -> str:
    """The data as a JSON script element's text (safe inside <script>)."""
    return json.dumps(table_data(edition), ensure_ascii=False, separators=(",", ":"), sort_keys=True).replace("</", "<\\/")


def page_context(ctx, code: str, game: str) -> dict:
    """The template context of one keeper page (ctx: the site builder's _Context)."""
    tr = ctx.trs[code]
    edition = ctx.prep.editions[game]
    model, values = edition.model, edition.values
    return {"game": game, "game_name": model_text(tr, game, model.name, values),
            "house_rules": house_rules_box(edition, tr), "data": data_script(edition),
            "money_sample": tr.money(Decimal(7)), "stake": str(tr.config.stake),
            "digit_set": _digit_set(tr), "core_js": CORE_PATH, "game_js": script_path(game),
            "rules_page": f"{code}/{game}/index.html"}


def _digit_set(tr) -> str:
    """The locale's ten digits, 0 to 9 (what the page writes numbers with)."""
    return tr.digits("0123456789")
