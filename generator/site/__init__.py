"""The static rules site: pages, search index, web fonts, its content cache."""
