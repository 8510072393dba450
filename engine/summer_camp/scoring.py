"""The final score: merit badges, the experience points of every card owned, lake points."""

from __future__ import annotations

from typing import Any

from engine.core import Outcome
from engine.summer_camp.board import LAKE_POINTS
from engine.summer_camp.cards import CARDS, COPIES
from engine.summer_camp.state import SummerCampState


def card_points(s: SummerCampState, seat: int) -> int:
    cards = s.hands[seat] + s.draws[seat] + s.discards[seat]
    if seat == s.active:
        cards = cards + [p.card for p in s.played]
    return sum(CARDS[COPIES[c]].points for c in cards)


def breakdown(s: SummerCampState, seat: int) -> dict[str, Any]:
    badges = [{"kind": b.kind, "points": b.points} for b in s.badges[seat]]
    badge_points = sum(b.points for b in s.badges[seat])
    cards = card_points(s, seat)
    lake = sum(LAKE_POINTS.get(pos, 0) for pos in s.pawns[seat])
    return {
        "seat": seat,
        "badges": badges,
        "badge_points": badge_points,
        "card_points": cards,
        "lake_points": lake,
        "snack_tokens": s.snacks[seat],
        "total": badge_points + cards + lake,
    }


def outcome(s: SummerCampState) -> Outcome | None:
    """Most points wins; a tie goes to the most snack bar tokens, then is shared."""
    if not s.over:
        return None
    rows = [breakdown(s, p) for p in range(s.players)]
    best = max((r["total"], r["snack_tokens"]) for r in rows)
    winners = [r["seat"] for r in rows if (r["total"], r["snack_tokens"]) == best]
    return Outcome(scores=[r["total"] for r in rows], winners=winners, details={"breakdown": rows})
