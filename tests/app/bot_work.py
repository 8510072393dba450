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
