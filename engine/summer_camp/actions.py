"""Card actions, and the prompts they open: what may answer each and what each answer does."""

from __future__ import annotations

from engine.core import IllegalMove
from engine.summer_camp.board import BRIDGES, FINAL_BRIDGE
from engine.summer_camp.cards import CARDS, COPIES, PACKS, PRICES
from engine.summer_camp.effects import (
    card_name,
    draw_and_say,
    gain_snacks_and_say,
    lose_snack,
    move_pawn,
    movable_paths,
    name,
    path_name,
)
from engine.summer_camp.moves import ChooseCard, ChoosePath, ChoosePile, ChoosePlayer, Done, Move
from engine.summer_camp.state import Prompt, SummerCampState, played
from engine.summer_camp.turn import display_keys, find, take_from_display, take_from_hand
from engine.words import plural

# Moves are frozen values: built once, not at every step.
CHOOSE_CARD = {key: ChooseCard(card=key) for key in CARDS}
CHOOSE_PATH = [ChoosePath(path=p) for p in range(3)]
CHOOSE_PILE = [ChoosePile(path=p) for p in range(3)]
CHOOSE_PLAYER = [ChoosePlayer(seat=p) for p in range(4)]
DONE = Done()

# Prompts answered at once when they have a single answer: nothing to decide.
AUTOMATIC = {"path", "bonus_move", "give"}
# Prompts that may stop once the action has been done once.
OPTIONAL = {"scavenger_hunt", "tie_dye", "gods_eye", "macaroni_sculpture"}


def opponents(s: SummerCampState, seat: int) -> list[int]:
    """The other seats, clockwise from ``seat``'s left."""
    return [(seat + k) % s.players for k in range(1, s.players)]


def keys(cards: list[int]) -> list[str]:
    return list(dict.fromkeys(map(COPIES.__getitem__, cards)))


def can_act(s: SummerCampState, seat: int, key: str, more: bool) -> bool:
    """Whether playing ``key`` for its action would do anything (``more``: the hand holds
    another card besides it)."""
    card = CARDS[key]
    a = card.action
    pawns = s.pawns[seat]
    if a == "none":
        return False
    if a == "move":
        return pawns[s.packs.index(card.pack)] < FINAL_BRIDGE
    if a in ("move_any", "tag", "capture_the_flag", "fishing"):
        return bool(movable_paths(s, seat))
    if a == "swim_practice":
        return min(pawns) < FINAL_BRIDGE
    if a == "water_skiing":
        return max(pawns) < FINAL_BRIDGE
    if a in ("scavenger_hunt", "macaroni_sculpture"):
        return more
    if a == "tie_dye":
        return more and bool(movable_paths(s, seat))
    if a == "gods_eye":
        return s.snacks[seat] >= 2 and bool(movable_paths(s, seat))
    if a == "take_display":
        return any(PRICES[k] <= card.amount for k in display_keys(s))
    if a == "cave_exploration":
        return any(s.piles)
    if a == "plant_identification":
        return bool(s.discards[seat])
    return True


def play_for_action(s: SummerCampState, seat: int, key: str) -> None:
    hand_after = list(s.hands[seat])
    i = find(hand_after, key)
    if i is None:
        raise IllegalMove(f"You have no {CARDS[key].name} in your hand.")
    hand_after.pop(i)
    card = CARDS[key]
    if card.action == "none":
        raise IllegalMove(f"{card.name} has no action: play it for 1 energy.")
    if not can_act(s, seat, key, bool(hand_after)):
        raise IllegalMove(f"{card.name}'s action would do nothing now: play it for 1 energy.")
    copy = take_from_hand(s, seat, key)
    s.played.append(played(copy, "action"))
    s.say(f"{name(seat)} plays {card.name}.", seat)
    _act(s, seat, key)


def _ask(s: SummerCampState, *prompts: Prompt) -> None:
    s.prompts = list(prompts) + s.prompts


def _act(s: SummerCampState, seat: int, key: str) -> None:
    card = CARDS[key]
    a, n = card.action, card.amount
    if a == "energy":
        s.energy += n
        s.say(f"{name(seat)} gains {n} energy.", seat)
    elif a == "snacks":
        gain_snacks_and_say(s, seat, n)
    elif a == "draw":
        draw_and_say(s, seat, n)
    elif a == "move":
        move_pawn(s, seat, s.packs.index(card.pack), n)
    elif a in ("move_any", "tag", "capture_the_flag", "fishing"):
        _ask(s, Prompt(kind="path", seats=[seat], card=key, spaces=n, paths=[0, 1, 2]))
    elif a in ("swim_practice", "water_skiing"):
        pawns = s.pawns[seat]
        target = min(pawns) if a == "swim_practice" else max(pawns)
        _ask(
            s,
            Prompt(
                kind="path",
                seats=[seat],
                card=key,
                spaces=1,
                paths=[p for p in range(3) if pawns[p] == target],
            ),
        )
    elif a in ("scavenger_hunt", "tie_dye", "gods_eye", "macaroni_sculpture"):
        _ask(s, Prompt(kind=a, seats=[seat], card=key, left=n))
    elif a in ("take_display", "cave_exploration", "plant_identification"):
        _ask(s, Prompt(kind=a, seats=[seat], card=key))
    elif a == "bird_feeder":
        s.bird_feeder = True
        s.say(f"{name(seat)}'s snack bar tokens are worth 2 energy this turn.", seat)
    elif a == "secret_admirer":
        s.energy += n
        s.say(f"{name(seat)} gains {n} energy.", seat)
        _ask(s, Prompt(kind="give", seats=[seat], card=key))
    elif a == "friendship_bracelet":
        draw_and_say(s, seat, n)
        _ask(s, Prompt(kind="give", seats=[seat], card=key))
    elif a == "candy_stash":
        gain_snacks_and_say(s, seat, n)
        for other in opponents(s, seat):
            gain_snacks_and_say(s, other, 1)
    elif a == "sing_along":
        draw_and_say(s, seat, n)
        for other in opponents(s, seat):
            draw_and_say(s, other, 1)
    elif a == "dodgeball":
        draw_and_say(s, seat, n)
        holding = [o for o in opponents(s, seat) if s.hands[o]]
        if holding:
            _ask(s, Prompt(kind="dodgeball", seats=holding, card=key))
    elif a == "tug_o_war":
        gain_snacks_and_say(s, seat, n)
        for other in opponents(s, seat):
            if s.snacks[other]:
                lose_snack(s, other)
                s.say(f"{name(other)} returns a snack bar token to the supply.", other)
    elif a == "bird_watching":
        draw_and_say(s, seat, n)
        _ask(s, Prompt(kind="bird_watching", seats=[seat], card=key, left=n))


def answers(s: SummerCampState, p: Prompt, seat: int) -> list[Move]:
    """Every answer ``seat`` may give to prompt ``p``."""
    if seat not in p.seats:
        return []
    k = p.kind
    more: list[Move] = [DONE] if p.done and k in OPTIONAL else []
    hand = keys(s.hands[seat])
    if k in ("path", "bonus_move"):
        allowed = p.paths if k == "path" else range(3)
        return [CHOOSE_PATH[i] for i in allowed if s.pawns[seat][i] < FINAL_BRIDGE]
    if k in ("scavenger_hunt", "macaroni_sculpture", "bird_watching", "dodgeball"):
        left = p.left if k != "dodgeball" else 1
        return ([CHOOSE_CARD[c] for c in hand] if left else []) + more
    if k == "tie_dye":
        ok = p.left and movable_paths(s, seat)
        return ([CHOOSE_CARD[c] for c in hand] if ok else []) + more
    if k == "gods_eye":
        can_pay = p.left and s.snacks[seat] >= 2
        return ([CHOOSE_PATH[i] for i in movable_paths(s, seat)] if can_pay else []) + more
    if k == "take_display":
        limit = CARDS[p.card].amount
        return [CHOOSE_CARD[c] for c in display_keys(s) if PRICES[c] <= limit]
    if k == "cave_exploration":
        return [CHOOSE_PILE[i] for i in range(3) if s.piles[i]]
    if k == "plant_identification":
        return [CHOOSE_CARD[c] for c in keys(s.discards[seat])]
    return [CHOOSE_PLAYER[o] for o in opponents(s, seat)]  # give


def settle(s: SummerCampState) -> None:
    """Drop prompts nobody can answer, and answer those with a single possible answer that
    decides nothing (one path to move on, one opponent, or done as the only choice)."""
    while s.prompts:
        p = s.prompts[0]
        if len(p.seats) > 1:
            return
        seat = p.seats[0]
        legal = answers(s, p, seat)
        if not legal:
            s.prompts.pop(0)
        elif legal == [DONE] or (len(legal) == 1 and p.kind in AUTOMATIC):
            answer(s, seat, legal[0])
        else:
            return


def answer(s: SummerCampState, seat: int, move: Move) -> None:
    p = s.prompts[0]
    if move not in answers(s, p, seat):
        raise IllegalMove(f"That does not answer the question now: {prompt_text(s, p)}")
    rest = s.prompts[1:]
    k = p.kind
    # ``move`` is one of ``answers``: each kind of prompt takes one kind of move.
    if k == "dodgeball":
        assert isinstance(move, ChooseCard)
        card = take_from_hand(s, seat, move.card)
        s.discards[seat].append(card)
        s.say(f"{name(seat)} discards {card_name(card)}.", seat)
        seats = [o for o in p.seats if o != seat]
        s.prompts = ([p.model_copy(update={"seats": seats})] if seats else []) + rest
        return
    s.prompts = rest
    if k in ("path", "bonus_move"):
        assert isinstance(move, ChoosePath)
        _move_on(s, seat, p, move.path)
    elif isinstance(move, Done):
        if k == "scavenger_hunt":
            draw_and_say(s, seat, p.done, "for Scavenger hunt")
    elif k in ("scavenger_hunt", "bird_watching", "tie_dye", "macaroni_sculpture"):
        assert isinstance(move, ChooseCard)
        card = take_from_hand(s, seat, move.card)
        s.discards[seat].append(card)
        s.say(f"{name(seat)} discards {card_name(card)}.", seat)
        again = p.model_copy(update={"left": p.left - 1, "done": p.done + 1})
        if k == "tie_dye":
            _ask(
                s, Prompt(kind="path", seats=[seat], card=p.card, spaces=1, paths=[0, 1, 2]), again
            )
        else:
            _ask(s, again)
            if k == "macaroni_sculpture":
                gain_snacks_and_say(s, seat, 3)
    elif k == "gods_eye":
        assert isinstance(move, ChoosePath)
        lose_snack(s, seat)
        lose_snack(s, seat)
        s.say(f"{name(seat)} returns 2 snack bar tokens to the supply.", seat)
        _ask(s, p.model_copy(update={"left": p.left - 1, "done": p.done + 1}))
        move_pawn(s, seat, move.path, 1)
    elif k == "take_display":
        assert isinstance(move, ChooseCard)
        _take(s, seat, p.card, move.card)
    elif k == "cave_exploration":
        assert isinstance(move, ChoosePile)
        s.own_table()
        card = s.piles[move.path].pop()
        s.discards[seat].append(card)
        s.say(
            f"{name(seat)} takes {card_name(card)} from the top of the "
            f"{PACKS[s.paths[move.path].pack]} pile onto their discard pile.",
            seat,
        )
    elif k == "plant_identification":
        # Only the pile's top card is shown to the others: the log names no card under it.
        assert isinstance(move, ChooseCard)
        pile = s.discards[seat]
        if COPIES[pile[-1]] == move.card:
            s.hands[seat].append(pile.pop())
            s.say(
                f"{name(seat)} takes {CARDS[move.card].name} from the top of their discard "
                "pile into their hand.",
                seat,
            )
        else:
            i = find(pile, move.card)
            assert i is not None  # the card is in the pile: an answer names only those
            s.hands[seat].append(pile.pop(i))
            s.say(f"{name(seat)} takes a card from their discard pile into their hand.", seat)
    else:  # give
        assert isinstance(move, ChoosePlayer)
        i = next(
            i
            for i in range(len(s.played) - 1, -1, -1)
            if COPIES[s.played[i].card] == p.card and s.played[i].use == "action"
        )
        card = s.played.pop(i).card
        s.discards[move.seat].append(card)
        s.say(f"{name(seat)} puts {card_name(card)} on {name(move.seat)}'s discard pile.", seat)


def _move_on(s: SummerCampState, seat: int, p: Prompt, path: int) -> None:
    land = move_pawn(s, seat, path, p.spaces)
    if p.card == "tag" or p.card == "capture_the_flag":
        right = (seat - 1) % s.players
        if s.pawns[right][path] == land:
            s.say(f"{name(seat)} lands on {name(right)}'s pawn.", seat)
            if p.card == "tag":
                draw_and_say(s, seat, 1)
            else:
                gain_snacks_and_say(s, seat, 2)
    elif p.card == "fishing" and land in BRIDGES:
        s.say(f"{name(seat)} lands on a bridge.", seat)
        draw_and_say(s, seat, 1)


def _take(s: SummerCampState, seat: int, by: str, key: str) -> None:
    card = take_from_display(s, key)
    if by == "zip_lining":
        s.hands[seat].append(card)
        where = "into their hand"
    elif by == "ropes_course":
        s.draws[seat].append(card)
        where = "onto the top of their draw pile"
    else:
        s.discards[seat].append(card)
        where = "onto their discard pile"
    s.say(f"{name(seat)} takes {card_name(card)} from the display {where}.", seat)


def prompt_text(s: SummerCampState, p: Prompt) -> str:
    """The question a prompt asks, in words."""
    card = CARDS[p.card].name if p.card else ""
    k = p.kind
    if k == "path":
        where = "any path" if len(p.paths) == 3 else " or ".join(path_name(s, i) for i in p.paths)
        return f"{card}: move {plural(p.spaces, 'space')} on {where}."
    if k == "bonus_move":
        return "Bonus icon: move any of your pawns 1 space."
    if k == "scavenger_hunt":
        if p.done:
            return (
                f"{card}: discard up to {plural(p.left, 'more card')}, or stop and draw "
                f"{plural(p.done, 'card')}."
            )
        return f"{card}: discard 1 to 3 cards, then draw as many."
    if k == "tie_dye":
        extra = " (or stop)" if p.done else ""
        return f"{card}: discard a card, then move 1 space on any path{extra}."
    if k == "gods_eye":
        extra = " (or stop)" if p.done else ""
        return f"{card}: return 2 snack bar tokens and move 1 space on any path{extra}."
    if k == "macaroni_sculpture":
        extra = " (or stop)" if p.done else ""
        return f"{card}: discard a card to gain 3 snack bar tokens{extra}."
    if k == "take_display":
        return f"{card}: take a card costing {CARDS[p.card].amount} or less from the display."
    if k == "cave_exploration":
        return f"{card}: take the top card of an activity draw pile."
    if k == "plant_identification":
        return f"{card}: take a card from your discard pile into your hand."
    if k == "bird_watching":
        return f"{card}: discard {plural(p.left, 'more card')}."
    if k == "give":
        return f"{card}: choose the opponent whose discard pile gets it."
    return f"{card}: each opponent discards a card of their choice."
