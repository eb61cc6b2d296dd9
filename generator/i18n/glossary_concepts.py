"""glossary.toml's `[concepts]` (one term, one meaning) and `[typography]` tables, checked as input."""

from __future__ import annotations

import re
from collections.abc import Callable

from generator.core.errors import Problem

#: The keys a concept may have: where the English names it, the local term, words to avoid, games, a note.
CONCEPT_KEYS = ("en", "term", "avoid", "games", "why")


def concept_problems(data: dict, where: str, line: Callable[[str], int | None]) -> list[Problem]:
    """Every concept a table of regular expressions; `en` and `term` together; typography lists of words."""
    problems = []
    concepts = data.get("concepts", {})
    if not isinstance(concepts, dict):
        return [Problem(where, line("concepts"), "'concepts' must be a table of concepts")]
    for name, concept in concepts.items():
        if not isinstance(concept, dict):
            problems.append(Problem(where, line(f"concepts.{name}"), f"concept '{name}' must be a table"))
            continue
        for key in concept:
            if key not in CONCEPT_KEYS:
                problems.append(Problem(where, line(key), f"concept '{name}': unknown key '{key}' "
                                                          f"(one of: {', '.join(CONCEPT_KEYS)})"))
        if ("en" in concept) != ("term" in concept):
            problems.append(Problem(where, line(f"concepts.{name}"), f"concept '{name}': 'en' and 'term' go together"))
        patterns = [concept.get("en"), concept.get("term"), *(concept.get("avoid") or [])]
        for pattern in (p for p in patterns if p is not None):
            try:
                re.compile(pattern)
            except (re.error, TypeError) as exc:
                problems.append(Problem(where, line(f"concepts.{name}"), f"concept '{name}': {pattern!r}: {exc}"))
    typography = data.get("typography", {})
    counters = typography.get("counters", []) if isinstance(typography, dict) else None
    if counters is None or not all(isinstance(c, str) and c for c in counters):
        problems.append(Problem(where, line("typography"), "[typography] counters must be a list of words"))
    return problems
