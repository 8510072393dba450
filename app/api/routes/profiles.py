"""Profiles and leaderboards, as JSON and as pages the server renders (readable without
JavaScript, like the rules)."""

from html import escape

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from app.api.deps import OptionalPlayer, SessionDep
from app.pages import _layout, not_found
from app.schemas import ErrorBody, RatingShown
from app.schemas_accounts import Leaderboard, Profile, ProfileSeat
from app.services import profiles, rating_rules
from app.services.errors import Problem
from app.services.games import bot_name
from engine.registry import GAMES

router = APIRouter(tags=["profiles"])
pages = APIRouter(include_in_schema=False)
# Leaderboard rows per page of the site.
PAGE = 50


@router.get(
    "/api/players/{handle}",
    summary="A player's profile",
    description="By handle, in any case: the name they show at tables, their rating in each "
    "game with the rated games played, and their latest rated games with links to replay "
    "them. Only rated games appear (every seat of one is a signed-in player or a bot), and "
    "private tables only to the player themself; guests have no profile (404).",
    responses={404: {"model": ErrorBody}},
)
async def profile(handle: str, session: SessionDep, player: OptionalPlayer) -> Profile:
    return await profiles.profile(session, handle, player.id if player else None)


@router.get(
    "/api/games/{kind}/leaderboard",
    summary="A game's leaderboard",
    description="The top 100 of a game by the conservative rating (`ranked_by`: the rating "
    "less three times its uncertainty), players and bot levels together, `limit` per page from "
    "`offset` (the previous page's `next_offset`). A player is listed once they have played "
    f"{rating_rules.LEADERBOARD_GAMES} rated games against {rating_rules.LEADERBOARD_OPPONENTS} "
    "different opponents (a bot level counts as one); every bot level that has played is, at "
    "its fixed place on the ladder. Provisional ratings (too few games to be sure) are marked.",
    responses={404: {"model": ErrorBody, "description": "unknown game kind"}},
)
async def leaderboard(
    kind: str,
    session: SessionDep,
    limit: int = Query(50, ge=1, le=profiles.LEADERBOARD_SIZE),
    offset: int = Query(0, ge=0, lt=profiles.LEADERBOARD_SIZE),
) -> Leaderboard:
    entries, next_offset = await profiles.leaderboard(session, kind, limit, offset)
    return Leaderboard(game=kind, title=GAMES[kind].title, entries=entries, next_offset=next_offset)


def _rating(rating: RatingShown) -> str:
    mark = (
        '<abbr title="provisional: too few games to be sure">?</abbr>' if rating.provisional else ""
    )
    return f'<span class="points">{rating.points}{mark}</span>'


def _who(handle: str | None, bot: str | None) -> str:
    if handle:
        return f'<a href="/players/{escape(handle)}">{escape(handle)}</a>'
    return escape(bot_name(bot or ""))


def _others(seats: list[ProfileSeat], handle: str) -> str:
    return ", ".join(_who(s.handle, s.bot) for s in seats if s.handle != handle)


def _place(place: int) -> str:
    return {0: "1st", 1: "2nd", 2: "3rd"}.get(place, f"{place + 1}th")


def profile_page(found: Profile) -> str:
    ratings = "".join(
        f'<tr><th scope="row"><a href="/leaderboard/{escape(r.game)}">{escape(r.title)}</a></th>'
        f"<td>{_rating(r.rating)}</td><td>{r.rating.games}</td></tr>"
        for r in found.ratings
    )
    games = "".join(
        f'<li class="profile-game"><a href="{escape(g.replay_url)}">{escape(g.title)}</a> · '
        f"<strong>{_place(g.place)}</strong> of {len(g.seats)} · "
        f"{g.points_before} → {g.points_after}"
        f'<div class="muted small">with {_others(g.seats, found.handle)}'
        f"{' · ' + g.finished_at.strftime('%d %b %Y') if g.finished_at else ''}</div></li>"
        for g in found.recent
    )
    body = (
        f'<section class="card profile"><h1>{escape(found.handle)}</h1>'
        f'<p class="muted">Plays as {escape(found.name)}</p>'
        "<h2>Ratings</h2>"
        + (
            f'<table class="ratings"><thead><tr><th scope="col">Game</th><th scope="col">Rating</th>'
            f'<th scope="col">Games</th></tr></thead><tbody>{ratings}</tbody></table>'
            if ratings
            else '<p class="empty">No rated games yet.</p>'
        )
        + "<h2>Recent rated games</h2>"
        + (
            f'<ol class="profile-games">{games}</ol>'
            if games
            else '<p class="empty">None yet: rated tables are started by signed-in hosts.</p>'
        )
        + "</section>"
    )
    return _layout(found.handle, body, "accounts")


def rules_text() -> str:
    """How the leaderboard and the ratings work, in the rules' own numbers."""
    r = rating_rules
    return (
        '<section class="board-rules small" data-testid="leaderboard-rules">'
        "<h2>How it works</h2><ul>"
        f"<li>Ranked by the sure part of a rating: the rating less three times its uncertainty, "
        f"so a few lucky games do not put a newcomer on top.</li>"
        f"<li>A player is listed after {r.LEADERBOARD_GAMES} rated games against "
        f"{r.LEADERBOARD_OPPONENTS} different opponents (each bot level counts as one).</li>"
        f"<li>A game conceded, or left by a player who never comes back, before every seat has "
        f"made {r.MIN_MOVES} moves is not rated.</li>"
        f"<li>Bots keep their place on the measured ladder: games against people never move "
        f"it. A win lifts a rating no higher than {r.REACH_POINTS} points above the best "
        f"opponent beaten: beating a much weaker bot or player gains nothing.</li>"
        f"<li>Several bots of one level at a table count as one opponent.</li>"
        f"<li>Each earlier rated game the same day with the same person halves a game's "
        f"change.</li></ul></section>"
    )


def leaderboard_page(board: Leaderboard, offset: int) -> str:
    rows = "".join(
        f'<tr><td>{e.rank}</td><th scope="row">{_who(e.handle, e.bot)}</th>'
        f"<td>{_rating(e.rating)}</td><td>{e.ranked_by}</td><td>{e.rating.games}</td></tr>"
        for e in board.entries
    )
    pager = []
    if offset > 0:
        pager.append(f'<a href="?offset={max(0, offset - PAGE)}">Better ranked</a>')
    if board.next_offset is not None:
        pager.append(f'<a href="?offset={board.next_offset}">Further down</a>')
    others = " · ".join(
        f'<a href="/leaderboard/{g.id}">{escape(g.title)}</a>'
        for g in GAMES.values()
        if g.id != board.game
    )
    body = (
        f'<section class="card leaderboard"><h1>{escape(board.title)} leaderboard</h1>'
        + (
            f'<table class="ratings"><thead><tr><th scope="col">#</th><th scope="col">Player</th>'
            f'<th scope="col">Rating</th><th scope="col"><abbr title="the rating less three '
            f'times its uncertainty">Ranked by</abbr></th><th scope="col">Games</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>"
            if rows
            else '<p class="empty">Nobody is rated in this game yet: play a rated table.</p>'
        )
        + '<p class="muted small">A rating marked ? is provisional: too few games to be sure.</p>'
        + (f'<p class="pager">{" · ".join(pager)}</p>' if pager else "")
        + rules_text()
        + f'<p class="small">Other games: {others}</p></section>'
    )
    return _layout(f"{board.title} leaderboard", body, "accounts")


@pages.get("/players/{handle}")
async def profile_html(
    handle: str, session: SessionDep, request: Request, player: OptionalPlayer
) -> Response:
    try:
        found = await profiles.profile(session, handle, player.id if player else None)
    except Problem as exc:
        return not_found(request, exc.detail)
    return HTMLResponse(profile_page(found))


@pages.get("/leaderboard/{kind}")
async def leaderboard_html(
    kind: str,
    session: SessionDep,
    request: Request,
    offset: int = Query(0, ge=0, lt=profiles.LEADERBOARD_SIZE),
) -> Response:
    if kind not in GAMES:
        return not_found(request, "There is no such game kind.")
    entries, next_offset = await profiles.leaderboard(session, kind, PAGE, offset)
    board = Leaderboard(
        game=kind, title=GAMES[kind].title, entries=entries, next_offset=next_offset
    )
    return HTMLResponse(leaderboard_page(board, offset))
