"""Fonts, in one place: which installed face draws what (choice), and cuts of those faces (subset) for
the PDFs (pdf: the large CJK collection cut to a locale's characters) and the static site (web: WOFF2)."""

from generator.fonts.choice import font_problems

__all__ = ["font_problems"]
