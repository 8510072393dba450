"""Draws the app's icons: the design is the SVG below, written to ``static/icons/app.svg`` and
rendered to PNG by Chromium at each size a phone's home screen asks for (``make icons``).

A tent under a moon on the camp's green. "any" icons have rounded corners; the maskable one
(and Apple's, which iOS rounds itself) fills its square, with everything inside the middle
80 % that a launcher's mask always keeps.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

DESIGN = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
<rect width="512" height="512" rx="{corner}" fill="#2f6b3a"/>
<circle cx="372" cy="148" r="30" fill="#f4ecd8"/>
<circle cx="386" cy="138" r="26" fill="#2f6b3a"/>
<path d="M256 132 404 372H108z" fill="#f4ecd8"/>
<path d="M256 236 296 372H216z" fill="#2f6b3a"/>
<rect x="92" y="372" width="328" height="18" rx="9" fill="#f4ecd8"/>
</svg>
"""

# name: (pixels, rounded corners)
PNGS = {
    "icon-192.png": (192, True),
    "icon-512.png": (512, True),
    "icon-maskable-512.png": (512, False),
    "apple-touch-icon.png": (180, False),
}


def main() -> None:
    (ICONS / "app.svg").write_text(DESIGN.format(corner=96), encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name, (size, rounded) in PNGS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = DESIGN.format(corner=96 if rounded else 0)
            page.set_content(
                "<style>html,body{margin:0;background:transparent}svg{display:block;"
                f"width:{size}px;height:{size}px}}</style>{svg}"
            )
            page.screenshot(path=str(ICONS / name), omit_background=True)
            page.close()
        browser.close()
    print("wrote", ", ".join(["app.svg", *PNGS]), "in", ICONS, file=sys.stderr)


if __name__ == "__main__":
    main()
