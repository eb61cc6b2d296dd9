"""rulesheets: compile structured rule models into localised rulebooks and score sheets."""

# Locales are not listed in code: they are the folders of locales/ with a locale.toml (i18n.discover_locales).
# Nothing is imported here: the command line (generator.launch) puts its signal handlers in place first.


def __getattr__(name: str):
    if name in ("PACKAGE_DIR", "PROJECT_DIR"):
        from generator.core import paths

        return getattr(paths, name)
    # The games are the registry's (generator.core.registry); this keeps `from generator import GAMES` working.
    if name == "GAMES":
        from generator.core.registry import GAMES

        return tuple(GAMES)
    raise AttributeError(name)
