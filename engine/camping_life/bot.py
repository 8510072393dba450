"""Camping Life bots. They decide only from the view dict and the legal moves."""

from __future__ import annotations

import random

from engine.core import random_bot

__all__ = ["random_bot"]
