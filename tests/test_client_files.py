"""The browser client's own files: nothing may need an emoji font, which stock Chromium on
Debian lacks (cards, icons and marks are inline SVG or bundled images instead)."""

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "static"
EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F]")


def test_no_client_file_draws_with_emoji():
    files = [p for p in STATIC.rglob("*") if p.suffix in {".js", ".css", ".html", ".svg"}
             and "vendor" not in p.parts]
    assert len(files) > 10
    found = {
        f"{p.relative_to(STATIC)}:{n}": EMOJI.findall(line)
        for p in files
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
        if EMOJI.search(line)
    }
    assert found == {}
