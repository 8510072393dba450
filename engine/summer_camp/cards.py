"""The 260 Summer Camp cards (64 base, 28 in each of the 7 activity packs), as one table.

Copies, costs and experience points are those of the published cards. A card id is its
``key``; the physical copies are numbered 0-259 in table order (``COPIES``), so the state can
track every copy while views and moves speak of keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

# fmt: off
Action = Literal[
    "none", "energy", "snacks", "draw", "move", "move_any", "scavenger_hunt", "take_display",
    "cave_exploration", "tie_dye", "gods_eye", "macaroni_sculpture", "bird_feeder",
    "secret_admirer", "friendship_bracelet", "candy_stash", "sing_along", "tag",
    "capture_the_flag", "dodgeball", "tug_o_war", "plant_identification", "bird_watching",
    "fishing", "swim_practice", "water_skiing",
]
# fmt: on

# fmt: off
PACKS: dict[str, str] = {
    "adventure": "Adventure",
    "arts_crafts": "Arts & Crafts",
    "cooking": "Cooking",
    "friendship": "Friendship",
    "games": "Games",
    "outdoors": "Outdoors",
    "water_sports": "Water Sports",
}
# fmt: on
BASE = "base"


@dataclass(frozen=True)
class Card:
    key: str
    name: str
    pack: str
    copies: int
    cost: int | None  # None: a starting card, never in the display
    points: int
    action: Action
    amount: int = 0  # energy, tokens, cards, spaces, repeats or the display's cost limit
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.key,
            "name": self.name,
            "pack": self.pack,
            "copies": self.copies,
            "cost": self.cost,
            "points": self.points,
            "action": self.action,
            "amount": self.amount,
            "text": self.text,
        }


def _move(
    key: str, name: str, pack: str, copies: int, cost: int | None, points: int, spaces: int
) -> Card:
    word = "space" if spaces == 1 else "spaces"
    return Card(
        key,
        name,
        pack,
        copies,
        cost,
        points,
        "move",
        spaces,
        f"Move your pawn forward {spaces} {word} on the {PACKS[pack]} path.",
    )


# fmt: off
CARD_LIST: list[Card] = [
    Card("smores", "S'mores", BASE, 14, 2, 0, "energy", 2, "Gain 2 energy to spend this turn."),
    Card("scavenger_hunt", "Scavenger hunt", BASE, 14, 3, 0, "scavenger_hunt", 3,
         "Discard any 1–3 cards from your hand and place them face-up in your discard pile. "
         "For each card you discarded, draw 1 card from your draw pile and add it to your "
         "hand."),
    Card("free_time", "Free time", BASE, 8, 4, 0, "move_any", 1,
         "Move 1 space on any path. If you land on a bonus icon, gain it as usual."),
    Card("lights_out", "Lights out!", BASE, 28, None, 0, "none", 0,
         "There is no action for this card."),
    # Adventure
    Card("zip_lining", "Zip lining", "adventure", 3, 6, 1, "take_display", 4,
         "Choose any card in the display that costs 4 energy or less and add it to your hand "
         "without spending any energy. You may now play it as usual."),
    Card("ropes_course", "Ropes course", "adventure", 3, 6, 1, "take_display", 5,
         "Choose any card in the display that costs 5 energy or less. Place it face-down on "
         "top of your draw pile without spending any energy."),
    Card("climbing_wall", "Climbing wall", "adventure", 3, 6, 1, "take_display", 6,
         "Choose any card in the display that costs 6 energy or less. Place it face-up on "
         "your discard pile without spending any energy."),
    Card("cave_exploration", "Cave exploration", "adventure", 3, 5, 1, "cave_exploration", 1,
         "Choose 1 of the 3 activity draw piles. Draw the top card from it. Place it face-up "
         "on your discard pile without spending any energy."),
    _move("tire_swing", "Tire swing", "adventure", 4, None, 0, 1),
    _move("archery", "Archery", "adventure", 7, 5, 1, 2),
    _move("mountain_biking", "Mountain biking", "adventure", 5, 8, 2, 3),
    # Arts & Crafts
    Card("tie_dye", "Tie dye", "arts_crafts", 3, 6, 1, "tie_dye", 2,
         "Discard any 1 card from your hand and then move 1 space on any path. If you land on "
         "a bonus icon, gain it as usual. You may do this action twice with this card."),
    Card("gods_eye", "God's eye", "arts_crafts", 3, 4, 1, "gods_eye", 3,
         "Discard 2 snack bar tokens and then move 1 space on any path. If you land on a bonus "
         "icon, gain it as usual. You may do this action 3 times with this card."),
    Card("macaroni_sculpture", "Macaroni sculpture", "arts_crafts", 3, 3, 2,
         "macaroni_sculpture", 2,
         "Discard any 1 card from your hand and then gain 3 snack bar tokens. You may do this "
         "action twice. You may only ever have 6 snack bar tokens at a time."),
    Card("bird_feeder", "Bird feeder", "arts_crafts", 3, 3, 2, "bird_feeder", 2,
         "For this turn, any snack bar tokens you choose to spend are worth 2 energy instead "
         "of 1. Playing multiple bird feeder cards in a turn has no added effect."),
    _move("boondoggle", "Boondoggle", "arts_crafts", 4, None, 0, 1),
    _move("ceramics", "Ceramics", "arts_crafts", 7, 5, 1, 2),
    _move("leatherwork", "Leatherwork", "arts_crafts", 5, 8, 2, 3),
    # Cooking
    Card("bacon_and_eggs", "Bacon and eggs", "cooking", 4, 3, 2, "energy", 3,
         "Gain 3 energy to spend this turn."),
    Card("stew", "Stew", "cooking", 3, 4, 2, "energy", 4, "Gain 4 energy to spend this turn."),
    Card("marshmallows", "Marshmallows", "cooking", 3, 3, 2, "snacks", 2,
         "Gain 2 snack bar tokens from the supply. You may only ever have 6 snack bar tokens "
         "at a time."),
    Card("hot_cocoa", "Hot cocoa", "cooking", 2, 4, 2, "snacks", 3,
         "Gain 3 snack bar tokens from the supply. You may only ever have 6 snack bar tokens "
         "at a time."),
    _move("kitchen_chores", "Kitchen chores", "cooking", 4, None, 0, 1),
    _move("fire_making", "Fire making", "cooking", 7, 5, 1, 2),
    _move("pizza_making", "Pizza making", "cooking", 5, 8, 2, 3),
    # Friendship
    Card("secret_admirer", "Secret admirer", "friendship", 3, 2, 0, "secret_admirer", 5,
         "Gain 5 energy to spend this turn. After playing this card you must put it face-up on "
         "the discard pile of an opponent of your choice. The card now belongs to them."),
    Card("friendship_bracelet", "Friendship bracelet", "friendship", 3, 3, 0,
         "friendship_bracelet", 3,
         "Draw 3 cards from your draw pile and add them to your hand. After playing this card "
         "you must put it face-up on the discard pile of an opponent of your choice. The card "
         "now belongs to them."),
    Card("candy_stash", "Candy stash", "friendship", 3, 3, 2, "candy_stash", 3,
         "Gain 3 snack bar tokens from the supply. Each other player gains 1 snack bar token "
         "from the supply. A player may only ever have 6 snack bar tokens at a time."),
    Card("sing_along", "Sing-along", "friendship", 3, 3, 1, "sing_along", 2,
         "Draw 2 cards from your draw pile and add them to your hand. Each other player draws "
         "1 card and adds it to their hand."),
    _move("new_friend", "New friend", "friendship", 4, None, 0, 1),
    _move("cabin_loyalty", "Cabin loyalty", "friendship", 7, 5, 1, 2),
    _move("pen_pals", "Pen pals", "friendship", 5, 8, 2, 3),
    # Games
    Card("tag", "Tag", "games", 4, 5, 1, "tag", 1,
         "Move 1 space on any path. If you land on a bonus icon, gain it as usual. If you land "
         "on a space with a pawn belonging to the opponent sitting to your right, draw 1 card "
         "from your draw pile and add it to your hand."),
    Card("capture_the_flag", "Capture the flag", "games", 3, 5, 2, "capture_the_flag", 1,
         "Move 1 space on any path. If you land on a bonus icon, gain it as usual. If you land "
         "on a space with a pawn belonging to the opponent sitting to your right, gain 2 snack "
         "bar tokens. You may only ever have 6 snack bar tokens at a time."),
    Card("dodgeball", "Dodgeball", "games", 2, 7, 1, "dodgeball", 2,
         "Draw 2 cards from your draw pile and add them to your hand. Each of your opponents "
         "must choose 1 card from their hand and place it face-up on their discard pile."),
    Card("tug_o_war", "Tug-o-war", "games", 3, 3, 1, "tug_o_war", 2,
         "Gain 2 snack bar tokens. Each of your opponents must discard 1 snack bar token if "
         "they have at least 1. You may only ever have 6 snack bar tokens at a time."),
    _move("tetherball", "Tetherball", "games", 4, None, 0, 1),
    _move("parachute_games", "Parachute games", "games", 7, 5, 1, 2),
    _move("color_war", "Color war", "games", 5, 8, 2, 3),
    # Outdoors
    Card("flashlight", "Flashlight", "outdoors", 4, 5, 1, "draw", 2,
         "Draw 2 cards from your draw pile and add them to your hand."),
    Card("pocket_knife", "Pocket knife", "outdoors", 2, 8, 1, "draw", 3,
         "Draw 3 cards from your draw pile and add them to your hand."),
    Card("plant_identification", "Plant identification", "outdoors", 3, 4, 1,
         "plant_identification", 1,
         "Look through your discard pile and choose any card to add to your hand. You may now "
         "play this card as usual."),
    Card("bird_watching", "Bird watching", "outdoors", 3, 5, 1, "bird_watching", 3,
         "Draw 3 cards from your draw pile and add them to your hand. Then you must choose any "
         "3 cards from your hand and place them face-up on your discard pile."),
    _move("nature_walk", "Nature walk", "outdoors", 4, None, 0, 1),
    _move("hiking", "Hiking", "outdoors", 7, 5, 1, 2),
    _move("camping_trip", "Camping trip", "outdoors", 5, 8, 2, 3),
    # Water Sports
    Card("water_blob", "Water blob", "water_sports", 3, 7, 1, "move_any", 2,
         "Move 2 spaces on any 1 path. If you land on any bonus icons, gain them as usual."),
    Card("fishing", "Fishing", "water_sports", 3, 6, 1, "fishing", 1,
         "Move 1 space on any path. If you land on a bonus icon, gain it as usual. If you land "
         "on any bridge space, draw 1 card from your draw pile and add it to your hand."),
    Card("swim_practice", "Swim practice", "water_sports", 3, 3, 1, "swim_practice", 1,
         "Move 1 space on the path you have progressed the least on—that is, move the pawn "
         "that is furthest back out of your 3 pawns. If multiple pawns are tied for your "
         "furthest back, you may choose which of them to move. If you land on a bonus icon, "
         "gain it as usual."),
    Card("water_skiing", "Water skiing", "water_sports", 3, 3, 1, "water_skiing", 1,
         "Move 1 space on the path you have progressed the most on—that is, move the pawn that "
         "is furthest forward out of your 3 pawns. If multiple pawns are tied for your "
         "furthest forward, you may choose which of them to move. If you land on a bonus icon, "
         "gain it as usual. If you have a pawn on the final bridge space of a path, it still "
         "counts as your furthest forward and it may no longer move."),
    _move("water_safety", "Water safety", "water_sports", 4, None, 0, 1),
    _move("canoeing", "Canoeing", "water_sports", 7, 5, 1, 2),
    _move("sailing", "Sailing", "water_sports", 5, 8, 2, 3),
]
# fmt: on

CARDS: dict[str, Card] = {c.key: c for c in CARD_LIST}
PRICES: dict[str, int] = {c.key: c.cost for c in CARD_LIST if c.cost is not None}
"""What each card for sale costs: every card but the starting ones."""

# Every physical copy: COPIES[i] is the key of copy i.
COPIES: list[str] = [c.key for c in CARD_LIST for _ in range(c.copies)]


def starting_card(pack: str) -> str:
    """The pack's "move 1 space" card, dealt into every starting deck."""
    return next(c.key for c in CARD_LIST if c.pack == pack and c.cost is None)


# Merit badges by player count, highest (taken first) first.
ACTIVITY_BADGES = {2: [10, 6], 3: [10, 8, 6], 4: [12, 10, 8, 6]}
PARTICIPATION_BADGES = {2: [6, 2], 3: [6, 4, 2], 4: [6, 4, 2]}
ALL_STAR_BADGES = {2: [8, 4], 3: [8, 6, 4], 4: [8, 6, 4]}
