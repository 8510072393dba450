"""The search bot's Camp Pinetop knowledge: the states a seat cannot tell apart, what a
position is worth, and a quick greedy hand for the rollouts.

Hidden from a seat: the other players' hands, the supply deck's order, the conditions deck's
order (Nature) and the seed. A determinization deals the other hands and the deck again from
their cards together, and the conditions deck from its cards; the discard pile, every face-up
card and the seat's own hand stay (all public, or the seat's). Cards alike in every way (supply,
wildness, tent and the tower on the back) stand for one another, so the hidden ones are dealt
as the first card of their kind: the search then sees one move where a player sees one.
At three or more players the other seats are played by the heuristic bot in the tree.
"""

from __future__ import annotations

import math
import random

from engine.core import BaseState, Game, Rng, copy_model
from engine.pinetop.cards import COLOURS, PATCHES, RANKS, SUPPLY
from engine.pinetop.moves import Claim, Discard, DrawDeck, Give, Move, MoveCamper, Pay, Place, Take
from engine.pinetop.costs import hand_limit
from engine.pinetop.state import PinetopState
from engine.search import Searcher, SearchBot

_LIKE: dict[tuple[tuple[str, ...], bool, str | None, bool], int] = {}
for _card in SUPPLY:  # the first card of each kind, back included
    _LIKE.setdefault((_card.suits, _card.wild, _card.tent, _card.tower), _card.id)
LIKE = [_LIKE[c.suits, c.wild, c.tent, c.tower] for c in SUPPLY]
WORTH = [3.0 if c.wild else float(len(c.suits)) for c in SUPPLY]  # to keep in hand
BADGER = RANKS[-1]
ADVANCED_NEEDED = BADGER.advanced


def badger_gap(held: dict[str, bool]) -> int:
    """Patches still to gain for Badger: the nearest column's missing ones, plus the
    advanced ones missing (each a patch gained a second time)."""
    counts = {c: 0 for c in COLOURS}
    for k in held:
        counts[PATCHES[k].colour] += 1
    column = min(sum(max(0, n - counts[c]) for c, n in col.items()) for col in BADGER.columns)
    return column + max(0, ADVANCED_NEEDED - sum(held.values()))


class PinetopSearcher(Searcher[PinetopState, Move]):
    rollout_steps = 12
    exploration = 0.7
    model_opponents = True
    # evaluate: a patch still to gain counts 1; each card in hand (up to the hand limit), each
    # camper on the map (up to three) and an unspent Friendship token count for a little.
    card = 0.22
    camper = 0.35
    friendship = 0.3
    sharpness = 1.2

    def budget_for(self, budget: int, players: int) -> int:
        """More at three or more players, where the other seats' turns take most of each
        line's steps: twice at three, half as much again at four and five, whose steps cost
        more (p95 about 0.7 s a move at either, docs/bots.md)."""
        if players == 2:
            return budget
        return 2 * budget if players == 3 else budget * 3 // 2

    def determinize(self, state: BaseState, seat: int, rng: random.Random) -> PinetopState:
        assert isinstance(state, PinetopState)  # the search is given this game's states
        others = [x for x in range(state.players) if x != seat]
        pool = [LIKE[c] for c in state.deck]
        for x in others:
            pool += (LIKE[c] for c in state.hands[x])
        pool.sort()  # canonical: the same pool whatever the hidden order
        rng.shuffle(pool)
        hands = list(state.hands)
        for x in others:
            n = len(hands[x])
            hands[x], pool = pool[:n], pool[n:]
        changes = {"hands": hands, "deck": pool, "rng": Rng.from_seed(rng.getrandbits(64))}
        nature = state.nature
        if nature is not None:
            conditions = sorted(nature.deck)
            rng.shuffle(conditions)
            changes["nature"] = copy_model(nature, {"deck": tuple(conditions)})
        return copy_model(state, changes)

    def score(self, s: PinetopState, seat: int) -> float:
        out = sum(1 for here in s.campers for x in here if x == seat)
        value = (
            -badger_gap(s.patches[seat])
            + self.card * min(len(s.hands[seat]), hand_limit(s, seat))
            + self.camper * min(out, 3)
        )
        if s.friendship[seat] == "held":
            value += self.friendship
        return value

    def evaluate(self, state: BaseState, seat: int) -> list[float]:
        """Each seat's share of the win: a softmax of the scores (a logistic of the lead
        with two players)."""
        assert isinstance(state, PinetopState)  # the search is given this game's states
        scores = [self.sharpness * self.score(state, x) for x in range(state.players)]
        top = max(scores)
        weights = [math.exp(v - top) for v in scores]
        total = sum(weights)
        return [w / total for w in weights]

    def rollout_move(
        self,
        game: Game[PinetopState, Move],
        state: BaseState,
        actor: int,
        legal: list[Move],
        rng: random.Random,
    ) -> Move:
        """A patch whenever one is in reach, a claim at once, campers out early, the deck
        otherwise; pay, give and discard the card worth least."""
        assert isinstance(state, PinetopState)  # the search is given this game's states
        first = legal[0]
        if isinstance(first, (Pay, Give, Discard)):  # the Friendship token may follow: kept
            return min(
                (m for m in legal if isinstance(m, (Pay, Give, Discard))),
                key=lambda m: WORTH[m.card],
            )
        if isinstance(first, Claim):
            return first
        phase = state.phase
        if phase == "action":
            patches = [m for m in legal if isinstance(m, MoveCamper) and m.patch]
            if patches:
                return rng.choice(patches)
            if state.campers_left[actor] > 1:
                places = [m for m in legal if isinstance(m, Place)]
                if places:
                    return rng.choice(places)
            draws = [m for m in legal if isinstance(m, (DrawDeck, Take))]
            return rng.choice(draws) if draws else rng.choice(legal)
        if phase == "draw":
            draws = [m for m in legal if isinstance(m, (DrawDeck, Take))]
            if draws and rng.random() < 0.8:
                return rng.choice(draws)
        elif phase == "after":
            return legal[-1]  # Done
        elif phase == "power":
            return first
        return rng.choice(legal)


SEARCHER = PinetopSearcher()
search_bot = SearchBot(SEARCHER)
