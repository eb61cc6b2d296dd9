"""rulesheets: compile structured rule models into localised rulebooks and score sheets."""

from generator.core.paths import PACKAGE_DIR, PROJECT_DIR

# Locales are not listed in code: they are the folders of locales/ with a locale.toml (i18n.discover_locales).


def __getattr__(name: str):
    # The games are the registry's (generator.registry); this keeps `from generator import GAMES` working.
    if name == "GAMES":
        from generator.core.registry import GAMES

        return tuple(GAMES)
    raise AttributeError(name)
