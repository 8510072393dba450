"""The WebSocket protocol as an AsyncAPI 3 document, served at ``/asyncapi.json``: each
message's JSON Schema made from the models below and, for the views, from the games' own
(``app.shapes``). The messages are built as dicts where they are sent (``app.sockets``,
``app.ws``, ``app.guard``); ``tests/app/test_asyncapi.py`` checks every message a whole game
of each kind sends against this document."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema

from app import guard, shapes
from app.db import RETRY_AFTER
from app.schemas import LobbyOut
from app.shapes import TEMPLATE, components, resolve
from engine.core import Game


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


Ref = Annotated[Any, Field(description="the `ref` the client sent with its message, if any")]


class State(Message):
    """The whole view: on connect, after a `sync`, and unasked when the server may have
    missed changes; the client starts again from it."""

    type: Literal["state"]
    version: int = Field(description="moves played")
    view: Annotated[dict[str, Any], shapes.ref("GameView")]


class Operation(Message):
    """One RFC 6902 operation (the server sends add, remove and replace)."""

    op: Literal["add", "remove", "replace"]
    path: str = Field(description="a JSON Pointer into the view; `/log/-` appends a log line")
    value: Any = Field(None, description="add and replace: the new value")


class Patch(Message):
    """What changed since the view this socket was last sent (at `from`); `version == from`
    when the view changed without a move (an abort, a seat coming back)."""

    type: Literal["patch"]
    from_: int = Field(alias="from", description="the version the operations start from")
    version: int
    ops: list[Operation]


class Ack(Message):
    """The client's move `ref` is committed at `version`; the patch that shows it travels
    separately, and may come first."""

    type: Literal["ack"]
    ref: Ref
    version: int


class Error(Message):
    """A message refused; nothing was done, and the socket stays open."""

    type: Literal["error"]
    code: Literal[
        "illegal_move", "stale_version", "not_seated", "bad_request", "rate_limited", "unavailable"
    ]
    message: str = Field(description="for a person: the engine's reason for an illegal move")
    ref: Ref
    retry_after: int | None = Field(
        None, description="rate_limited and unavailable: seconds to wait before sending again"
    )


class ChatLine(Message):
    """A line of the table's chat, or a moderator's (its `id` and `seat` null)."""

    type: Literal["chat"]
    id: int | None = Field(description="the line's number; null for a moderator's line")
    seat: int | None = Field(description="the writer's seat; null for a moderator's line")
    name: str
    text: str
    at: str = Field(description="when, ISO 8601 in UTC")
    removes: int | None = Field(None, description="a moderator removed the line of this id")


class Rematch(Message):
    """A rematch of this finished game is open: its lobby."""

    type: Literal["rematch"]
    lobby_id: str


class Lobby(Message):
    """The lobby, on connect and after every change."""

    type: Literal["lobby"]
    lobby: LobbyOut


class Move(Message):
    type: Literal["move"]
    move: Annotated[dict[str, Any], shapes.ref("Move")] = Field(
        description="one entry's `move` from the view's legal_moves"
    )
    expect_version: int = Field(description="the version the move was chosen at")
    ref: Ref = None


class Sync(Message):
    """Asks for the whole view again (a `state`)."""

    type: Literal["sync"]
    ref: Ref = None


class Chat(Message):
    type: Literal["chat"]
    text: str = Field(description="1 to 300 characters")
    ref: Ref = None


class CloseReason(Message):
    """The reason of a 4429 or 1013 close, as JSON text."""

    retry_after: int = Field(description="seconds to wait before connecting again")
    message: str = Field(description="for a person")


SENT: dict[str, list[type[Message]]] = {
    "game": [State, Patch, Ack, Error, ChatLine, Rematch],
    "lobby": [Lobby, Error, ChatLine],
}
RECEIVED: dict[str, list[type[Message]]] = {"game": [Move, Chat, Sync], "lobby": [Chat]}
MESSAGES: dict[str, type[Message]] = {
    "state": State,
    "patch": Patch,
    "ack": Ack,
    "error": Error,
    "chatLine": ChatLine,
    "rematch": Rematch,
    "lobby": Lobby,
    "move": Move,
    "chat": Chat,
    "sync": Sync,
}
NAMES = {model: name for name, model in MESSAGES.items()}
CLOSES = (
    "Close codes: 4404 no such {what} (or a private one the caller may not watch); 4429 too "
    "many connections from this address or player, and 1013 try again later (too many sockets "
    "on this {what} or server, or the database away), each with a reason that is JSON "
    f"(`CloseReason`): the wait in seconds (`retry_after`, {guard.TRY_AGAIN_SECONDS} where "
    f"the refusal names none, {RETRY_AFTER} while the database is away) and a message; a "
    "client waits that long, or longer, before it connects again. 1009: a frame over 16 "
    "times MAX_MESSAGE_BYTES."
)
SOCKET = {
    "game": (
        "/ws/games/{game_id}",
        "game_id",
        "Live play: the view as JSON Patch, moves, chat. Without a seat the socket is a "
        "spectator's. " + CLOSES.format(what="game"),
    ),
    "lobby": (
        "/ws/lobbies/{lobby_id}",
        "lobby_id",
        "A lobby's changes and chat; 4400 a Host no invite link may be built for. "
        + CLOSES.format(what="lobby"),
    ),
}
BINDING = {
    "ws": {
        "query": {
            "type": "object",
            "properties": {
                "invite": {"type": "string", "description": "a private table's invite code"},
                "token": {
                    "type": "string",
                    "description": "a player's token (it shows in URLs: "
                    "prefer the Authorization header or the subprotocol)",
                },
            },
        },
        "headers": {
            "type": "object",
            "properties": {
                "Authorization": {"type": "string", "description": "Bearer <token>"},
                "Sec-WebSocket-Protocol": {
                    "type": "string",
                    "description": "campground, token.<token>: for a browser "
                    "script, which cannot set headers",
                },
            },
        },
        "bindingVersion": "0.1.0",
    }
}


def _asyncapi(value: Any) -> Any:
    """A JSON schema as AsyncAPI writes it: a discriminator is the property's name alone."""
    if isinstance(value, dict):
        return {
            k: v["propertyName"] if k == "discriminator" and isinstance(v, dict) else _asyncapi(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_asyncapi(v) for v in value]
    return value


def schemas(games: list[Game]) -> dict[str, Any]:
    models: list[type[Message]] = [*MESSAGES.values(), CloseReason]
    _, found = models_json_schema([(m, "serialization") for m in models], ref_template=TEMPLATE)
    typed = components(games)
    return _asyncapi(resolve(found["$defs"], typed) | typed)


def document(games: list[Game], version: str) -> dict[str, Any]:
    """The AsyncAPI 3 document of the sockets, from the server's point of view: what it
    sends and what it receives, for ``games``; its ``servers`` are the caller's to add."""
    channels: dict[str, Any] = {}
    operations: dict[str, Any] = {}
    for channel, (address, parameter, about) in SOCKET.items():
        used = SENT[channel] + RECEIVED[channel]
        channels[channel] = {
            "address": address,
            "parameters": {parameter: {"description": f"the {channel}'s id"}},
            "description": about,
            "messages": {NAMES[m]: {"$ref": f"#/components/messages/{NAMES[m]}"} for m in used},
            "bindings": BINDING,
        }
        for action, sent in (("send", SENT), ("receive", RECEIVED)):
            operations[f"{action}{channel.title()}"] = {
                "action": action,
                "channel": {"$ref": f"#/channels/{channel}"},
                "messages": [
                    {"$ref": f"#/channels/{channel}/messages/{NAMES[m]}"} for m in sent[channel]
                ],
            }
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Campground sockets",
            "version": version,
            "description": "Live play and lobbies over WebSocket: JSON text messages, each an "
            "object with a `type`. See docs/api.md; the HTTP API is at /openapi.json.",
        },
        "defaultContentType": "application/json",
        "channels": channels,
        "operations": operations,
        "components": {
            "messages": {
                name: {
                    "name": name,
                    "title": model.__name__,
                    "summary": (model.__doc__ or name).split("\n\n")[0].replace("\n", " "),
                    "payload": {"$ref": TEMPLATE.format(model=model.__name__)},
                }
                for name, model in MESSAGES.items()
            },
            "schemas": schemas(games),
        },
    }
