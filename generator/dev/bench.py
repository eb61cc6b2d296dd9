"""`make bench`: build speed, incremental rebuilds, per-locale PDF cost and memory, printed as figures."""

from __future__ import annotations

import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from generator.i18n.translate import discover_locales
from generator.core.paths import PROJECT_DIR


def copy_project(dest: Path) -> Path:
    """The parts of the project a build reads (package, templates, locales), for a build in isolation.

    The package's bytecode comes along where there is some (an installed tool has it; a build in a copy
    should not pay for compiling its own modules); it is checked against each source's time and size."""
    for name in ("generator", "templates", "locales"):
        shutil.copytree(PROJECT_DIR / name, dest / name, ignore=shutil.ignore_patterns("*.mo"))
    return dest


def _stages(stdout: str) -> dict[str, float]:
    """The build's own per-stage seconds, from its `stages:` line."""
    line = next((l for l in stdout.splitlines() if l.startswith("stages: ")), "stages: ")
    out = {}
    for part in line[len("stages: "):].split(", "):
        if part:
            name, value, _unit = part.split(" ")
            out[name] = float(value)
    return out


#: Peak resident memory (MB) of each build command the bench runs, the largest process of its tree.
PEAKS: dict[str, float] = {}
#: CPU seconds of each command the bench runs, its workers included.
CPU: dict[str, float] = {}


def _reap(proc: subprocess.Popen, label: str, timeout: float | None = None) -> int:
    """Wait for `proc` and note its peak RSS: wait4 gives the largest of the process and the workers it
    reaped, so the figure is per process and counts nothing the bench itself runs beside the build.
    Past `timeout` seconds the process is killed."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, 0 if deadline is None else os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            print(f"bench: {label} did not stop within {timeout:.0f} s; killed", file=sys.stderr)
            proc.kill()
            deadline = None
        else:
            time.sleep(0.05)
    proc.returncode = os.waitstatus_to_exitcode(status)
    PEAKS[label] = max(PEAKS.get(label, 0.0), usage.ru_maxrss / 1024)
    CPU[label] = usage.ru_utime + usage.ru_stime  # the process and the workers it reaped
    return proc.returncode


def _cli(project: Path, *args: str, label: str = "") -> tuple[float, str]:
    """Run the CLI in a fresh process; returns seconds and stdout (its peak RSS goes to PEAKS[label])."""
    env = {**os.environ, "PYTHONPATH": str(project)}
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([sys.executable, "-m", "generator.cli", *args], cwd=project, env=env,
                                stdout=out, stderr=err, text=True)
        code = _reap(proc, label or " ".join(args[:1]))
        seconds = time.perf_counter() - start
        out.seek(0), err.seek(0)
        stdout, stderr = out.read(), err.read()
    if code:
        sys.exit(f"bench: build failed: {stderr.strip()}")
    return seconds, stdout


def _pure_weasyprint(project: Path) -> dict:
    """WeasyPrint alone on the same HTML documents the build renders (one process, one FontConfiguration).

    Each document is rendered twice, in turn: by WeasyPrint as it ships, and with this project's
    changes to its output (ActualText spans, tagged structure with alt text, render/actualtext.py and
    render/pdftags.py), so the time and bytes those cost are measured on identical input.
    """
    code = r'''
import json, sys, time
from pathlib import Path
from weasyprint import CSS, HTML
from weasyprint.draw import text as wp_text
from weasyprint.pdf import tags as wp_tags
from weasyprint.text.fonts import FontConfiguration
from generator.pipeline.build import Options, prepare, print_stylesheets, render_html
from generator.patches import actualtext, pdftags
from generator.render.script import for_print
opts = Options()
prep = prepare(opts)
docs = render_html(prep, opts)
# The same input the pipeline gives WeasyPrint: print HTML, page furniture, cut-down CJK font.
extra = print_stylesheets(prep, docs)
fc = FontConfiguration()
sizes = {p: CSS(string="@page { size: %s; }" % p, font_config=fc) for p in ("A4", "letter")}
import weasyprint.pdf as wp_pdf
plain = (wp_text.draw_first_line, wp_tags._build_box_tree, wp_pdf.add_tags)
patched = (actualtext.draw_first_line, pdftags._build_box_tree, pdftags.add_tags)
def render(html, sheets, changed):
    wp_text.draw_first_line, wp_tags._build_box_tree, wp_pdf.add_tags = patched if changed else plain
    times = []
    for _ in range(2):  # the better of two: other processes on a shared machine add noise, not work
        t = time.perf_counter()
        data = HTML(string=html, base_url="templates/").write_pdf(stylesheets=sheets, font_config=fc, pdf_tags=changed,
                                                                  pdf_variant="pdf/ua-1" if changed else None)
        times.append(time.perf_counter() - t)
    return min(times), sum(times) / 2, data
out = {"total": 0.0, "changed": 0.0, "total_mean": 0.0, "changed_mean": 0.0, "bytes": 0, "changed_bytes": 0, "per_locale": {}, "by_locale": {}}
for i, (key, html) in enumerate(sorted(docs.items(), key=lambda kv: tuple(map(str, kv[0])))):
    game, loc, kind, table = key
    html = for_print(html, loc)
    for paper in ("A4", "letter"):
        sheets = [sizes[paper]] + ([CSS(string=extra[key], base_url="templates/", font_config=fc)] if extra[key] else [])
        if i == 0 and paper == "A4":
            render(html, sheets, False), render(html, sheets, True)  # warm up fonts and caches for both
        order = (False, True) if i % 2 else (True, False)
        for changed in order:
            dt, mean, data = render(html, sheets, changed)
            out["changed_mean" if changed else "total_mean"] += mean
            size = len(data)
            if not changed and paper == "A4":  # kept for the fidelity of WeasyPrint as it ships
                stem = kind if table is None else "%s-table-%s" % (kind, table)
                target = Path("shipped", loc, game, stem + "-a4.pdf")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            out["changed" if changed else "total"] += dt
            out["changed_bytes" if changed else "bytes"] += size
            row = out["by_locale"].setdefault(loc, [0.0, 0.0, 0, 0])
            row[changed] += dt
            row[2 + changed] += size
            if not changed and kind == "rulebook" and paper == "A4":
                out["per_locale"][loc] = out["per_locale"].get(loc, 0.0) + dt
import resource
out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
'''
    env = {**os.environ, "PYTHONPATH": str(project)}
    r = subprocess.run([sys.executable, "-c", code], cwd=project, env=env, capture_output=True, text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def _fidelity_rows(out: Path, entries: list[dict]) -> list[tuple[str, str]]:
    """Words of each HTML twin found in the PDFs' text, per locale, with poppler and PDFium; Chromium as the peer."""
    from generator.dev import fidelity

    rows = []
    twin = lambda e: (out / e["path"]).read_text(encoding="utf-8")  # noqa: E731
    engines = list(fidelity.ENGINES)
    for engine, module in (("pdfium", "pypdfium2"), ("mupdf", "pymupdf")):
        try:
            __import__(module)  # test dependencies
        except ImportError:
            engines.remove(engine)
            rows.append((f"text fidelity, {engine}", f"skipped: {module} is a test dependency (make setup-test)"))
    for engine in engines:
        scores = fidelity.by_locale(out, entries, engine)
        rows.append((f"text fidelity, {engine}, our PDFs", _percents(scores)))
        if (out.parent / "shipped").is_dir():
            scores = fidelity.by_locale(out.parent / "shipped", peer_entries(entries), engine, html_for=twin)
            rows.append((f"text fidelity, {engine}, WeasyPrint as shipped (before)", _percents(scores)))
    try:
        peer = _chromium_pdfs(out, entries)
    except Exception as exc:  # the peer needs the test extras (playwright, Debian's chromium)
        rows.append(("text fidelity, Chromium's print (peer)", f"skipped: {str(exc).splitlines()[0]}"))
        return rows
    for engine in engines:
        scores = fidelity.by_locale(peer, peer_entries(entries), engine, html_for=twin)
        rows.append((f"text fidelity, {engine}, Chromium's print (peer)", _percents(scores)))
    return rows


def _percents(scores) -> str:
    """Per locale: words found / words found whole (no space inside), see generator/dev/fidelity.py."""
    return ", ".join(f"{loc} {scores[loc].percent:.2f} / {scores[loc].percent_whole:.2f} %"
                     for loc in discover_locales() if loc in scores)


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def peer_entries(entries: list[dict]) -> list[dict]:
    """The manifest of Chromium's prints: one A4 PDF per HTML artifact, at the same relative path."""
    out = []
    for e in entries:
        if e["format"] == "html":
            out.append(e)
            out.append({**e, "format": "pdf", "paper": "a4", "path": e["path"].removesuffix(".html") + "-a4.pdf"})
    return out


def _chromium_pdfs(out: Path, entries: list[dict]) -> Path:
    """Headless Chromium prints every HTML artifact to A4 into out/../chromium-peer/ (same relative paths)."""
    from playwright.sync_api import sync_playwright

    peer = out.parent / "chromium-peer"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            for e in entries:
                if e["format"] != "html":
                    continue
                target = peer / (e["path"].removesuffix(".html") + "-a4.pdf")
                target.parent.mkdir(parents=True, exist_ok=True)
                page.goto((out / e["path"]).as_uri(), wait_until="load")
                page.pdf(path=str(target), format="A4")
        finally:
            browser.close()
    return peer


def _peer(project: Path, out: Path) -> dict | None:
    """Chromium printing the same HTML artifacts, interleaved with WeasyPrint (see generator/peer.py)."""
    env = {**os.environ, "PYTHONPATH": str(project)}
    r = subprocess.run([sys.executable, "-m", "generator.dev.peer", str(out)], cwd=project, env=env,
                       capture_output=True, text=True)
    if r.returncode:
        print(f"bench: peer not measured: {(r.stderr.strip().splitlines() or ['?'])[-1]}", file=sys.stderr)
        return None
    return json.loads(r.stdout.strip().splitlines()[-1])


def _change_french_string(project: Path, text: str = "Un stylo pour chaque joueur, et quelques-uns de rechange.") -> None:
    from babel.messages.pofile import read_po, write_po

    po = project / "locales/fr/LC_MESSAGES/bunco.po"
    with po.open("rb") as fh:
        catalog = read_po(fh)
    msg = catalog.get("Pens for everyone.")
    msg.string = text
    buf = io.BytesIO()
    write_po(buf, catalog, width=100)
    po.write_bytes(buf.getvalue())  # one write, as an editor saves


def _serve_string_changes(project: Path, texts: tuple[str, ...]) -> tuple[float, list[float]]:
    """`rulesheets serve` of the whole project: seconds to the first build, then from each saved French
    string to the rulebook's HTML and both its PDFs written anew."""
    import signal
    import socket
    import urllib.request

    from generator.commands.serve import STATE_URL

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    def generation() -> int:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{STATE_URL}", timeout=5) as r:
                return json.loads(r.read())["generation"]
        except OSError:
            return 0

    env = {**os.environ, "PYTHONPATH": str(project)}
    start = time.perf_counter()
    # SIGINT is Ctrl-C for serve; a bench started in the background inherits it ignored, so it is reset.
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "serve", "--port", str(port)], cwd=project,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    times = []
    try:
        while generation() < 1:
            if proc.poll() is not None or time.perf_counter() - start > 900:
                sys.exit(f"bench: serve did not start: {proc.stderr.read().strip()}")
            time.sleep(0.05)
        first = time.perf_counter() - start
        folder = project / ".cache/serve/fr/bunco"
        files = [folder / "rulebook.html", folder / "rulebook-a4.pdf", folder / "rulebook-letter.pdf"]
        for text in texts:
            before = {f: f.stat().st_mtime_ns for f in files}
            done = generation()
            saved = time.perf_counter()
            _change_french_string(project, text)
            while any(f.stat().st_mtime_ns == before[f] for f in files):
                if time.perf_counter() - saved > 60:
                    sys.exit("bench: serve did not rebuild within 60 s")
                time.sleep(0.002)
            times.append(time.perf_counter() - saved)
            while generation() == done:  # let the site finish before the next change
                time.sleep(0.02)
    finally:
        proc.send_signal(signal.SIGINT)
        _reap(proc, "serve (whole project, three string changes)", timeout=60)
        proc.stderr.close()
    return first, times


def _gate_cost(project: Path, locales: tuple[str, ...] = ()) -> dict:
    """The layout gate's and the card fitting's share of rendering every PDF of a build (one process).

    Every document is rendered as the build renders it (html_to_pdf, both papers); the time spent in
    the gate's walk over the boxes (render/gate.py) and in fitting the cards' type (render/fit.py,
    its extra layouts included) is summed apart.
    """
    code = r'''
import json, sys, time
from generator.pipeline.build import Options, prepare, print_stylesheets, render_html
from generator.render import fit, gate, pdf
from generator.render.script import for_print
locales = tuple(sys.argv[1].split(",")) if sys.argv[1] else None
opts = Options(**({"locales": locales} if locales else {}))
prep = prepare(opts)
docs = render_html(prep, opts)
extra = print_stylesheets(prep, docs)
spent = {"gate": 0.0, "fit": 0.0, "layouts": 0}
inside = []
def timed(name, f):
    def wrapper(*a, **k):
        t = time.perf_counter()
        inside.append(name)
        try:
            return f(*a, **k)
        finally:
            inside.pop()
            if not (name == "gate" and "fit" in inside):  # the gate's checks of candidate sizes: fitting's work
                spent[name] += time.perf_counter() - t
    return wrapper
def counted(f):
    def wrapper(*a, **k):
        if "fit" in inside:
            spent["layouts"] += 1
        return f(*a, **k)
    return wrapper
fit.fits = counted(fit.fits)
gate.findings_of = timed("gate", gate.findings_of)
fit.fit = timed("fit", fit.fit)
total, count = 0.0, 0
cards = []
for key, html in sorted(docs.items(), key=lambda kv: tuple(map(str, kv[0]))):
    html = for_print(html, key[1])
    for paper in ("a4", "letter"):
        t = time.perf_counter()
        name = "/".join(map(str, key)) + "-" + paper
        pdf.html_to_pdf(html, paper, name, extra[key])
        total += time.perf_counter() - t
        count += 1
        if fit.wants_fit(html):
            cards.append((html, paper, name, extra[key]))
cold = spent["layouts"]
# Again, each card starting from the size it got above (as a rebuild does from .cache/hints.json).
spent["layouts"] = 0
for html, paper, name, css in cards:
    pdf.html_to_pdf(html, paper, name, css, fit_start=pdf.fitted[name])
print(json.dumps({"total": total, "documents": count, **spent, "layouts": cold, "cards": len(cards),
                  "hinted_layouts": spent["layouts"]}))
'''
    env = {**os.environ, "PYTHONPATH": str(project)}
    r = subprocess.run([sys.executable, "-c", code, ",".join(locales)], cwd=project, env=env, capture_output=True,
                       text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def _gate_rows(project: Path, locales: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    cost = _gate_cost(project, locales)
    total, gate_s, fit_s = cost["total"], cost["gate"], cost["fit"]
    # The gate's calls made while fitting are fitting's work: counted there only.
    return [(f"layout gate, {cost['documents']} PDFs rendered in one process",
             f"{gate_s:.2f} s of {total:.1f} s ({gate_s / total * 100:.1f} % of rendering; target < 5 %)"),
            ("quick-reference type fitting", f"{fit_s:.1f} s ({fit_s / total * 100:.1f} % of rendering; "
                                             f"{cost['layouts']} layouts checked, the gate's checks of them included)"),
            ("layouts per card", f"{cost['layouts'] / max(cost['cards'], 1):.2f} cold, "
                                 f"{cost['hinted_layouts'] / max(cost['cards'], 1):.2f} from last build's size "
                                 f"({cost['cards']} cards; target <= 2)")]


def _targets(root: Path, proj: Path) -> list[tuple[str, str]]:
    """The two figures issue 13 sets: the live preview's turnaround and a host's one-sheet build."""
    rows = []
    warm = "warm" if (proj / ".cache" / "pdf").is_dir() else "empty"
    first, serve_times = _serve_string_changes(proj, ("Un stylo chacun.", "Des stylos pour tous.",
                                                      "Un stylo par personne, et un de rechange."))
    rows.append(("serve: first build of everything", f"{first:.1f} s ({warm} cache before it)"))
    rows.append(("serve: one French string -> HTML + A4 and Letter PDFs",
                 f"{sorted(serve_times)[len(serve_times) // 2]:.2f} s median of "
                 f"{', '.join(f'{t:.2f}' for t in serve_times)} s (must stay under 1 s)"))
    host = copy_project(root / "host")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds, _ = _cli(host, "build", "--games", "bunco", "--locales", "ko", "--kinds", "tally-sheet",
                         "--papers", "a4", "--formats", "pdf", "--out", str(root / "host-out"),
                      label="one sheet, cold process")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime  # what a busy machine cannot inflate
    files = sorted(str(p.relative_to(root / "host-out")) for p in (root / "host-out").rglob("*") if p.is_file())
    rows.append(("cold process, empty cache: --games bunco --locales ko --kinds tally-sheet --papers a4 --formats pdf",
                 f"{seconds:.2f} s wall, {cpu:.2f} s CPU (must stay under 2.5 s); wrote {', '.join(files)}"))
    return rows


def _print(rows: list[tuple[str, str]], load_before: tuple[float, ...]) -> None:
    width = max(len(k) for k, _ in rows)
    # Wall-clock figures depend on what else the machine runs: the load average says how busy it was.
    load = "/".join(f"{x:.1f}" for x in load_before), "/".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"rulesheets bench ({os.cpu_count()} CPUs; load average 1/5/15 min {load[0]} before, {load[1]} after)")
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")


def main() -> None:
    if "--gate" in sys.argv[1:]:  # only the layout gate's cost (issue 26); --locales en,ko to take fewer
        args = sys.argv[1:]
        locales = tuple(args[args.index("--locales") + 1].split(",")) if "--locales" in args else ()
        with tempfile.TemporaryDirectory(prefix="rulesheets-bench-") as tmp:
            load = os.getloadavg()
            _print(_gate_rows(copy_project(Path(tmp) / "proj"), locales), load)
        return
    if "--targets" in sys.argv[1:]:  # only the issue-13 figures (quicker while working on them)
        with tempfile.TemporaryDirectory(prefix="rulesheets-bench-") as tmp:
            load = os.getloadavg()
            _print(_targets(Path(tmp), copy_project(Path(tmp) / "proj")), load)
        return
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="rulesheets-bench-") as tmp:
        root = Path(tmp)
        rows: list[tuple[str, str]] = []
        cold = {}
        stages = {}
        for jobs in (1, 2):
            proj = copy_project(root / f"cold{jobs}")
            seconds, stdout = _cli(proj, "build", "--jobs", str(jobs), label=f"cold --jobs {jobs}")
            cold[jobs] = (seconds, proj)
            stages[jobs] = _stages(stdout)
            detail = ", ".join(f"{k} {v:.1f}" for k, v in stages[jobs].items())
            rows.append((f"cold full build, --jobs {jobs}", f"{seconds:.1f} s (stages, s: {detail})"))
        rows.append(("--jobs 2 / --jobs 1", f"{cold[2][0] / cold[1][0]:.2f} (target <= 0.6)"))
        artifacts = len(json.loads((cold[1][1] / "output" / "manifest.json").read_text()))
        cpu = CPU["cold --jobs 1"]
        rows.append(("cold full build, CPU per artifact", f"{cpu / artifacts:.3f} s ({cpu:.1f} s of CPU for "
                                                          f"{artifacts} artifacts, --jobs 1, gate and fitting "
                                                          f"included; target <= 0.15 s)"))
        from generator.render import budget, fit

        rows.append(("render budgets", f"{fit.BUDGET} layouts per type-size search (grid {fit.FLOOR_PT:g} pt or "
                                       f"{fit.FLOOR:g}x up to {fit.CEILING:g}x, at most {fit.MAX_PT:g} pt), "
                                       f"{len(fit.TIGHTER_LINES)} more for a tail page; {budget.SECONDS} s of CPU "
                                       f"and {budget.MEGABYTES} MB per rendering worker"))
        proj = cold[2][1]
        out = proj / "output"
        weasy = _pure_weasyprint(proj)
        pure, per_locale = weasy["total"], weasy["per_locale"]
        rows.append(("pure WeasyPrint, same documents, one process", f"{pure:.1f} s"))
        rows.append(("  with ActualText, tags and PDF/UA-1 (issues 12, 30)",
                     f"{weasy['changed']:.1f} s ({(weasy['changed'] / pure - 1) * 100:+.1f} % time), "
                     f"{weasy['changed_bytes'] / 1024:.0f} KB of PDF against {weasy['bytes'] / 1024:.0f} KB "
                     f"({(weasy['changed_bytes'] / weasy['bytes'] - 1) * 100:+.1f} % bytes)"))
        for loc in discover_locales():
            t0, t1, b0, b1 = weasy["by_locale"][loc]
            rows.append((f"    {loc}", f"{(t1 / t0 - 1) * 100:+.1f} % time, {(b1 / b0 - 1) * 100:+.1f} % bytes"))
        site = stages[1].get("site", 0.0)
        same = weasy["changed"]
        rows.append(("pipeline overhead over pure WeasyPrint (--jobs 1)",
                     f"{((cold[1][0] - site) / same - 1) * 100:.1f} % over WeasyPrint making the same PDFs "
                     f"(with ActualText and tags; target <= 10 %), {((cold[1][0] - site) / pure - 1) * 100:.1f} % "
                     f"over WeasyPrint as shipped (the static site, {site:.1f} s more, is extra work pure "
                     f"WeasyPrint does not do; with it {(cold[1][0] / same - 1) * 100:.1f} % / "
                     f"{(cold[1][0] / pure - 1) * 100:.1f} %)"))
        rows.append(("  the same, against the mean of two renders", f"{((cold[1][0] - site) / weasy['changed_mean'] - 1) * 100:.1f} % "
                     f"(the build renders each document once; {weasy['changed_mean']:.1f} s against the best "
                     f"of two's {same:.1f} s)"))
        rows.append(("  of which outside the PDF stage", ", ".join(f"{k} {v:.1f} s" for k, v in stages[1].items()
                                                                   if k not in ("pdf", "site"))
                     + f"; PDF stage {stages[1].get('pdf', 0.0):.1f} s against {same:.1f} s"))
        noops = [_cli(proj, "build", label="no-op")[0] for _ in range(3)]
        noop = sorted(noops)[1]
        rows.append(("no-op rebuild", f"{noop:.2f} s, median of {', '.join(f'{t:.2f}' for t in noops)} s "
                                      f"({noop / cold[2][0] * 100:.1f} % of cold --jobs 2; target < 0.3 s)"))
        again, stdout = _cli(proj, "build", "--out", str(root / "again"), label="from the caches")
        rows.append(("site stage, cold, --jobs 2", f"{stages[2].get('site', 0.0):.2f} s (target <= 1.5 s)"))
        unchanged = _stages(stdout).get("site", 0.0)
        rows.append(("site stage, nothing changed", f"{f'{unchanged:.1f} s' if unchanged else 'under 0.05 s'} (target <= 0.2 s; a build "
                                                    f"into a fresh folder, every PDF and the site from the caches, {again:.1f} s in all)"))
        before = {e["path"]: e["sha256"] for e in json.loads((out / "manifest.json").read_text())}
        _change_french_string(proj)
        one, stdout = _cli(proj, "build", label="one French string")
        after = {e["path"]: e["sha256"] for e in json.loads((out / "manifest.json").read_text())}
        changed = sorted(p for p in after if before.get(p) != after[p])
        locales = sorted({p.split("/")[0] for p in changed})
        rows.append(("rebuild after one French string", f"{one:.1f} s; {stdout.split(':')[0]}; "
                                                         f"{len(changed)} artifacts changed, locales {locales}"))
        rows += _targets(root, proj)
        rows += _gate_rows(proj)
        fr = per_locale.get("fr", 1.0)
        for loc in discover_locales():
            rows.append((f"rulebook PDFs (A4, 3 games) in {loc}", f"{per_locale[loc]:.2f} s, {per_locale[loc] / fr:.2f}x French"))
        entries = json.loads((out / "manifest.json").read_text())
        for loc in discover_locales():
            pdfs = [e for e in entries if e["locale"] == loc and e["format"] == "pdf"]
            size = sum((out / e["path"]).stat().st_size for e in pdfs)
            pages = sum(e["pages"] for e in pdfs)
            rows.append((f"PDF bytes per page, {loc}", f"{size / pages / 1024:.1f} KB ({pages} pages)"))
        rows += _fidelity_rows(out, entries)
        for game in ("bunco", "stop-the-bus", "tonk", "call-break"):
            names = ",".join(f"Player {i}" for i in range(1, 49))
            _cli(proj, "kit", game, "--players", names, "--locale", "en", "--out", str(root / f"kit-{game}"),
                 label=f"48-player {game} kit")
        rows.append(("peak memory per build process (RSS)",
                     f"{max(PEAKS.values()):.0f} MB at most (target <= 200 MB): "
                     + ", ".join(f"{k} {v:.0f}" for k, v in PEAKS.items())))
        rows.append(("  the bench's own pure-WeasyPrint process", f"{weasy['rss_mb']:.0f} MB (all documents in one process)"))
        # The peer last: Chromium's processes are not build processes and must not count in the memory figure.
        peer = _peer(proj, out)
        if peer:
            w, plain, same = peer["weasyprint"], peer["chromium"], peer["chromium_same"]
            rows.append((f"peer: {peer['documents']} HTML artifacts on A4, best of two, interleaved",
                         f"WeasyPrint {w:.1f} s; Chromium {plain:.1f} s as a browser prints, {same:.1f} s asked "
                         f"for what our PDFs have (tags, outline, backgrounds, page numbers)"))
            rows.append(("WeasyPrint / Chromium", f"{w / plain:.2f} against the plain print, {w / same:.2f} like for like "
                                                  f"(target <= 1.5)"))
            for kind, (wk, ck, sk) in sorted(peer["by_kind"].items()):
                rows.append((f"  {kind}", f"WeasyPrint {wk:.1f} s, Chromium {ck:.1f} s / {sk:.1f} s: {wk / ck:.2f} / {wk / sk:.2f}"))
        site = out / "site"
        if site.is_dir():
            from generator.fonts.web import set_bytes

            files = [p for p in site.rglob("*") if p.is_file()]
            pdf = sum(p.stat().st_size for p in files if p.suffix == ".pdf")
            fonts = sum(p.stat().st_size for p in files if p.parent.name == "fonts")
            total = sum(p.stat().st_size for p in files)
            rows.append(("static site, total", f"{total / 1024:.0f} KB: pages and CSS {(total - pdf - fonts) / 1024:.0f} KB, "
                                               f"web fonts {fonts / 1024:.0f} KB, PDF copies {pdf / 1024:.0f} KB"))
            for name, size in sorted(set_bytes(site).items()):
                rows.append((f"  web fonts of '{name}'", f"{size / 1024:.1f} KB (limit 150 KB)"))
        _print(rows, load)


if __name__ == "__main__":
    main()
