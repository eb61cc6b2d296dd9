"""`rulesheets serve`: build once, serve the folder on 127.0.0.1, rebuild on every save and reload open pages.

Served HTML pages get a small script that asks the server (every half second) whether a newer build
exists and reloads when one does; while the last rebuild failed, they also get a banner with the error.
Both are added to the responses only: the files on disk are exactly what `rulesheets build` writes.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import signal
import sys
import threading
import time
from dataclasses import replace
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from typing import TYPE_CHECKING

from generator.commands import options

from generator.core import lifecycle
from generator.core.errors import InputError, Problem, RulesheetsError
from generator.output import folder as output
from generator.core.paths import CACHE_DIR, GAMES_DIR, LOCALES_DIR, TEMPLATES_DIR

if TYPE_CHECKING:
    from generator.pipeline.build import Options

HELP = "live preview: build, serve on 127.0.0.1, rebuild and reload pages on every change"


def add_arguments(v) -> None:
    options.add_selection(v)
    options.add_outputs(v, "preview folder (default: a folder in the cache)")
    v.add_argument("--port", type=options.port, default=8000, metavar="N",
                   help="port on 127.0.0.1: 1 to 65535 (default 8000; 0 picks a free one)")
    options.add_sheet_options(v)


def run(args) -> int:
    opts = options.build_options(options.with_project(args))
    options.check_patch_versions(pdfs="pdf" in opts.formats)
    return serve(opts, port=args.port, out=args.out)

STATE_URL = "/__rulesheets__/state"
#: Kept short and self-contained: it is the only script a page ever gets, and only from this server.
RELOAD_SCRIPT = """<script>(function () {
  var seen = %d;
  function poll() {
    fetch("%s", {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (s) {
      if (s.generation !== seen) { location.reload(); } else { setTimeout(poll, 500); }
    }).catch(function () { setTimeout(poll, 1000); });
  }
  setTimeout(poll, 500);
})();</script>"""
BANNER = ('<div id="rulesheets-error" role="alert" style="position:sticky;top:0;z-index:9999;margin:0;padding:.6rem 1rem;'
          'background:#8b0000;color:#fff;font:14px/1.4 monospace;white-space:pre-wrap">%s</div>')
WATCHED = {".yaml", ".po", ".toml", ".j2", ".css"}


class State:
    """The last build's outcome, shared by the rebuild loop and the request threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.generation = 0
        self.error: str | None = None

    def finished(self, error: str | None) -> None:
        with self.lock:
            self.generation += 1
            self.error = error

    def snapshot(self) -> tuple[int, str | None]:
        with self.lock:
            return self.generation, self.error


def inject(page: str, generation: int, error: str | None) -> str:
    """The page as served: the reload script before </body>, and the error banner at the top of <body>."""
    script = RELOAD_SCRIPT % (generation, STATE_URL)
    end = page.rfind("</body>")
    page = page[:end] + script + page[end:] if end >= 0 else page + script
    if error:
        banner = BANNER % html.escape("rulesheets: the last rebuild failed; showing the previous build.\n" + error)
        start = page.find("<body")
        at = page.find(">", start) + 1 if start >= 0 else 0
        page = page[:at] + banner + page[at:]
    return page


#: The names a request may give in its Host header: the loopback address served on, and its name.
LOOPBACK_NAMES = ("127.0.0.1", "localhost")


def host_allowed(host: str | None, port: int) -> bool:
    """Only `127.0.0.1[:port]` and `localhost[:port]`: a page elsewhere that rebinds its own name to
    127.0.0.1 (DNS rebinding) sends its own name and is refused."""
    if not host:
        return False
    name, _, given = host.strip().lower().rpartition(":") if host.count(":") == 1 else (host.strip().lower(), "", "")
    return name in LOOPBACK_NAMES and given in ("", str(port))


class _Handler(SimpleHTTPRequestHandler):
    state: State

    def log_message(self, format, *args):  # the terminal is for builds and errors, not every request
        pass

    def log_error(self, format, *args):  # nor for requests refused (a bad Host, a bad path)
        pass

    def parse_request(self) -> bool:
        """Refuse, before any file is looked at, a foreign Host (421) and a path no file can have (400)."""
        if not super().parse_request():
            return False
        if not host_allowed(self.headers.get("Host"), self.server.server_address[1]):
            self.send_error(421, "Misdirected Request: this preview answers only to 127.0.0.1 and localhost")
            return False
        from urllib.parse import unquote

        path = unquote(self.path.split("?", 1)[0].split("#", 1)[0], errors="strict")
        if not path.startswith("/") or any(ord(c) < 32 or c == "\x7f" for c in path):
            self.send_error(400, "Bad Request: not a path of this preview")
            return False
        return True

    def translate_path(self, path: str) -> str:
        """The file a path names, never outside the served folder: a link leading out reads as missing."""
        local = super().translate_path(path)
        root = os.path.realpath(self.directory)
        real = os.path.realpath(local)
        if real != root and not real.startswith(root + os.sep):
            return os.path.join(root, "__rulesheets__", "outside")  # does not exist: 404
        return local

    def handle_one_request(self):
        try:
            super().handle_one_request()
        except (ValueError, UnicodeError):  # whatever a client sends, it never reaches the terminal
            with contextlib.suppress(Exception):
                self.send_error(400, "Bad Request")

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == STATE_URL:
            generation, error = self.state.snapshot()
            return self._send(json.dumps({"generation": generation, "error": error}).encode(), "application/json")
        if path == "/":
            root = Path(self.directory)
            target = "/site/index.html" if (root / "site" / "index.html").is_file() else "/__rulesheets__/index"
            self.send_response(302)
            self.send_header("Location", target)
            self.end_headers()
            return None
        if path == "/__rulesheets__/index":
            return self._send_page(self._listing())
        local = Path(self.translate_path(path))
        if local.is_dir() and (local / "index.html").is_file():
            if not path.endswith("/"):
                return super().do_GET()  # the standard redirect to the folder with a slash
            local = local / "index.html"
        if local.suffix == ".html" and local.is_file():
            try:
                return self._send_page(local.read_text(encoding="utf-8"))
            except OSError:
                pass
        return super().do_GET()

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")  # a preview is always the latest build
        super().end_headers()

    def _send_page(self, page: str) -> None:
        generation, error = self.state.snapshot()
        self._send(inject(page, generation, error).encode("utf-8"), "text/html; charset=utf-8")

    def _send(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _listing(self) -> str:
        """A plain list of every artifact (a selection without the site still has something to open)."""
        try:
            entries = json.loads((Path(self.directory) / "manifest.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            entries = []
        items = "".join(f'<li><a href="/{html.escape(e["path"])}">{html.escape(e["path"])}</a></li>' for e in entries)
        return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>rulesheets preview</title></head>'
                f"<body><h1>rulesheets preview</h1><ul>{items}</ul></body></html>")


def _describe(exc: BaseException) -> str:
    """One line per problem, as the build command prints them."""
    import jinja2

    if isinstance(exc, jinja2.TemplateSyntaxError):
        where = f"templates/{exc.name}" if exc.name else (exc.filename or "templates")
        return f"{where}:{exc.lineno}: template syntax error: {exc.message}"
    if isinstance(exc, jinja2.TemplateError):
        return f"templates: {type(exc).__name__}: {exc}"
    if isinstance(exc, RulesheetsError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def _log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {lifecycle.printable(message)}", file=sys.stderr, flush=True)


def _watched(change, path: str) -> bool:
    p = Path(path)  # a folder moved out or in reports only itself: a locale's, say (no suffix)
    return (p.suffix in WATCHED or not p.suffix) and not p.name.startswith(".")


def serve(opts: Options, port: int = 8000, out: Path | None = None) -> int:
    """Build, serve on 127.0.0.1:port and rebuild on every change until stopped.

    Ctrl-C exits 0; SIGTERM and SIGHUP exit 128 + the signal, as for any command. `--out` obeys
    build's rule (a missing or empty folder, or a previous rulesheets output), and the folder is
    locked for as long as it is served.
    """
    if out is not None:
        target = output.check_target(out)
        shown_as = output.shown(out)
    else:
        target, shown_as = (CACHE_DIR / "serve").resolve(), "the preview folder"
    opts = replace(opts, out=target)
    from generator.pipeline.build import validate_options

    validate_options(opts)
    with output.locked(target, shown_as):
        return _serve(opts, port)


def _serve(opts: Options, port: int) -> int:
    from watchfiles import watch

    from generator.pipeline.preview import Preview

    state = State()
    handler = partial(type("Handler", (_Handler,), {"state": state}), directory=str(opts.out))
    try:
        server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        raise InputError(Problem("command line", None, f"--port {port}: {exc.strerror}")) from None
    lifecycle.keep_from_children(server.fileno())  # a PDF worker never keeps the port open
    server.daemon_threads = True
    try:
        opts.out.mkdir(parents=True, exist_ok=True)
        output.mark_preview(opts.out)
    except OSError as exc:
        server.server_close()
        raise InputError(Problem("command line", None, f"--out {opts.out} cannot be written ({exc.strerror})")) from None
    preview = Preview(opts, jobs=min(2, opts.jobs or 2))
    thread = threading.Thread(target=server.serve_forever, name="http", daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    roots = [p for p in (opts.games_dir or GAMES_DIR, TEMPLATES_DIR, opts.locales_dir or LOCALES_DIR) if p.is_dir()]
    stop = threading.Event()
    code = 0
    try:
        _log(f"building {opts.out} ...")
        _rebuild(preview, state, None)
        _log(f"serving {url} (Ctrl-C stops)")
        for changes in watch(*roots, watch_filter=_watched, stop_event=stop, debounce=300, step=30):
            paths = {Path(p) for _, p in changes}
            change = preview.classify(paths)
            if change or preview.pending or preview.prep is None:
                names = ", ".join(sorted(_short(p) for p in paths))
                _rebuild(preview, state, change, names)
    except KeyboardInterrupt as exc:  # Ctrl-C (exit 0: the usual way to stop), SIGTERM, SIGHUP
        signum = getattr(exc, "signum", None) or lifecycle.received or signal.SIGINT
        code = 0 if signum == signal.SIGINT else 128 + signum
    finally:
        stop.set()
        preview.close()  # first: a rebuild's workers are killed, not awaited
        server.shutdown()
        lifecycle.release(server.fileno())
        server.server_close()
    _log("stopped" if code == 0 else f"stopped by {lifecycle.signal_name(code - 128)}")
    return code


def _short(path: Path) -> str:
    for root in (TEMPLATES_DIR.parent, GAMES_DIR.parent.parent):
        if path.is_relative_to(root):
            return str(path.relative_to(root))
    return str(path)


def _rebuild(preview, state: State, change, what: str = "") -> None:
    start = time.perf_counter()
    try:
        stages = preview.build_all() if change is None else preview.apply(change)
        lifecycle.stop_if_signalled()  # one that came while a worker (PDF or fonts) was forked
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # a preview shows every failure and keeps serving the last good build
        message = _describe(exc)
        state.finished(message)
        for line in message.splitlines():
            _log(f"error: {line}")
        return
    state.finished(None)
    detail = ", ".join(f"{k} {v:.2f} s" for k, v in stages.items())
    _log(f"{'rebuilt after ' + what if what else 'built'} in {time.perf_counter() - start:.2f} s ({detail})")
