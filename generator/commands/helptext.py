"""`--help` of every command: two examples each, and the valid values of each option listed in full.

Help strings name their value lists as `{GAMES}`, `{KINDS}`... and the formatter fills them in
only when help is printed, so building the parser never loads the games or the build pipeline.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from functools import cache

#: Two examples per command, shown under "examples:" in its --help.
EXAMPLES = {
    None: ["rulesheets build", "rulesheets kit bunco --players \"Asha,Ben,Chloé,Dev\" --locale hi"],
    "build": ["rulesheets build",
              "rulesheets build --games bunco --locales ko --kinds tally-sheet --papers a4 --formats pdf"],
    "serve": ["rulesheets serve --locales fr", "rulesheets serve --games tonk --kinds payout-sheet --port 0"],
    "kit": ["rulesheets kit bunco --players \"Asha,Ben,Chloé,Dev\" --locale hi --group \"Friday Club\"",
            "rulesheets kit tonk --players players.txt --stake 5 --currency USD --paper letter"],
    "rules": ["rulesheets rules", "rulesheets rules tonk"],
    "check": ["rulesheets check", "rulesheets check --strict --locales fr"],
    "i18n": ["rulesheets i18n status --locales fr", "rulesheets i18n init es"],
    "init": ["rulesheets init", "rulesheets init --config club/rulesheets.toml"],
}


def epilog(command: str | None) -> str:
    return "examples:\n" + "\n".join(f"  {line}" for line in EXAMPLES[command])


@cache
def _values() -> dict[str, str]:
    """Every list of valid values a help string may name, read from the sources of truth."""
    from generator.core.paths import discover_locales
    from generator.core.registry import GAMES
    from generator.edition.sheets import CURRENCIES
    from generator.pipeline.build import FORMATS, KINDS, PAPERS

    per_page = dict.fromkeys(s.kind for g in GAMES.values() for s in g.sheets if s.per_page)
    return {"PERPAGE": ", ".join(per_page), "GAMES": ", ".join(GAMES), "LOCALES": ", ".join(discover_locales()), "KINDS": ", ".join(KINDS),
            "PAPERS": ", ".join(PAPERS), "FORMATS": ", ".join(FORMATS), "CURRENCIES": ", ".join(CURRENCIES)}


def fill(text: str) -> str:
    """`{KINDS}` and the like replaced by the full lists."""
    if "{" not in text:
        return text
    return re.sub(r"\{([A-Z]+)\}", lambda m: _values().get(m.group(1), m.group(0)), text)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Examples kept as written; value lists filled in and never broken inside a name like stop-the-bus."""

    def _expand_help(self, action):
        return fill(super()._expand_help(action))

    def _split_lines(self, text, width):
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)
