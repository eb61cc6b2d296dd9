"""Rendering stages: Markdown prose -> HTML (Jinja2) -> PDF (WeasyPrint)."""
