"""What taking back a Camp Pinetop step says: the undo label quotes the step's first log line,
so that line names what the step did (the card paid, the card a camper left)."""

from engine.core import full_view
from engine.pinetop import GAME
from engine.pinetop.labels import card_label

from .conftest import RED, arrange, do

UNDO = {"type": "undo"}


def move(start, to, patch=False, tower=False):
    return {"type": "move", "start": start, "to": to, "patch": patch, "tower": tower}


def undo_label(s) -> str | None:
    entries = full_view(GAME, s, s.active, person=True)["legal_moves"]
    return next((e["label"] for e in entries if e["move"] == UNDO), None)


def test_a_payment_names_the_card_paid_and_cannot_be_taken_back():
    """A card paid leaves the hand face up: the others have seen it, so the payment (and the
    move it paid for) stays made, and its line says which card it was."""
    s = arrange(
        grid={1: "Penelope's Landing"}, campers={0: [RED]}, hands={RED: ["wood", "water", "food"]}
    )
    s = do(s, move(0, 1, patch=True))
    assert undo_label(s) is not None
    wood = s.hands[RED][0]
    s = do(s, {"type": "pay", "card": wood})
    assert [e.text for e in s.log] == [f"Red pays {card_label(wood)}."]
    assert undo_label(s) is None and s.undo == []


def test_a_move_by_the_towers_free_step_names_the_card_the_camper_left():
    s = arrange(
        options={"tower": True},
        grid={0: "Fern Hollow", 1: "Mossy Meadow", 4: "Penelope's Landing"},
        campers={0: [RED]},
        hands={RED: ["wood", "water"]},
    )
    s.tower = 2  # same row as the camper: a free step to 1, then down onto 4
    s = do(s, move(0, 4, patch=True, tower=True))
    line = (
        "Red moves from Fern Hollow by the tower's free step to Mossy Meadow, then to "
        "Penelope's Landing for Forager."
    )
    assert [e.text for e in s.log] == [line]
    assert undo_label(s) == f"Undo: {line}"
