"""What a partial build into a new folder writes, as the README says (issue 45): a site of what it built if it
built rulebooks, and no site/ if it built none. HTML only (no PDF render): about a second each."""

from __future__ import annotations

from tests.conftest import run_main


def test_a_partial_build_into_a_new_folder_writes_a_site_of_what_it_built(tmp_path):
    out = tmp_path / "out"
    done = run_main("build", "--games", "tonk", "--locales", "fr", "--formats", "html", "--out", str(out))
    assert done.returncode == 0, done.stderr
    site = out / "site"
    assert (site / "index.html").is_file()
    assert (site / "fr" / "tonk").is_dir()
    locales = {p.name for p in site.iterdir() if p.is_dir() and len(p.name) == 2}
    assert locales == {"fr"}, locales
    assert not (site / "fr" / "bunco").exists()


def test_a_partial_build_without_rulebooks_writes_no_site(tmp_path):
    out = tmp_path / "out"
    done = run_main("build", "--games", "tonk", "--locales", "fr", "--kinds", "payout-sheet", "--formats", "html",
                    "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert (out / "fr" / "tonk").is_dir()
    assert not (out / "site").exists()
