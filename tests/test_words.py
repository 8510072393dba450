"""What people read is worded, not abbreviated: "1 card", "3 cards", never "card(s)"."""

import io
import re
import tokenize
from pathlib import Path

from engine.words import plural

ROOT = Path(__file__).resolve().parents[1]
HEDGED = re.compile(r"[A-Za-z]\((?:s|es)\)")
# A JavaScript string or template literal; a template's ${…} parts are code, not text.
JS_TEXT = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`")
JS_CODE = re.compile(r"\$\{[^{}]*\}")


# An f-string's {…} parts are code, not text.
PY_CODE = re.compile(r"\{[^{}]*\}")


def python_texts(path: Path) -> list[str]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    strings = [t.string for t in tokens if t.type == tokenize.STRING]
    # Docstrings are for the code's readers.
    shown = [s for s in strings if not s.endswith(('"""', "'''"))]
    return [PY_CODE.sub("", s) if "f" in s.split(s[-1])[0].lower() else s for s in shown]


def js_texts(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [JS_CODE.sub("", found) for found in JS_TEXT.findall(text)]


def test_plural():
    assert [plural(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]


def test_no_text_hedges_a_plural():
    files = [*(ROOT / "engine").rglob("*.py"), *(ROOT / "app").rglob("*.py")]
    found = {
        f"{p.relative_to(ROOT)}: {t}" for p in files for t in python_texts(p) if HEDGED.search(t)
    }
    client = [
        p
        for p in (ROOT / "static").rglob("*")
        if p.suffix in {".js", ".html"} and "vendor" not in p.parts
    ]
    found |= {
        f"{p.relative_to(ROOT)}: {t}" for p in client for t in js_texts(p) if HEDGED.search(t)
    }
    assert len(files) > 50 and len(client) > 20
    assert found == set()
