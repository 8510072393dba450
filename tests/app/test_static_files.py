"""The client's files are kept for good under the client's version, cached and revalidated
at their plain paths, and the page preloads its modules."""

import re

from app.config import project_path
from app.static_files import IMMUTABLE, module_graph, version

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


def test_the_page_names_its_files_under_the_clients_version_and_they_are_kept_for_good(live):
    client = live.client()
    page = client.get("/")
    assert page.headers["cache-control"] == "no-cache"
    current = f"/static/v/{version(STATIC)}/"
    named = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text)
    assert named and all(url.startswith(current) for url in named), named
    kept = client.get(f"{current}js/game.js")
    assert kept.headers["cache-control"] == IMMUTABLE
    assert kept.content == (STATIC / "js" / "game.js").read_bytes()
    # A page opened before an update asks for its own version: it gets today's file, which
    # it must not keep for good.
    older = client.get("/static/v/0123456789ab/js/game.js")
    assert older.status_code == 200 and older.headers["cache-control"] == "no-cache"
    assert client.get(f"{current}js/no-such-file.js").status_code == 404
    assert client.get(f"{current}../../../app/main.py").status_code == 404


def test_the_version_changes_with_any_file_of_the_client(tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("export const a = 1;\n")
    first = version(tmp_path)
    assert version(tmp_path) == first
    (tmp_path / "js" / "a.js").write_text("export const a = 2;\n")
    second = version(tmp_path)
    (tmp_path / "js" / "b.js").write_text("")
    assert len({first, second, version(tmp_path)}) == 3


def test_the_page_preloads_every_module_its_script_imports(live):
    r = live.client().get("/games/abc")
    assert r.headers["cache-control"] == "no-cache"
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', r.text)
    current = f"/static/v/{version(STATIC)}/"
    # Before the script, so they are fetched side by side from the start.
    assert r.text.index("modulepreload") < r.text.index(f'src="{current}js/main.js"')
    for module in [
        "js/game.js",
        "js/dom.js",
        "vendor/morphdom/morphdom.js",
        "vendor/fast-json-patch/core.js",
        "vendor/fast-json-patch/helpers.js",
        "js/table-events.js",
    ]:
        assert current + module in preloaded
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
