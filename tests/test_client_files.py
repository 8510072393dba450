"""The browser client's own files: nothing may need an emoji font, which stock Chromium on
Debian lacks (cards, icons and marks are inline SVG or bundled images instead); modules import
each other by relative paths; animations move and fade only."""

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "static"
EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f]")


def test_no_client_file_draws_with_emoji():
    files = [
        p
        for p in STATIC.rglob("*")
        if p.suffix in {".js", ".css", ".html", ".svg"} and "vendor" not in p.parts
    ]
    assert len(files) > 10
    found = {
        f"{p.relative_to(STATIC)}:{n}": EMOJI.findall(line)
        for p in files
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
        if EMOJI.search(line)
    }
    assert found == {}


def test_every_module_imports_the_others_by_relative_paths():
    """The page loads its modules under the client's version (/static/v/…): a module named by
    its plain path would be loaded a second time, with state of its own, and revalidated."""
    imports = re.compile(
        r"""^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']"""
        r"""|^\s*import\s*["']([^"']+)["']|\bimport\(\s*["'`]([^"'`]+)["'`]""",
        re.MULTILINE,
    )
    found = {
        f"{p.relative_to(STATIC)}: {spec}"
        for folder in ("js", "games")
        for p in (STATIC / folder).glob("*.js")
        for specs in imports.findall(p.read_text(encoding="utf-8"))
        for spec in specs
        if spec and not spec.startswith(("./", "../"))
    }
    assert found == set()
    assert "../vendor/morphdom/morphdom.js" in (STATIC / "js" / "dom.js").read_text()


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance of a ``#rrggbb`` colour."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_is_measured_as_wcag_does():
    assert round(contrast("#ffffff", "#000000"), 2) == 21.0
    assert round(contrast("#ffffff", "#767676"), 2) == 4.54


def test_white_text_on_every_summer_camp_pack_colour_reaches_4_5_to_1():
    """Card names (and the note under a card) are white on the pack's colour; the board's
    badge numbers are white on the same colours and on the lake's two badges."""
    from engine.summer_camp.cards import PACKS

    css = (STATIC / "games" / "summer-camp.css").read_text(encoding="utf-8")
    cards = dict(re.findall(r"\.card-face\.sc-pack-(\w+) \{ --card-colour: (#[0-9a-f]{6});", css))
    assert set(cards) == {"base", *PACKS}
    art = (STATIC / "games" / "summer-camp-art.js").read_text(encoding="utf-8")
    fills = dict(
        re.findall(r"(\w+): \"(#[0-9a-f]{6})\"", art.split("const PACK_FILL = {")[1].split("}")[0])
    )
    assert fills == cards
    medals = re.findall(r"medal\([^)]*\"(#[0-9a-f]{6})\"", art)
    assert len(medals) == 2
    low = {
        name: round(contrast("#ffffff", c), 2)
        for name, c in [*cards.items(), *zip(("lake", "all-star"), medals)]
        if contrast("#ffffff", c) < 4.5
    }
    assert low == {}


# What the compositor animates by itself; any other property is drawn again by the page,
# frame after frame, for as long as the animation runs.
COMPOSITED = {"transform", "opacity"}
KEYFRAMES = re.compile(r"@keyframes\s+([\w-]+)\s*\{((?:[^{}]*\{[^{}]*\})*)\s*\}")


def animated(css: str) -> dict[str, set[str]]:
    """Each ``@keyframes`` rule of ``css`` with the properties its frames set."""
    return {
        name: {
            declaration.split(":")[0].strip()
            for frame in re.findall(r"\{([^{}]*)\}", body)
            for declaration in frame.split(";")
            if ":" in declaration
        }
        for name, body in KEYFRAMES.findall(css)
    }


def test_every_animation_runs_on_the_compositor():
    """The last move's marks animate after every change, for every player who has not asked
    for reduced motion: a box-shadow in the arrival's frames cost the page about twice its
    drawing of the change (bench/motion_cost.py)."""
    found = {
        f"{p.relative_to(STATIC)} {name}": props - COMPOSITED
        for p in STATIC.rglob("*.css")
        if "vendor" not in p.parts
        for name, props in animated(p.read_text(encoding="utf-8")).items()
    }
    assert found, "no animation found: the pattern no longer reads the stylesheets"
    assert {where: props for where, props in found.items() if props} == {}


def test_an_animated_shadow_is_caught():
    css = "@keyframes glow { from { opacity: 0; box-shadow: 0 0 4px red; } to { opacity: 1; } }"
    assert animated(css) == {"glow": {"opacity", "box-shadow"}}
