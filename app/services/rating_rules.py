"""The rules a rating follows, and every number in them, in one place (README step 11, the
leaderboard page and ``docs/architecture.md`` say them in words). Pure: no database.

OpenSkill's Plackett–Luce model with its defaults rates people. Around it:

- **Bots keep the ladder's ratings.** A bot level's rating in a game is fixed where the
  measured ladder (``LADDER``, from ``docs/bots.md``) puts it, Casual at a newcomer's 1500,
  and no game against people moves it.
- **A win proves nothing far above the one beaten.** A rise stops ``REACH_POINTS`` above the
  best opponent who did not finish ahead (the gap at which the model expects a 90 % win), so
  beating a much weaker bot, or a throwaway account, gains nothing once that far above it.
- **Several seats of one bot level are one opponent**, placed where the best of them
  finished: four Beginner bots beaten at once are one Beginner bot beaten.
- **Repeats count less.** Each earlier rated game in the same ``REPEAT_WINDOW`` with the same
  other person halves a game's change (``REPEAT_WEIGHT``).
- **Too early is not rated.** A game conceded, or left by a person who never came back,
  before every seat has made ``MIN_MOVES`` moves is not rated.
- **The leaderboard** ranks by the conservative rating (OpenSkill's ordinal, mu − 3 sigma) and
  lists people with ``LEADERBOARD_GAMES`` rated games against ``LEADERBOARD_OPPONENTS``
  different opponents (a bot level counts as one), with every bot level as a landmark.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import timedelta

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma
# Shown points: 60 per OpenSkill mu, so a newcomer reads 1500.
POINTS_PER_MU = 60
BOT = "bot:"

MIN_MOVES = 3
REPEAT_WINDOW = timedelta(days=1)
REPEAT_WEIGHT = 0.5
LEADERBOARD_GAMES = 10
LEADERBOARD_OPPONENTS = 3
# The ladder is measured, not exact: a bot's rating is this sure (60 points).
BOT_SIGMA = 1.0
# Between two sure ratings, the model's odds of a win are logistic in the gap over SCALE.
SCALE = math.sqrt(2) * MODEL.beta
REACH_WIN_RATE = 0.9
REACH = SCALE * math.log(REACH_WIN_RATE / (1 - REACH_WIN_RATE))
REACH_POINTS = round(POINTS_PER_MU * REACH)

# docs/bots.md's ladder, two players: (points scored, games) of Casual (heuristic) against
# Beginner (random), and of Expert (search) against Casual; a shared win scores a half.
LADDER: dict[str, tuple[tuple[float, int], tuple[float, int]]] = {
    "summer-camp": ((200, 200), (167.5, 200)),
    "hike": ((199, 200), (140, 200)),
    "camping-life": ((199, 200), (155.5, 200)),
    "pinetop": ((198, 200), (323, 400)),
}


def wilson_low(score: float, games: int, z: float = 1.96) -> float:
    """The low end of the 95 % interval of a measured win rate: a gap is never overstated,
    and 200 wins of 200 still give a finite one."""
    rate = score / games
    centre = rate + z * z / (2 * games)
    margin = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    return (centre - margin) / (1 + z * z / games)


def gap(score: float, games: int) -> float:
    """The rating gap (in mu) at which the model expects this win rate."""
    rate = wilson_low(score, games)
    return SCALE * math.log(rate / (1 - rate))


def anchor(kind: str, level: str) -> float:
    """A bot level's fixed mu in game ``kind``; a level off the ladder reads as Casual."""
    if kind not in LADDER:
        return MU
    casual_beginner, expert_casual = LADDER[kind]
    if level == "random":
        return MU - gap(*casual_beginner)
    if level == "search":
        return MU + gap(*expert_casual)
    return MU


def points(mu: float) -> int:
    return round(POINTS_PER_MU * mu)


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating the leaderboard ranks by."""
    return mu - 3 * sigma


def is_bot(rater: str) -> bool:
    return rater.startswith(BOT)


def repeat_weight(earlier: int) -> float:
    """A game's weight after ``earlier`` rated games with the same person in the window."""
    return REPEAT_WEIGHT**earlier


@dataclass(frozen=True)
class Standing:
    """One seat as a game's rating sees it: who, their place (0 first) and rating before,
    and the weight of this game for them."""

    rater: str
    place: int
    mu: float
    sigma: float
    weight: float = 1.0


def _reach(entries: list[Standing], i: int, risen: float) -> float:
    """The share of a rise to ``risen`` that stays below the reach of those beaten."""
    me = entries[i]
    if risen <= me.mu:
        return 1.0
    beaten = [e.mu for j, e in enumerate(entries) if j != i and e.place >= me.place]
    if not beaten:
        return 0.0
    return min(1.0, max(0.0, (max(beaten) + REACH - me.mu) / (risen - me.mu)))


def rated(seats: list[Standing]) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after the game, by the rules above. Seats of one bot level
    are one opponent; bots keep their ratings."""
    entries: list[Standing] = []
    entry_of: list[int] = []
    levels: dict[str, int] = {}
    for seat in seats:
        if is_bot(seat.rater) and seat.rater in levels:
            i = levels[seat.rater]
            entries[i] = replace(entries[i], place=min(entries[i].place, seat.place))
        else:
            i = len(entries)
            entries.append(seat)
            if is_bot(seat.rater):
                levels[seat.rater] = i
        entry_of.append(i)
    teams = MODEL.rate(
        [[MODEL.rating(mu=e.mu, sigma=e.sigma)] for e in entries], ranks=[e.place for e in entries]
    )
    after = []
    for i, (entry, [rating]) in enumerate(zip(entries, teams)):
        if is_bot(entry.rater):
            after.append((entry.mu, entry.sigma))
            continue
        weight = entry.weight * _reach(entries, i, rating.mu)
        after.append(
            (
                entry.mu + weight * (rating.mu - entry.mu),
                entry.sigma + weight * (rating.sigma - entry.sigma),
            )
        )
    return [after[i] for i in entry_of]
