"""Locales and catalogs: gettext with Babel, numbers, digits, catalog maintenance."""
