"""The typed parts of the API's schema that depend on which games the server plays: each
game's view with its table (``engine.shapes`` and the table the server adds), its moves, its
options and its outcome, and the enum of game kinds. The fields that carry them are plain
dicts at run time (views are built once and shared, never validated on their way out); in
the schema they refer to these components (``ref``), which ``openapi`` adds to the document
for the games registered when it is built.

The same models give the socket messages' schemas (``app.protocol``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, WithJsonSchema, create_model

from engine import shapes
from engine.core import Game
from engine.levels import LEVELS
from engine.shapes import LogEntry, Shape

TEMPLATE = "#/components/schemas/{model}"
GameStatus = Literal["active", "finished", "aborted"]
EndedBy = Literal["concession"]


REF = "x-campground-ref"
"""Marks where ``openapi`` puts a ``$ref`` to a component of this module: pydantic looks up
every ``$ref`` beside which a field has a description, and finds none of these."""


def ref(name: str) -> Any:
    """A dict at run time, the component ``name`` in the schema."""
    return WithJsonSchema({REF: name})


def resolve(value: Any, components: dict[str, Any]) -> Any:
    """``value`` (a JSON schema) with each ``ref`` made a ``$ref`` to its component, or the
    component itself where it is a union: generated clients resolve references to models and
    enums, not to unions."""
    if isinstance(value, dict):
        if REF in value:
            rest = {k: resolve(v, components) for k, v in value.items() if k != REF}
            target = components[value[REF]]
            if "oneOf" in target or "anyOf" in target:
                return target | rest
            return {"$ref": TEMPLATE.format(model=value[REF])} | rest
        return {k: resolve(v, components) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, components) for v in value]
    return value


GameKindId = Annotated[str, ref("GameKindId")]
"""A game kind's id: an enum of the games this server plays."""
Level = Annotated[str, ref("Level")]
"""A bot level's id: an enum of the levels the games offer. Text at run time, so that an
unknown one is refused with a sentence that names it."""


class RatingPoints(Shape):
    points: int
    provisional: bool


class RatingChange(Shape):
    """What a rated game did to a seat's rating."""

    before: RatingPoints
    after: RatingPoints


class RatingNow(RatingPoints):
    games: int = Field(description="rated games played")


class SeatAtTable(Shape):
    seat: int
    name: str
    bot: Level | None = Field(description="the bot level playing the seat; null: a person")
    handle: str | None = Field(description="the player's sign-in handle; null for a guest")
    rating: RatingNow | None = Field(description="signed-in players and bots")
    rating_change: RatingChange | None = Field(description="once the game was rated")
    conceded: bool
    stand_in: str | None = Field(
        description="why the stand-in bot plays this person's seat for good (conceded, suspended)"
    )
    away: bool = Field(description="the seat's time ran out: the stand-in bot plays it")
    deadline: str | None = Field(description="when the seat's time runs out (ISO 8601)")
    bank: int | None = Field(
        description="seconds in the bank of a person not to act now (the "
        "time their next turn starts with); null while their deadline "
        "runs, for a bot or a seat it plays, and on an untimed table"
    )


class Table(Shape):
    """The table around the game: the same for every seat and spectator."""

    game_id: str
    kind: str
    title: str
    status: GameStatus
    speed: str | None = Field(description="the speed's id; null: a per-move clock")
    pace: Literal["real time", "turn-based", "untimed"]
    speed_name: str = Field(description='in words: "Real time · 3 min + 15 s a move"')
    turn_seconds: int | None = Field(description="a per-move clock's seconds; null otherwise")
    private: bool
    rated: bool
    unrated_because: str | None
    seats: list[SeatAtTable]
    rematch_lobby_id: str | None
    rematch_status: Literal["open", "started", "closed"] | None = Field(
        description="the rematch lobby's status, once someone asked for one"
    )
    rematch_game_id: str | None = Field(description="the rematch's game, once it started")
    stand_in_bot: str = Field(description="who plays a seat a person gave up: Casual bot")
    seed_commitment: str = Field(description="SHA-256 of the seed, published at the start")
    seed: str | None = Field(description="the seed, once the game has ended (as text)")


SHARED = {
    "LogEntry",
    "NoDetails",
    "Undo",
    "SeatAtTable",
    "RatingPoints",
    "RatingChange",
    "RatingNow",
}
"""Models that are the same in every game: named once, without a game's prefix."""


def optional(model: type[BaseModel]) -> Any:
    """``model | None``: a union made at run time, which no type can describe."""
    return model | None


def outcome(game: Game) -> type[BaseModel]:
    return create_model(
        "Outcome",
        __base__=shapes.outcome(game),
        conceded=(list[int] | None, Field(None, description="the seats that conceded")),
        ended_by=(
            EndedBy | None,
            Field(None, description="a two-player game one seat gave up: nobody was scored"),
        ),
    )


def view(game: Game) -> type[BaseModel]:
    """A seat's view of a ``game`` table as the API gives it (``Snapshot.view``)."""
    table = create_model("Table", __base__=Table, options=(game.Options, ...))
    return create_model(
        "View",
        __base__=shapes.view(game),
        outcome=(optional(outcome(game)), Field(description="null while the game goes on")),
        table=(table, ...),
        log_length=(int, Field(description="how many entries the game's log has now")),
        log=(list[LogEntry], Field(description="the latest entries, oldest first")),
    )


def components(games: list[Game]) -> dict[str, dict[str, Any]]:
    """The schemas that ``ref`` refers to, for ``games``, and every model they use."""
    found, defs = shapes.schemas({"View": view, "Outcome": outcome}, games, TEMPLATE, SHARED)
    kinds = [game.id for game in games]
    per_game: dict[str, dict[str, Any]] = {}
    for game in games:
        start = shapes.prefix(game)
        # The move union, as the legal moves' entries give it.
        union = defs[f"{start}LegalMove"]["properties"]["move"]
        defs[f"{start}Move"] = {k: v for k, v in union.items() if k != "description"}
        per_game[game.id] = {
            "Move": {"$ref": TEMPLATE.format(model=f"{start}Move")},
            "Options": {"$ref": TEMPLATE.format(model=f"{start}Options")},
        }
    views = found["View"]
    typed = defs | {
        "GameKindId": {"type": "string", "enum": kinds, "title": "GameKindId"},
        "Level": {
            "type": "string",
            "title": "Level",
            "enum": list(
                dict.fromkeys(
                    [level.id for level in LEVELS]
                    + [level for game in games for level in game.bots]
                )
            ),
        },
        "GameView": {
            "oneOf": list(views.values()),
            "discriminator": {
                "propertyName": "game",
                "mapping": {kind: v["$ref"] for kind, v in views.items()},
            },
            "description": "A seat's view of a game: its kind's view, told by `game`.",
        },
        "Move": {
            "anyOf": [defs[per_game[kind]["Move"]["$ref"].rsplit("/", 1)[1]] for kind in kinds],
            "description": "A move of one of the games: its kind's, told by `type`.",
        },
        "Options": {
            "anyOf": [per_game[kind]["Options"] for kind in kinds],
            "description": "A table's options: its game kind's.",
        },
        "Outcome": {
            "anyOf": list(found["Outcome"].values()),
            "description": "How a game ended: its kind's outcome.",
        },
    }
    return resolve(typed, typed)
