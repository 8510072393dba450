"""Work for bot worker processes in tests: the real thinking, with a note of each call, and a
first call that hangs until it is killed or runs out of time."""

import os
import time
from pathlib import Path

from app.bots import think


def noting(notes: str, *args) -> dict:
    with open(notes, "a") as f:
        f.write(f"{os.getpid()}\n")
    return think(*args)


def hanging_once(notes: str, *args) -> dict:
    """The first call (no note yet) notes its process and hangs; later ones think."""
    first = not Path(notes).exists()
    with open(notes, "a") as f:
        f.write(f"{os.getpid()}\n")
    if first:
        time.sleep(600)
    return think(*args)


def hanging(notes: str, *args) -> dict:
    with open(notes, "a") as f:
        f.write(f"{os.getpid()}\n")
    time.sleep(600)
    return {}


def searching_once(
    notes: str,
    kind: str,
    state_json: str,
    seat: int,
    level: str,
    seed: str,
    budget: int | None = None,
) -> dict:
    """The first call notes its process and searches without end, until it is killed; later
    ones think with the budget they are given."""
    first = not Path(notes).exists()
    with open(notes, "a") as f:
        f.write(f"{os.getpid()}\n")
    if first:
        think(kind, state_json, seat, level, seed, 10**12)
    return think(kind, state_json, seat, level, seed, budget)


def niceness(*args) -> dict:
    """The worker's own niceness, where a move would be."""
    return {"niceness": os.nice(0)}
