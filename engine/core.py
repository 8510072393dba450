"""The contract every game implements, and the helpers they share.

A game is pure: ``apply`` never mutates the state it is given, never reads a clock or global
random state, and all chance comes from the ``Rng`` carried inside the state.
"""

from __future__ import annotations

import contextlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_serializer

MASK64 = (1 << 64) - 1
_TWO64 = 1 << 64


class IllegalMove(Exception):
    """A move that is malformed or not allowed now; ``reason`` is for the player."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Rng(BaseModel):
    """SplitMix64: a tiny PRNG whose whole state is one integer, so it serialises with the game."""

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(state=seed & MASK64)

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates with ``below``; ``next64`` and ``below`` are written out here, with
        the state in a local, because a shuffle draws a number per item."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _TWO64 - _TWO64 % n
            while True:
                state = (state + 0x9E3779B97F4A7C15) & MASK64
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state


class _Once:
    """``functools.cached_property`` without the lock Python 3.11 takes on each first use:
    every log entry is shown once per version, and a lock each time costs twice the rest."""

    def __init__(self, build: Callable[[Any], Any]):
        self.build = build
        self.name = build.__name__
        self.__doc__ = build.__doc__

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.build(instance)
        return value


class Event(BaseModel):
    """One line of the public log: what happened, never anything hidden.

    Frozen, so that copies of a state can share the entries of a step.
    """

    model_config = ConfigDict(frozen=True, ignored_types=(_Once,))

    text: str
    seat: int | None = None

    @_Once
    def public(self) -> dict[str, Any]:
        """The entry as views show it (``log_view``), built once and shared by every view
        (views are read, never changed)."""
        return {"text": self.text, "seat": self.seat}


_event = Event.__pydantic_validator__.validate_python


class UndoPoint(BaseModel):
    """A state ``seat`` may return to within its turn (``engine.undo``), before one of its
    steps: the step's move and first log line. The turn's first point also holds the state
    before it (the state itself until stored, then JSON without the undo points: most points
    are dropped unstored); the states before later steps are that state with the moves of the
    steps between played again, so a turn of many steps stores one state, not one per step.
    (Points stored with a state each and no move stay valid.)"""

    model_config = ConfigDict(frozen=True)

    seat: int
    state: str | BaseModel | None = None
    move: dict[str, Any] | None = None
    step: str | None = None

    @field_serializer("state")
    def _state_json(self, state: str | BaseModel | None) -> str | None:
        if isinstance(state, BaseModel):
            return state.model_dump_json(exclude={"log", "undo"})
        return state


class BaseState(BaseModel):
    """Fields every game state has. Subclasses add the game's own.

    The state is the live game only; it keeps no history. ``log`` holds the entries of the
    step that made it (``setup`` or ``play``), for the caller to keep: it is not part of the
    state's JSON, so storing a state costs the same at move 900 as at move 9."""

    model_config = ConfigDict(validate_assignment=False)

    players: int
    rng: Rng
    log: list[Event] = Field(default=[], exclude=True)
    # How many entries the game's log had before this state's ``log``: the number of its
    # first entry. A count, not the entries; stored with ``log`` counted in, since a stored
    # state holds no log.
    logged: int = 0
    # The log line (its number) of the latest decision a seat made: the first line its move
    # wrote (later lines are what followed from it, a new turn's header, a clean-up).
    last_decision: int | None = None
    # Steps of the acting seat's turn that it may still take back, the latest last.
    undo: list[UndoPoint] = []
    # Steps taken back since the turn last moved on for good (``engine.undo``), at most
    # ``UNDOS_PER_TURN``.
    taken_back: int = 0

    @field_serializer("logged")
    def _logged_with_log(self, logged: int) -> int:
        return logged + len(self.log)

    def settled(self) -> BaseState:
        """This state as storing and loading it gives it back: its log counted, not held."""
        return self.model_copy(update={"log": [], "logged": self.logged + len(self.log)})

    def say(self, text: str, seat: int | None = None) -> None:
        # Validated by pydantic-core directly rather than through ``Event.__init__``: most
        # moves log a line, and some several.
        self.log.append(_event({"text": text, "seat": seat}))


class Outcome(BaseModel):
    """The final result: one score per seat, the winning seats, and a per-game breakdown."""

    scores: list[int]
    winners: list[int]
    details: dict[str, Any] = {}


S = TypeVar("S", bound=BaseState)
M = TypeVar("M", bound=BaseModel)


class StateBot(ABC, Generic[S, M]):
    """A bot that plays from the state rather than the view (``engine.search``): it must read
    of the state only what its seat may see, which each game's tests check by dealing the rest
    again and comparing the search's ``Trace``."""

    @abstractmethod
    def decide(
        self,
        game: Game[S, M],
        state: S,
        seat: int,
        legal: list[M],
        rng: random.Random,
        budget: int | None = None,
    ) -> Any: ...


Bot = Callable[[dict[str, Any], list[Any], random.Random], Any] | StateBot[Any, Any]
"""A bot sees exactly what its seat sees (the view), the legal moves, and its own RNG; a
``StateBot`` is given the state and keeps to the same."""


class Game(ABC, Generic[S, M]):
    """One game kind. Subclasses fill in the class attributes and the rule methods."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[BaseModel]]
    State: type[S]  # a class attribute too: a ``ClassVar`` cannot hold ``S``
    # The moves as a discriminated union by ``type``, and its adapter.
    Move: ClassVar[Any]
    move_adapter: TypeAdapter[M]  # as ``State``
    # The shapes of ``view``'s dict and of ``Outcome.details`` (``engine.shapes``), for the
    # API's schema and the tests: never built at run time.
    View: ClassVar[type[BaseModel]]
    Details: ClassVar[type[BaseModel]]
    bots: ClassVar[dict[str, Bot]]

    # By position only, so that a game may give its rule functions themselves as methods.
    @abstractmethod
    def setup(self, players: int, options: Any, seed: int) -> S: ...  # the game's ``Options``

    @abstractmethod
    def to_act(self, state: S, /) -> list[int]:
        """The seats that must decide now; empty once the game is over."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int, /) -> list[M]:
        """Every move ``seat`` may make now (empty if it need not act)."""

    @abstractmethod
    def apply(self, state: S, seat: int, move: M, /) -> S:
        """The next state; raises ``IllegalMove``. Must not mutate ``state``."""

    def advance(self, state: S, seat: int, move: M, /) -> S:
        """``apply`` for a game no person will take back (bots' playouts and searches): a game
        with undo points leaves none, which spares it a copy of the state per step. ``move``
        is one of ``legal_moves(state, seat)``: a game may skip checking it again."""
        return self.apply(state, seat, move)

    @abstractmethod
    def view(self, state: S, seat: int | None, /) -> dict[str, Any]:
        """The game-specific part of what ``seat`` may see (``None``: a spectator)."""

    @abstractmethod
    def outcome(self, state: S, /) -> Outcome | None: ...

    def take_back_moves(self, state: S, seat: int, /) -> list[dict[str, Any]]:
        """Entries for a person's legal moves beyond the game's own: taking back a step
        (``engine.undo``). Bots are never offered them."""
        return []

    def seat_name(self, seat: int) -> str:
        """How the game's log names a seat."""
        return f"Player {seat + 1}"

    def describe(self, state: S, seat: int, move: M, /) -> str:
        """A short label for a legal move, shown on its button."""
        return move.model_dump_json()

    def labelled(self, state: S, seat: int, legal: list[M], /) -> list[dict[str, Any]]:
        """The legal moves as views show them: each one's JSON and its label."""
        return [{"move": move_json(m), "label": self.describe(state, seat, m)} for m in legal]

    def catalog(self) -> dict[str, Any]:
        """The game's components as JSON-ready data, the same for every table."""
        return {}

    def options(self, data: dict[str, Any] | None) -> BaseModel:
        try:
            return self.Options.model_validate(data or {})
        except ValidationError as exc:
            raise IllegalMove(f"Invalid options: {_first_error(exc)}") from exc

    def parse_move(self, data: Any) -> M:
        try:
            return self.move_adapter.validate_python(data)
        except ValidationError as exc:
            raise IllegalMove(f"Not a valid move: {_first_error(exc)}") from exc

    def load(self, data: dict[str, Any]) -> S:
        return self.State.model_validate(data)

    def load_json(self, text: str | bytes) -> S:
        """``load`` from the stored JSON text: pydantic parses it straight into the state,
        without the dict that decoding it first would build."""
        return self.State.model_validate_json(text)

    def dump(self, state: S) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def dump_json(self, state: S) -> str:
        """``dump`` as JSON text, several times faster than encoding ``dump``'s dict."""
        return state.model_dump_json()


def copy_model(model: M, changes: dict[str, Any]) -> M:
    """``model.model_copy(update=changes)`` (shallow, not validated) at a fraction of its
    cost, for models without private or extra attributes: a playout copies its state on
    every move."""
    if model.__pydantic_private__ is not None or model.__pydantic_extra__ is not None:
        return model.model_copy(update=changes)
    return unchecked(
        type(model), {**model.__dict__, **changes}, model.__pydantic_fields_set__.union(changes)
    )


def unchecked(model: type[M], fields: dict[str, Any], fields_set: set[str]) -> M:
    """``model(**fields)`` without validating ``fields``, which the rules have built valid: a
    move builds a few models, and validating each costs more than the rest of its making.
    For models without private or extra attributes; ``fields_set`` as pydantic would have it."""
    # object.__new__ is what pydantic models use; read from the model class it would take the
    # slow path of pydantic's metaclass, which defines __getattr__.
    new = _new(model)
    _set_dict(new, fields)
    _set_fields_set(new, fields_set)
    _set_extra(new, None)
    _set_private(new, None)
    return new


_new = object.__new__
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    msg = err["msg"]
    if err["type"] == "union_tag_invalid":
        # pydantic quotes the tag it was sent, which may be any text at all.
        msg = f"expected one of {err['ctx']['expected_tags']}"
    return f"{where}: {msg}" if where else msg


def check_players(game: Game[Any, Any], players: int) -> None:
    if not game.min_players <= players <= game.max_players:
        raise IllegalMove(
            f"{game.title} is for {game.min_players} to {game.max_players} players, not {players}."
        )


def play(game: Game[S, M], state: S, seat: int, move: M | dict[str, Any]) -> S:
    """Apply one move with the checks shared by every game: parsed, not over, seat to act.
    The new state's ``log`` holds the entries this move produced, and only those."""
    if isinstance(move, dict):
        move = game.parse_move(move)
    if game.outcome(state) is not None:
        raise IllegalMove("The game is over.")
    if seat not in game.to_act(state):
        raise IllegalMove("It is not your turn.")
    return step(game, state, seat, move)


def step(game: Game[S, M], state: S, seat: int, move: M, *, take_back: bool = True) -> S:
    """``game.apply`` without ``play``'s checks, its ``log`` cut to the entries it produced.
    A game's ``apply`` extends the log it was given (its ``say`` calls append); what was
    there before belongs to the step before, and is counted in ``logged``.
    ``take_back=False``: ``game.advance``, for games only bots play, which leaves no undo point."""
    after = (game.apply if take_back else game.advance)(state, seat, move)
    seen = len(state.log)
    fields = after.__dict__
    if seen:
        fields["log"] = after.log[seen:]
    fields["logged"] = state.logged + seen
    if fields["log"]:
        fields["last_decision"] = fields["logged"]
    return after


def full_view(
    game: Game[S, M],
    state: S,
    seat: int | None,
    legal: list[M] | None = None,
    *,
    person: bool = False,
) -> dict[str, Any]:
    """Everything that leaves the engine for a seat goes through here: one projection.
    ``legal``: the seat's legal moves, when the caller has them already."""
    outcome = game.outcome(state)
    entries: list[dict[str, Any]] = []
    if seat is not None and outcome is None:
        legal = game.legal_moves(state, seat) if legal is None else legal
        entries = game.labelled(state, seat, legal) if legal else []
        if person and legal:  # a person's view, not a bot's: it may offer to take a step back
            entries += game.take_back_moves(state, seat)
    return {
        "game": game.id,
        "players": state.players,
        "you": seat,
        "to_act": game.to_act(state),
        "legal_moves": entries,
        "last_decision": state.last_decision,
        "outcome": outcome.model_dump(mode="json") if outcome else None,
        **game.view(state, seat),
    }


def keep(cache: dict[Any, Any], key: Any, value: Any, kept: int) -> None:
    """``cache[key] = value``, the oldest entry dropped once ``cache`` holds ``kept``: the
    identity caches that let views share what did not change, sized for every game a busy
    server has in play at once."""
    if len(cache) >= kept and key not in cache:
        # The app may rebuild a replay on a worker thread while its loop builds views: the
        # oldest entry another thread dropped meanwhile is dropped already.
        with contextlib.suppress(RuntimeError, KeyError, StopIteration):
            del cache[next(iter(cache))]
    cache[key] = value


def log_view(entries: Iterable[Event]) -> list[dict[str, Any]]:
    """What a seat may read of log entries: the one projection of the log, for every channel
    (socket, REST, replay). Entries are public, the same for every seat and spectator."""
    return [e.public for e in entries]


_MOVE_JSON: dict[int, tuple[BaseModel, dict[str, Any]]] = {}
"""The JSON of frozen moves, by id (the move kept alive here, so the id is not reused):
games build their legal moves once, so the same move objects come back step after step."""
_MOVE_JSON_KEPT = 4096


def move_json(move: BaseModel) -> dict[str, Any]:
    """``move.model_dump(mode="json")``, shared between views for a frozen move."""
    hit = _MOVE_JSON.get(id(move))
    if hit is not None and hit[0] is move:
        return hit[1]
    data = move.model_dump(mode="json")
    if move.model_config.get("frozen"):
        keep(_MOVE_JSON, id(move), (move, data), _MOVE_JSON_KEPT)
    return data
