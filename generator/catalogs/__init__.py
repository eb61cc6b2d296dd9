"""Catalog maintenance (`rulesheets i18n`): extract, update, compile, status, and new locales; reads every layer's strings."""
