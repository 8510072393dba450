"""Which supply cards can pay a requirement, and how few more cards a payment still needs.

A requirement is a supply (``wood``...), ``any`` (any card meets it), or ``tent:<colour>``
(a card with that tent symbol). A card meets one requirement per slot: a plain card has one
slot, a double card two (one per supply shown; a double wild's second slot is wild). A wild
slot meets anything. A grey patch lets any slot meet its supply. A card that is paid must meet
at least one requirement, so nobody discards more than a payment needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from engine.pinetop.cards import ANY, SUPPLY

TENT = "tent:"

Slot = frozenset[str] | None  # None: meets anything
Signature = tuple[str | tuple[str, ...], bool]  # (tent or supplies, wild): see below
Useful = tuple[tuple[str, ...], ...]  # a card's slots that can meet a cost: see ``_plan``

# What makes cards interchangeable for a payment: their supplies (or their tent) and wildness.
COST_SIGNATURE = [(c.suits, c.wild) for c in SUPPLY]
TENT_SIGNATURE = [(c.tent or "", c.wild) for c in SUPPLY]
# Each signature by its number in these lists, and each card's number: keys of small ints
# sort and hash faster than keys of signatures.
COST_KINDS = sorted(set(COST_SIGNATURE))
TENT_KINDS = sorted(set(TENT_SIGNATURE))
COST_KIND = [COST_KINDS.index(sig) for sig in COST_SIGNATURE]
TENT_KIND = [TENT_KINDS.index(sig) for sig in TENT_SIGNATURE]


@lru_cache(maxsize=1024)
def _slots(sig: Signature, tents: bool, greys: frozenset[str]) -> tuple[Slot, ...]:
    first, wild = sig
    if tents:
        assert isinstance(first, str)  # a tent signature
        return (None,) if wild else (frozenset({TENT + first, ANY}),)
    assert isinstance(first, tuple)  # a cost signature
    slots: list[Slot] = [frozenset({s, ANY} | greys) for s in first]
    if wild:
        slots.append(None)
    return tuple(slots)


def key(cards: Sequence[int], tents: bool) -> tuple[int, ...]:
    """The cards as a sorted tuple of their signatures' numbers: equal for interchangeable
    hands."""
    return tuple(sorted(map((TENT_KIND if tents else COST_KIND).__getitem__, cards)))


def is_tents(reqs: tuple[str, ...]) -> bool:
    return bool(reqs) and reqs[0].startswith(TENT)


def signatures(reqs: tuple[str, ...]) -> list[int]:
    """Each card's signature (its number) for paying ``reqs``: cards with the same one pay
    alike."""
    return TENT_KIND if is_tents(reqs) else COST_KIND


# What each card meets when paying from hand alone, if it meets at most one named supply or
# tent: that supply (``tent:<colour>``), WILD for a plain wild; a double card has no entry.
WILD = "*"
COST_MEETS = [
    WILD if c.wild and not c.suits else c.suits[0] if len(c.suits) + c.wild == 1 else None
    for c in SUPPLY
]
TENT_MEETS = [WILD if c.wild else TENT + (c.tent or "") for c in SUPPLY]


def needed(
    reqs: tuple[str, ...], paid: list[int], hand: list[int], greys: frozenset[str] = frozenset()
) -> int | None:
    """The fewest hand cards that, with every card of ``paid``, meet ``reqs``; None: impossible.

    ``greys``: the supplies any card may stand for (grey patches)."""
    tents = is_tents(reqs)
    if paid:
        meets = TENT_MEETS if tents else COST_MEETS
        if any(meets[c] is None for c in paid):
            return needed_by_key(reqs, key(paid, tents), key(hand, tents), greys)
        return paying(hand, tents, greys, paid)(reqs)
    return paying(hand, tents, greys)(reqs)


def paying(
    hand: list[int], tents: bool, greys: frozenset[str] = frozenset(), paid: Sequence[int] = ()
) -> Callable[[tuple[str, ...]], int | None]:
    """``needed`` of ``paid`` and ``hand`` for costs all of tents (``tents``) or all of
    supplies, the cards counted once for them all.

    With no double card, every requirement takes a card of its own, and any card meets
    ``any`` and the supplies of grey patches ("flexible" requirements). The cards paid must
    each meet one (Mendelsohn and Dulmage: a payment that meets every requirement and uses
    every card paid exists when each can be had alone): a card paid goes to its own named
    requirement while one is left, else to a flexible one. And all of them can be met when
    the named ones take their own cards first, the wilds fill what they lack, and cards
    enough are left for the rest."""
    meets = TENT_MEETS if tents else COST_MEETS
    have: dict[str | None, int] = {}
    for card in hand:
        mark = meets[card]
        have[mark] = have.get(mark, 0) + 1
    if None in have:
        paid_key, hand_key = key(paid, tents), key(hand, tents)
        return lambda reqs: needed_by_key(reqs, paid_key, hand_key, greys)
    put: dict[str, int] = {}
    for card in paid:
        mark = meets[card]
        assert mark is not None  # ``needed`` sends here only paid cards of one mark
        put[mark] = put.get(mark, 0) + 1
        have[mark] = have.get(mark, 0) + 1
    cards, wilds = len(hand) + len(paid), have.get(WILD, 0)

    def needed_now(reqs: tuple[str, ...]) -> int | None:
        if cards < len(reqs) or len(paid) > len(reqs):
            return None
        named: dict[str, int] = {}
        for req in reqs:
            if req != ANY and req not in greys:
                named[req] = named.get(req, 0) + 1
        lacking = 0
        for req, count in named.items():
            lacking += max(0, count - have.get(req, 0))
        if lacking > wilds:
            return None
        if paid:
            flexible = len(reqs) - sum(named.values())
            for mark, count in put.items():
                if mark != WILD:
                    flexible -= max(0, count - named.get(mark, 0))
            if flexible < 0:
                return None
        return len(reqs) - len(paid)

    return needed_now


@lru_cache(maxsize=65536)
def needed_by_key(
    reqs: tuple[str, ...],
    paid_key: tuple[int, ...],
    hand_key: tuple[int, ...],
    greys: frozenset[str],
) -> int | None:
    """``needed`` for hands already turned into keys (see ``key``).

    Each card is first cut to the slots that can meet one of ``reqs``, so that hands which
    differ only in cards of no use here share one search."""
    order, useful = _plan(reqs, greys)
    paid = sorted(map(useful.__getitem__, paid_key))
    if paid and not paid[0]:
        return None  # a paid card must meet a requirement
    # A card that is used meets at least one requirement: more copies of one kind of card than
    # there are requirements never help.
    hand: list[Useful] = []
    last: Useful | None = None
    run = 0
    for slots in sorted(map(useful.__getitem__, hand_key)):
        if slots:
            run = run + 1 if slots == last else 1
            last = slots
            if run <= len(reqs):
                hand.append(slots)
    if all(len(c) == 1 for c in paid) and all(len(c) == 1 for c in hand):
        return _matched(order, paid, hand)
    return _needed(order, tuple(paid), tuple(hand))


def _matched(reqs: tuple[str, ...], paid: list[Useful], hand: list[Useful]) -> int | None:
    """``_needed`` when every card has one slot (no double card): a payment is then a
    matching of requirements to cards, one each, and always takes one hand card for each
    requirement the paid cards leave. It exists when the paid cards can all be matched and
    all the requirements can be (Mendelsohn and Dulmage: then one matching does both)."""
    if len(paid) > len(reqs):
        return None
    paid_slots = [c[0] for c in paid]
    if _matching(reqs, paid_slots) < len(paid) or _matching(
        reqs, paid_slots + [c[0] for c in hand]
    ) < len(reqs):
        return None
    return len(reqs) - len(paid)


def _matching(reqs: tuple[str, ...], slots: list[tuple[str, ...]]) -> int:
    """The size of a largest matching of ``reqs`` to ``slots`` (a slot meets what it lists;
    ``()`` anything), by augmenting paths."""
    holder = [-1] * len(slots)  # per slot: the requirement it meets

    def place(i: int, seen: list[bool]) -> bool:
        req = reqs[i]
        for j, slot in enumerate(slots):
            if seen[j] or (slot and req not in slot):
                continue
            seen[j] = True
            if holder[j] < 0 or place(holder[j], seen):
                holder[j] = i
                return True
        return False

    return sum(place(i, [False] * len(slots)) for i in range(len(reqs)))


@lru_cache(maxsize=4096)
def _plan(reqs: tuple[str, ...], greys: frozenset[str]) -> tuple[tuple[str, ...], list[Useful]]:
    """The requirements in the order they are searched (``any`` last), and each signature's
    slots that can meet one of them, each as a sorted tuple of what it meets (``()``:
    anything), the slots sorted: equal for cards that serve alike, empty for a useless card."""
    tents = is_tents(reqs)
    wanted = frozenset(reqs)
    useful: list[Useful] = []  # by signature number
    kinds: Sequence[Signature] = TENT_KINDS if tents else COST_KINDS
    for sig in kinds:
        out: list[tuple[str, ...]] = []
        for slot in _slots(sig, tents, greys):
            if slot is None:
                out.append(())
            elif slot & wanted:
                out.append(tuple(sorted(slot & wanted)))
        useful.append(tuple(sorted(out)))
    return tuple(sorted(reqs, key=lambda r: (r == ANY, r))), useful


@lru_cache(maxsize=16384)
def _needed(
    reqs: tuple[str, ...], paid: tuple[Useful, ...], hand: tuple[Useful, ...]
) -> int | None:
    # Every card as [slots, free slots, is_paid, used]; hand cards with the same slots are
    # interchangeable, so only the first unused one of them is ever tried.
    cards: list[list[Any]] = [[sig, list(sig), True, False] for sig in paid]
    cards += [[sig, list(sig), False, False] for sig in hand]
    best: list[int | None] = [None]
    # No payment takes fewer hand cards than the requirements the paid cards' slots leave,
    # each hand card meeting at most as many as it has slots: the search stops there.
    widest = max(map(len, hand), default=1)
    fewest = max(0, -(-(len(reqs) - sum(map(len, paid))) // widest))

    def dfs(i: int, hand_used: int) -> None:
        least = best[0]
        if least is not None and (hand_used >= least or least == fewest):
            return
        if i == len(reqs):
            if all(c[3] for c in cards if c[2]):
                best[0] = hand_used
            return
        req = reqs[i]
        tried_new: set[Useful] = set()
        for c in cards:
            sig, slots, is_paid, used = c
            if not used and not is_paid:
                if sig in tried_new:
                    continue
                tried_new.add(sig)
            for k, slot in enumerate(slots):
                if slot and req not in slot:
                    continue
                if k and slots[k - 1] == slot:
                    continue  # the same slot as the previous one: no new choice
                del slots[k]
                c[3] = True
                dfs(i + 1, hand_used + (0 if used or is_paid else 1))
                c[3] = used
                slots.insert(k, slot)

    dfs(0, 0)
    return best[0]


def can_pay(
    reqs: tuple[str, ...], hand: list[int], spare: int = 0, greys: frozenset[str] = frozenset()
) -> bool:
    """Whether ``hand`` meets ``reqs`` and still keeps ``spare`` cards (gifts to give)."""
    n = needed(reqs, [], hand, greys)
    return n is not None and len(hand) - n >= spare
