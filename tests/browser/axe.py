"""axe-core (vendored from npm, tests/browser/vendor/axe-core) run inside a page."""

from pathlib import Path

from playwright.sync_api import Page

AXE = Path(__file__).with_name("vendor") / "axe-core" / "axe.min.js"


def serious_violations(page: Page) -> list[str]:
    """The serious and critical accessibility violations on the page as it is now."""
    # Evaluated through the browser's debugging channel: the page's CSP forbids inline scripts.
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate("""async () => {
        const result = await axe.run(document, { resultTypes: ["violations"] });
        return result.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id} (${v.impact}): ${v.help} — ` +
                      v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", "));
    }""")
    return found
