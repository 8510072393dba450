"""RFC 6902 JSON Patch between two views, fast.

``jsonpatch.make_patch`` diffs lists with difflib over JSON-encoded members: about 6 ms for a
late hike view (220 log lines), per connection and per move, on the event loop. Views change
little between versions (a log line appended, a few fields replaced, a card in or out of a
list), so a diff that trims each list's common head and tail finds the same small patches in
about 0.4 ms. A list that keeps nothing at either end and changes length (a new turn's legal
moves) is replaced whole, which is smaller than removing and adding every member. The tests
apply its patches with ``jsonpatch.apply_patch`` to random documents and to real views and
compare the result with the new view exactly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from itertools import compress, count
from operator import is_, is_not
from typing import Any

import orjson


def make_patch(old: Any, new: Any) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    _diff(old, new, "", ops)
    return ops


@lru_cache(maxsize=1024, typed=True)
def _pointer(key: str | int) -> str:
    """A key's step in a JSON Pointer (views use few keys, over and over)."""
    return "/" + str(key).replace("~", "~0").replace("/", "~1")


def _same(a: Any, b: Any) -> bool:
    """JSON equality: unlike ``==``, ``1``, ``1.0`` and ``true`` all differ."""
    if a is b:
        # Views share what did not change (log entries): the same object is the same JSON.
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is list:
        # ``==`` runs in C and settles most differences. Equal lists whose members are the very
        # same objects (small ints, shared strings and cards) are the same JSON; other equal
        # lists are when their encodings are.
        return a == b and (all(map(is_, a, b)) or _encoded(a) == _encoded(b))
    if kind is dict:
        # The same for dicts, keys compared in order (a key order that differs only costs a
        # larger patch).
        return a == b and (
            (all(map(is_, a, b)) and all(map(is_, a.values(), b.values())))
            or _encoded(a) == _encoded(b)
        )
    return a == b


def _encoded(value: Any) -> bytes:
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(value, separators=(",", ":")).encode()


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": path + _pointer(key)})
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": path + _pointer(key), "value": value})
                continue
            before = old[key]
            if before is value:
                continue
            kind = type(value)
            if kind is not type(before) or kind in _SCALARS:
                # Settled here, without a call: a scalar, or a member that changed its kind.
                if kind is not type(before) or before != value:
                    ops.append({"op": "replace", "path": path + _pointer(key), "value": value})
                continue
            # Most of a view is as it was: settled here without building the member's path.
            if before == value and len(value) <= _SMALL and _same(before, value):
                continue
            _diff(before, value, path + _pointer(key), ops)
    elif isinstance(old, list) and isinstance(new, list):
        _diff_lists(old, new, path, ops)
    elif not _same(old, new):
        ops.append({"op": "replace", "path": path, "value": new})


_SCALARS = (str, int, float, bool, type(None))
# Equal containers up to this size are compared by encoding them; larger ones are walked (a
# long log shares its entries, which the walk passes over without encoding them).
_SMALL = 16


def _identical(old: Iterable, new: Iterable, limit: int) -> int:
    """How many leading members (at most ``limit``) are the very same objects, counted in C:
    a view's log shares its entries with the view before, so a long log is passed over
    without a Python loop."""
    return min(next(compress(count(), map(is_not, old, new)), limit), limit)


def _diff_lists(old: list, new: list, path: str, ops: list[dict[str, Any]]) -> None:
    shorter = min(len(old), len(new))
    head = _identical(old, new, shorter)
    while head < shorter and _same(old[head], new[head]):
        head += 1
    tail = _identical(reversed(old), reversed(new), shorter - head)
    while tail < shorter - head and _same(old[-1 - tail], new[-1 - tail]):
        tail += 1
    if head == tail == 0 and len(old) != len(new):
        # Nothing kept at either end (a new turn's legal moves, a new hand): the new list whole
        # is smaller than a remove for every old member and an add for every new one.
        ops.append({"op": "replace", "path": path, "value": new})
        return
    old_mid, new_mid = old[head : len(old) - tail], new[head : len(new) - tail]
    if len(old_mid) == len(new_mid):
        for i, (a, b) in enumerate(zip(old_mid, new_mid)):
            _diff(a, b, f"{path}/{head + i}", ops)
        return
    # Removed from the back first, so every index stays right while the ops apply in order.
    for i in reversed(range(len(old_mid))):
        ops.append({"op": "remove", "path": f"{path}/{head + i}"})
    for i, value in enumerate(new_mid):
        ops.append({"op": "add", "path": f"{path}/{head + i}", "value": value})
