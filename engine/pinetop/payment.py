"""Which supply cards can pay a requirement, and how few more cards a payment still needs.

A requirement is a supply (``wood``...), ``any`` (any card meets it), or ``tent:<colour>``
(a card with that tent symbol). A card meets one requirement per slot: a plain card has one
slot, a double card two (one per supply shown; a double wild's second slot is wild). A wild
slot meets anything. A grey patch lets any slot meet its supply. A card that is paid must meet
at least one requirement, so nobody discards more than a payment needs.
"""

from __future__ import annotations

from functools import lru_cache

from engine.pinetop.cards import ANY, SUPPLY

TENT = "tent:"

Slot = frozenset[str] | None  # None: meets anything

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
def _slots(sig: tuple, tents: bool, greys: frozenset[str]) -> tuple[Slot, ...]:
    if tents:
        tent, wild = sig
        return (None,) if wild else (frozenset({TENT + tent, ANY}),)
    suits, wild = sig
    slots: list[Slot] = [frozenset({s, ANY} | greys) for s in suits]
    if wild:
        slots.append(None)
    return tuple(slots)


def key(cards: list[int], tents: bool) -> tuple[int, ...]:
    """The cards as a sorted tuple of their signatures' numbers: equal for interchangeable
    hands."""
    return tuple(sorted(map((TENT_KIND if tents else COST_KIND).__getitem__, cards)))


def is_tents(reqs: tuple[str, ...]) -> bool:
    return bool(reqs) and reqs[0].startswith(TENT)


def signatures(reqs: tuple[str, ...]) -> list[int]:
    """Each card's signature (its number) for paying ``reqs``: cards with the same one pay
    alike."""
    return TENT_KIND if is_tents(reqs) else COST_KIND


def needed(reqs: tuple[str, ...], paid: list[int], hand: list[int],
           greys: frozenset[str] = frozenset()) -> int | None:
    """The fewest hand cards that, with every card of ``paid``, meet ``reqs``; None: impossible.

    ``greys``: the supplies any card may stand for (grey patches)."""
    tents = is_tents(reqs)
    return needed_by_key(reqs, key(paid, tents), key(hand, tents), greys)


@lru_cache(maxsize=65536)
def needed_by_key(reqs: tuple[str, ...], paid_key: tuple, hand_key: tuple,
                  greys: frozenset[str]) -> int | None:
    """``needed`` for hands already turned into keys (see ``key``).

    Each card is first cut to the slots that can meet one of ``reqs``, so that hands which
    differ only in cards of no use here share one search."""
    order, useful = _plan(reqs, greys)
    paid = sorted(map(useful.__getitem__, paid_key))
    if paid and not paid[0]:
        return None  # a paid card must meet a requirement
    # A card that is used meets at least one requirement: more copies of one kind of card than
    # there are requirements never help.
    hand: list[tuple] = []
    last, run = None, 0
    for slots in sorted(map(useful.__getitem__, hand_key)):
        if slots:
            run = run + 1 if slots == last else 1
            last = slots
            if run <= len(reqs):
                hand.append(slots)
    return _needed(order, tuple(paid), tuple(hand))


@lru_cache(maxsize=4096)
def _plan(reqs: tuple[str, ...], greys: frozenset[str]) -> tuple[tuple[str, ...], list]:
    """The requirements in the order they are searched (``any`` last), and each signature's
    slots that can meet one of them, each as a sorted tuple of what it meets (``()``:
    anything), the slots sorted: equal for cards that serve alike, empty for a useless card."""
    tents = is_tents(reqs)
    wanted = frozenset(reqs)
    useful = []  # by signature number
    for sig in TENT_KINDS if tents else COST_KINDS:
        out = []
        for slot in _slots(sig, tents, greys):
            if slot is None:
                out.append(())
            elif slot & wanted:
                out.append(tuple(sorted(slot & wanted)))
        useful.append(tuple(sorted(out)))
    return tuple(sorted(reqs, key=lambda r: (r == ANY, r))), useful


@lru_cache(maxsize=16384)
def _needed(reqs: tuple[str, ...], paid: tuple, hand: tuple) -> int | None:
    # Every card as [slots, free slots, is_paid, used]; hand cards with the same slots are
    # interchangeable, so only the first unused one of them is ever tried.
    cards = [[sig, list(sig), True, False] for sig in paid]
    cards += [[sig, list(sig), False, False] for sig in hand]
    best = [None]

    def dfs(i: int, hand_used: int) -> None:
        if best[0] is not None and hand_used >= best[0]:
            return
        if i == len(reqs):
            if all(c[3] for c in cards if c[2]):
                best[0] = hand_used
            return
        req = reqs[i]
        tried_new: set = set()
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


def can_pay(reqs: tuple[str, ...], hand: list[int], spare: int = 0,
            greys: frozenset[str] = frozenset()) -> bool:
    """Whether ``hand`` meets ``reqs`` and still keeps ``spare`` cards (gifts to give)."""
    n = needed(reqs, [], hand, greys)
    return n is not None and len(hand) - n >= spare
