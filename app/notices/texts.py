"""What a notice says, by kind, for a push and a mail alike."""

from __future__ import annotations

from dataclasses import dataclass

from engine.registry import get_game


@dataclass(frozen=True)
class Text:
    title: str
    body: str
    # Where a click goes, from the site's root: the table.
    path: str


def of(kind: str, game_kind: str | None, game_id: str | None, detail: str | None) -> Text:
    game = get_game(game_kind).title if game_kind else "Campground"
    path = f"/games/{game_id}" if game_id else "/"
    match kind:
        case "turn":
            return Text(f"Your turn at {game}", f"It is your move at {game}.", path)
        case "reminder":
            return Text(
                f"{detail} left at {game}",
                f"It is still your move at {game}, and {detail} of your time is left.",
                path,
            )
        case "ended" if detail == "aborted":
            return Text(
                f"{game} was stopped", f"Your game of {game} was aborted: nobody wins.", path
            )
        case "ended":
            return Text(
                f"{game} has ended", f"Your game of {game} is over: see how it ended.", path
            )
        case "rematch":
            return Text(
                f"A rematch of {game}?",
                f"A player of your game of {game} asks for a rematch.",
                path,
            )
        case "invite":
            return Text(f"{game} has started", f"The table you joined at {game} has started.", path)
        case "chat":
            return Text(f"Chat at {game}", detail or "", path)
    raise ValueError(kind)
