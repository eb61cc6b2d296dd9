"""The live preview's folder (`rulesheets serve`): a locale folder moved out and back in is noticed (issue 44)."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.commands.serve import _watched
from generator.pipeline.build import Options
from generator.pipeline.preview import Preview

from tests.conftest import ROOT


def test_a_locale_folder_moved_out_and_back_is_noticed(tmp_path):
    """Moved out, the folder alone is reported (its files say nothing): the locale leaves the preview and its
    pages are no longer served; moved back, it returns."""
    locales = tmp_path / "locales"
    for code in ("en", "fr"):
        shutil.copytree(ROOT / "locales" / code, locales / code)
    out = tmp_path / "out"
    preview = Preview(Options(games=("bunco",), locales=("en", "fr"), formats=("html",), kinds=("quick-reference",),
                              locales_dir=locales, out=out), jobs=1)
    preview.build_all()
    page = Path("fr/bunco/quick-reference.html")
    assert (out / page).is_file()

    shutil.move(locales / "fr", tmp_path / "fr-elsewhere")
    assert _watched(None, str(locales / "fr"))  # the watcher passes the folder on
    change = preview.classify({locales / "fr"})
    assert change.everything
    preview.apply(change)
    assert preview.opts.locales == ("en",)
    assert not (out / page).exists() and not (out / "fr").exists()
    assert (out / "en/bunco/quick-reference.html").is_file()

    shutil.move(tmp_path / "fr-elsewhere", locales / "fr")
    change = preview.classify({locales / "fr"})
    assert change.everything
    preview.apply(change)
    assert preview.opts.locales == ("en", "fr") and (out / page).is_file()
    preview.close()


def test_hidden_and_unwatched_files_stay_ignored():
    assert not _watched(None, "/x/locales/fr/.bunco.po.swp") and not _watched(None, "/x/locales/fr/notes.txt")
    assert _watched(None, "/x/locales/fr/LC_MESSAGES/bunco.po") and _watched(None, "/x/locales/fr")
