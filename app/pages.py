"""Pages served as HTML by the server itself, readable without JavaScript: the rules of each
game, and "not found"."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.exceptions import HTTPException

from engine.registry import GAMES

router = APIRouter(include_in_schema=False)

# Fields of a catalog entry worth showing on a card, in this order, with their labels.
FACTS = (
    ("pack", "pack"),
    ("colour", "tent"),
    ("cost", "cost"),
    ("points", "points"),
    ("miles", "miles"),
    ("spaces", "fits"),
    ("hand_limit", "hand size"),
    ("copies", "copies"),
)
TEXTS = ("text", "basic", "advanced")


def _layout(title: str, body: str, style: str | None = None) -> str:
    """A page of the site; ``style``: a stylesheet of static/ it needs besides the rules'."""
    extra = f'\n<link rel="stylesheet" href="/static/{style}.css">' if style else ""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} · Campground</title>
<link rel="icon" href="/static/icons/camp.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/app.css">
<link rel="stylesheet" href="/static/rules.css">{extra}
</head>
<body>
<header class="site"><a class="brand" href="/">Campground</a>
<nav aria-label="Rules">{
        "".join(f' <a href="/rules/{g.id}">{escape(g.title)}</a>' for g in GAMES.values())
    }</nav></header>
<main class="rules-page">
{body}
</main>
</body>
</html>
"""


def _fact(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _card(entry: dict[str, Any]) -> str:
    facts = "".join(
        f"<span><b>{label}</b> {escape(_fact(entry[key]))}</span>"
        for key, label in FACTS
        if entry.get(key) not in (None, "", [])
    )
    texts = "".join(
        f'<p class="{key}">{"Advanced: " if key == "advanced" else ""}{escape(entry[key])}</p>'
        for key in TEXTS
        if isinstance(entry.get(key), str) and entry[key]
    )
    return (
        f'<li class="rule-card"><strong>{escape(entry["name"])}</strong>'
        f'<div class="facts">{facts}</div>{texts}</li>'
    )


def gallery(catalog: dict[str, Any]) -> str:
    """Each list of named components in the game's catalog, drawn as cards."""
    parts = []
    for section, value in catalog.items():
        entries = list(value.values()) if isinstance(value, dict) else value
        if not entries or not all(isinstance(e, dict) and "name" in e for e in entries):
            continue
        title = section.replace("_", " ").capitalize()
        cards = "".join(_card(e) for e in entries)
        parts.append(f'<section><h2>{escape(title)}</h2><ul class="gallery">{cards}</ul></section>')
    return "".join(parts)


def rules_page(static_dir: Path, kind: str) -> str | None:
    game = GAMES.get(kind)
    text = static_dir / "rules" / f"{kind}.html"
    if game is None or not text.is_file():
        return None
    body = (
        text.read_text(encoding="utf-8")
        + f'<p><a class="button primary" href="/">Play {escape(game.title)}</a></p>'
        + gallery(game.catalog())
    )
    return _layout(f"Rules of {game.title}", body)


@router.get("/rules/{kind}")
async def rules(kind: str, request: Request) -> HTMLResponse:
    page = rules_page(request.app.state.settings.STATIC_DIR, kind)
    if page is None:
        raise HTTPException(404, "There is no such game.")
    return HTMLResponse(page)


def not_found(request: Request, detail: str) -> HTMLResponse | JSONResponse:
    """The API answers in JSON; a browser asking for a page gets the site's own page."""
    wants_page = "text/html" in request.headers.get("accept", "")
    if request.url.path.startswith(("/api/", "/ws/", "/static/")) or not wants_page:
        return JSONResponse({"detail": detail}, status_code=404)
    body = (
        "<h1>Nothing here</h1><p>This page does not exist, or no longer does: a game or "
        "lobby link may have a typing mistake.</p>"
        '<p><a class="button primary" href="/">Back to camp</a></p>'
    )
    return HTMLResponse(_layout("Not found", body), status_code=404)
