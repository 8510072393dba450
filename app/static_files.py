"""The browser client's files as a browser should keep them: every file under ``/static`` is
cached and revalidated (``Cache-Control: no-cache`` with its ``ETag``: a page opened again
asks, and is answered 304 with no body, until the file changes), and the one page names every
module its script imports (``<link rel="modulepreload">``), so the browser fetches them side by
side instead of one import level after another."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

REVALIDATE = "no-cache"
# `import … from "./x.js"` and `import "/static/…"` at the top of a module (not import()).
IMPORT = re.compile(r'^\s*import\s[^"\'()]*?["\']([^"\']+\.js)["\']', re.MULTILINE)
ENTRY = '<script type="module" src="/static/js/main.js"></script>'


class ClientFiles(StaticFiles):
    """StaticFiles (which answers ``If-None-Match`` with 304) telling browsers to revalidate."""

    def file_response(
        self, full_path, stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = REVALIDATE
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


def index_page(static_dir: Path) -> str:
    """index.html with a modulepreload link for each module its script imports."""
    html = (static_dir / "index.html").read_text()
    links = "".join(
        f'<link rel="modulepreload" href="{url}">\n  ' for url in module_graph(static_dir)
    )
    return html.replace(ENTRY, links + ENTRY)
