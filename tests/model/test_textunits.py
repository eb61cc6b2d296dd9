"""Translation units come from markdown-it-py's tokens: nested lists, quotes and code keep their structure."""

from __future__ import annotations

from babel.messages.catalog import Catalog

from generator.i18n.translate import Translator, load_locale_config
from generator.render.markdown import render_prose
from generator.model.textunits import split_units

BODY = """\
Before the game:

- Each player takes
  a pen.
  - Nested: one per *table*.
  - Nested two.
- Second item.

> A quote
> on two lines.

```
code is never translated
- not a list item
```

1. First step.

   Its second paragraph.
2. Second step.
"""


def _translator(translations: dict[str, str]) -> Translator:
    catalog = Catalog(locale="fr")
    for msgid, msgstr in translations.items():
        catalog.add(msgid, msgstr)
    return Translator(load_locale_config("fr"), {"test": catalog})


def test_units_follow_the_parse():
    assert [u.text for u in split_units(BODY)] == [
        "Before the game:", "Each player takes a pen.", "Nested: one per *table*.", "Nested two.", "Second item.",
        "A quote on two lines.", "First step.", "Its second paragraph.", "Second step.",
    ]


def test_rendering_keeps_the_structure_and_marks_fallbacks_where_they_are():
    english = [u.text for u in split_units(BODY)]
    missing = {"Nested two.", "A quote on two lines.", "Its second paragraph."}
    tr = _translator({t: t.upper() for t in english if t not in missing})
    html = render_prose(BODY, "test", tr, {})
    assert html == (
        "<p>BEFORE THE GAME:</p>\n"
        "<ul>\n<li>EACH PLAYER TAKES A PEN.\n<ul>\n<li>NESTED: ONE PER <em>TABLE</em>.</li>\n"
        '<li class="untranslated" lang="en">Nested two.</li>\n</ul>\n</li>\n<li>SECOND ITEM.</li>\n</ul>\n'
        '<blockquote>\n<p class="untranslated" lang="en">A quote on two lines.</p>\n</blockquote>\n'
        "<pre><code>code is never translated\n- not a list item\n</code></pre>\n"
        "<ol>\n<li>\n<p>FIRST STEP.</p>\n"
        '<p class="untranslated" lang="en">Its second paragraph.</p>\n</li>\n<li>\n<p>SECOND STEP.</p>\n</li>\n</ol>\n'
    )
