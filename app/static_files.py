"""The browser client's files as a browser should keep them.

The page names its files under ``/static/v/{version}/``, where the version is a hash of every
file of the client: a file there never changes, so a browser keeps it for a year and asks
nothing on the next visit (``Cache-Control: immutable``), and a new client is a new version.
The same file is served at its plain ``/static/`` path too, cached and revalidated
(``no-cache`` with its ``ETag``: answered 304 with no body until the file changes), and so is a
version the server no longer has (a page opened before an update). Modules import each other
by relative paths, so a module imported from a versioned file is versioned too.
The one page names every module its script imports (``<link rel="modulepreload">``), so the
browser fetches them side by side instead of one import level after another."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

REVALIDATE = "no-cache"
IMMUTABLE = "public, max-age=31536000, immutable"
VERSIONED = "v"  # /static/v/{version}/…
# `import … from "./x.js"` and `import "/static/…"` at the top of a module (not import()).
IMPORT = re.compile(r'^\s*import\s[^"\'()]*?["\']([^"\']+\.js)["\']', re.MULTILINE)
ENTRY = '<script type="module" src="/static/js/main.js"></script>'


def version(static_dir: Path) -> str:
    """A hash of every file of the client, their names and their bytes: the same on every
    instance that serves the same client."""
    digest = hashlib.sha256()
    for path in sorted(p for p in static_dir.rglob("*") if p.is_file()):
        digest.update(path.relative_to(static_dir).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def prefix(client_version: str) -> str:
    return f"/static/{VERSIONED}/{client_version}/"


class ClientFiles(StaticFiles):
    """StaticFiles (which answers ``If-None-Match`` with 304) serving each file at its plain
    path and under any version: kept for good under the current one, revalidated elsewhere."""

    def __init__(self, *, directory: Path, client_version: str) -> None:
        super().__init__(directory=directory)
        self.client_version = client_version

    def get_path(self, scope: Scope) -> str:
        path = super().get_path(scope)
        parts = path.split(os.sep)
        if len(parts) > 2 and parts[0] == VERSIONED:
            scope["static_version"] = parts[1]
            return os.path.join(*parts[2:])
        return path

    def file_response(
        self, full_path, stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        current = scope.get("static_version") == self.client_version
        response.headers["Cache-Control"] = IMMUTABLE if current else REVALIDATE
        return response


def module_graph(static_dir: Path, entry: str = "js/main.js") -> list[str]:
    """The URLs of every module ``entry`` imports, directly or not, in a stable order."""
    seen: list[str] = []
    todo = [f"/static/{entry}"]
    while todo:
        url = todo.pop(0)
        if url in seen:
            continue
        path = static_dir / url.removeprefix("/static/")
        if not path.is_file():
            continue
        seen.append(url)
        base = url.rsplit("/", 1)[0]
        for spec in IMPORT.findall(path.read_text()):
            if spec.startswith("/"):
                todo.append(spec)
            elif spec.startswith("."):
                parts = f"{base}/{spec}".split("/")
                resolved: list[str] = []
                for part in parts:
                    if part == "..":
                        resolved.pop()
                    elif part != ".":
                        resolved.append(part)
                todo.append("/".join(resolved))
    return seen[1:]


def index_page(static_dir: Path, client_version: str) -> str:
    """index.html naming its files under ``client_version``, with a modulepreload link for
    each module its script imports."""
    html = (static_dir / "index.html").read_text()
    links = "".join(
        f'<link rel="modulepreload" href="{url}">\n  ' for url in module_graph(static_dir)
    )
    return html.replace(ENTRY, links + ENTRY).replace('"/static/', f'"{prefix(client_version)}')
