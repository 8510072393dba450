"""The shapes of what leaves the engine, as pydantic models: a seat's view, its legal moves and
a game's outcome, each game's own parts filled in (``Game.View``, ``Game.Move``,
``Game.Details``). They give the API's schema and the tests' checks; they are never built at
run time: views are plain dicts made once per version and shared by every socket, and
validating them there would cost more than making them. ``tests/engine/test_shapes.py``
checks every view of random games of every kind against them, so they cannot drift.

Models are named in the game's own words (``Card``, ``Seat``); ``schemas`` gives each its
game's prefix (``HikeCard``), so the games' models sit side by side in one document."""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from types import GenericAlias
from typing import Annotated, Any, Literal, Union, get_args

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.json_schema import models_json_schema

from engine.core import Game


class Shape(BaseModel):
    """A part of a view: every key it may have, and no other."""

    model_config = ConfigDict(extra="forbid")


class LogEntry(Shape):
    """One line of a game's public log."""

    text: str
    seat: int | None = Field(description="the seat it is about, if one")


class NoDetails(Shape):
    """The details of a game that ended before it was scored (a concession)."""


def prefix(game: Game[Any, Any]) -> str:
    """The game's id as a model name's start: ``camping-life`` gives ``CampingLife``."""
    return "".join(word.title() for word in re.split(r"[-_]", game.id))


def with_move(union: Any, extra: type[BaseModel]) -> Any:
    """The discriminated union of moves ``union`` with one more kind of move."""
    members, *_ = get_args(union)
    return Annotated[Union[(*get_args(members), extra)], Field(discriminator="type")]  # noqa: UP007


@functools.cache
def legal_move(game: Game[Any, Any]) -> type[BaseModel]:
    return create_model(
        "LegalMove",
        __base__=Shape,
        __doc__="A move the seat may make now, as a button shows it.",
        move=(game.Move, Field(description="send it back exactly as given")),
        label=(str, Field(description="the move in the game's words")),
    )


@functools.cache
def outcome(game: Game[Any, Any]) -> type[BaseModel]:
    details: Any = game.Details | NoDetails  # made at run time: no type expression spells it
    return create_model(
        "Outcome",
        __base__=Shape,
        __doc__="How the game ended.",
        scores=(list[int], Field(description="one per seat (none after a concession)")),
        winners=(list[int], Field(description="the winning seats")),
        details=(details, Field(description="the game's own breakdown")),
    )


@functools.cache
def view(game: Game[Any, Any]) -> type[BaseModel]:
    """What ``engine.core.full_view`` gives a seat of ``game``."""
    # Types made at run time, which no type expression spells.
    kind: Any = Literal[game.id]
    moves: Any = GenericAlias(list, legal_move(game))  # list[LegalMove]
    ended: Any = outcome(game) | None
    return create_model(
        "View",
        __base__=game.View,
        __doc__=f"What a seat sees of a {game.title} game.",
        game=(kind, Field(description="the game kind")),
        players=(int, ...),
        you=(int | None, Field(description="the viewer's seat; null for a spectator")),
        to_act=(list[int], Field(description="the seats that must decide now")),
        legal_moves=(
            moves,
            Field(description="what the viewer may do now; empty when it need not act"),
        ),
        last_decision=(
            int | None,
            Field(description="the log line (its number) of the latest decision a seat made"),
        ),
        outcome=(ended, Field(description="null while the game goes on")),
    )


def schemas(
    models: dict[str, Any],
    games: list[Game[Any, Any]],
    template: str,
    keep: Collection[str] = frozenset(),
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The JSON schemas of ``models`` (name: a function of the game giving a model) for each
    game, referring by ``template`` (``"#/components/schemas/{model}"``) to every model they
    use, named after its game but for those named in ``keep``, the same for every game: the
    referring schemas by name and game id, and the definitions."""
    found: dict[str, dict[str, Any]] = {}
    defs: dict[str, dict[str, Any]] = {}
    for game in games:
        start = prefix(game)
        chosen = [(name, make(game)) for name, make in models.items()]
        refs, schema = models_json_schema(
            [(model, "serialization") for _, model in chosen], ref_template="{model}"
        )
        names = {name: name if name in keep else start + name for name in schema.get("$defs", {})}

        def named(value: Any, names: dict[str, str] = names) -> Any:
            if isinstance(value, dict):
                if "propertyName" in value and "mapping" in value:  # a discriminator
                    return value | {
                        "mapping": {
                            tag: template.format(model=names[ref])
                            for tag, ref in value["mapping"].items()
                        }
                    }
                return {
                    k: template.format(model=names[v]) if k == "$ref" else named(v)
                    for k, v in value.items()
                }
            if isinstance(value, list):
                return [named(v) for v in value]
            return value

        for name, definition in schema.get("$defs", {}).items():
            # Titled by its name: a generated client names its classes after the titles.
            definition = named(definition) | {"title": names[name]}
            if defs.setdefault(names[name], definition) != definition:
                raise ValueError(f"{names[name]} differs from game to game")
        for (name, _), key in zip(chosen, refs.values(), strict=True):
            found.setdefault(name, {})[game.id] = named(key)
    return found, defs
