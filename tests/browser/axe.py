"""axe-core (vendored from npm, tests/browser/vendor/axe-core) run inside a page, and the
page's outline of headings."""

from pathlib import Path

from playwright.sync_api import Page

AXE = Path(__file__).with_name("vendor") / "axe-core" / "axe.min.js"
_SOURCE = AXE.read_text(encoding="utf-8")
# Moderate on axe's scale, but every page keeps to them: one h1, no level skipped.
HEADING_RULES = ["heading-order", "page-has-heading-one"]


def serious_violations(page: Page) -> list[str]:
    """The serious and critical accessibility violations on the page as it is now, and any
    of the heading rules'."""
    # Evaluated through the browser's debugging channel: the page's CSP forbids inline scripts.
    if not page.evaluate("() => typeof axe === 'object'"):
        page.evaluate(_SOURCE)
    found = page.evaluate(
        """async (headingRules) => {
        const result = await axe.run(document, { resultTypes: ["violations"] });
        return result.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical" || headingRules.includes(v.id))
          .map((v) => `${v.id} (${v.impact}): ${v.help} — ` +
                      v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", "));
    }""",
        HEADING_RULES,
    )
    return found


def heading_problems(page: Page) -> list[str]:
    """What is wrong with the page's outline: not exactly one h1, a heading before it, or a
    level skipped on the way down. Headings not drawn (a closed disclosure's) are left out;
    visually hidden ones are read by screen readers, so they count."""
    levels = page.evaluate("""() => [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")]
        .filter((el) => el.getClientRects().length > 0)
        .map((el) => [Number(el.tagName[1]), el.textContent.trim().slice(0, 40)])""")
    problems = []
    if [level for level, _ in levels].count(1) != 1:
        problems.append(f"{[level for level, _ in levels].count(1)} h1 headings")
    if levels and levels[0][0] != 1:
        problems.append(f"the first heading is h{levels[0][0]} {levels[0][1]!r}, not the h1")
    problems += [
        f"h{level} {text!r} follows h{before}"
        for (before, _), (level, text) in zip(levels, levels[1:])
        if level > before + 1
    ]
    return problems


def page_problems(page: Page) -> list[str]:
    """``serious_violations`` and ``heading_problems`` together."""
    return serious_violations(page) + heading_problems(page)
