"""The client's files are cached and revalidated, and the page preloads its modules."""

import re

from app.config import project_path
from app.static_files import module_graph

STATIC = project_path("static")


def test_a_file_is_revalidated_and_answered_304_while_unchanged(live):
    client = live.client()
    first = client.get("/static/js/game.js")
    assert first.status_code == 200
    assert first.headers["cache-control"] == "no-cache"
    etag = first.headers["etag"]
    again = client.get("/static/js/game.js", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["cache-control"] == "no-cache"
    # Another file, or this one changed, is sent whole.
    other = client.get("/static/js/dom.js", headers={"If-None-Match": etag})
    assert other.status_code == 200 and other.content == (STATIC / "js" / "dom.js").read_bytes()


def test_the_page_preloads_every_module_its_script_imports(live):
    r = live.client().get("/games/abc")
    assert r.headers["cache-control"] == "no-cache"
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', r.text)
    # Before the script, so they are fetched side by side from the start.
    assert r.text.index("modulepreload") < r.text.index('src="/static/js/main.js"')
    for module in [
        "/static/js/game.js",
        "/static/js/dom.js",
        "/static/vendor/morphdom/morphdom.js",
        "/static/vendor/fast-json-patch/core.js",
        "/static/vendor/fast-json-patch/helpers.js",
        "/static/js/table-events.js",
    ]:
        assert module in preloaded
    assert len(preloaded) == len(set(preloaded))
    for module in preloaded:
        assert live.client().get(module).status_code == 200


def test_the_module_graph_follows_relative_and_absolute_imports(tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "vendor").mkdir()
    (tmp_path / "js" / "main.js").write_text(
        'import { a } from "./a.js";\nimport "/static/vendor/v.js";\n'
    )
    (tmp_path / "js" / "a.js").write_text(
        'import { b } from "../js/b.js";\nconst later = () => import("./lazy.js");\n'
    )
    (tmp_path / "js" / "b.js").write_text('import { a } from "./a.js";\n')
    (tmp_path / "vendor" / "v.js").write_text("export const v = 1;\n")
    assert module_graph(tmp_path) == ["/static/js/a.js", "/static/vendor/v.js", "/static/js/b.js"]
