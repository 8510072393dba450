"""The database's figures on /metrics come from a sample taken in the background
(``app.figures``): a scrape never waits on the database, and keeps the last sample, with its
age, while the database is away. (The outage itself, on PostgreSQL: ``test_db_faults``.)"""

import math
import shutil

from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from app.db import Database
from app.figures import DatabaseFigures
from app.models import Game
from app.services.games import new_id


def figures(collector: DatabaseFigures) -> dict[tuple[str, tuple], float]:
    text = generate_latest(collector.registry).decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_a_failed_sample_keeps_the_last_figures_and_says_how_old(tmp_path, sqlite_template):
    path = tmp_path / "campground.db"
    shutil.copy(sqlite_template, path)
    db = Database(f"sqlite+aiosqlite:///{path}")
    collector = DatabaseFigures(db, every=60)
    try:
        before = figures(collector)
        assert before[("campground_db_sample_age_seconds", ())] == math.inf
        assert before[("campground_db_up", ())] == 0
        async with db.writing() as session:
            for kind in ("hike", "hike", "pinetop"):
                session.add(
                    Game(
                        id=new_id(),
                        kind=kind,
                        status="active",
                        version=0,
                        seed=1,
                        seed_commitment="",
                        options={},
                        state={},
                    )
                )
        await collector.sample()
        sampled = figures(collector)
        assert sampled[("campground_games_active", (("game", "hike"),))] == 2
        assert sampled[("campground_games_active", (("game", "pinetop"),))] == 1
        assert sampled[("campground_db_up", ())] == 1
        assert sampled[("campground_db_sample_age_seconds", ())] < math.inf

        collector.db = Database(f"sqlite+aiosqlite:///{tmp_path / 'gone' / 'no.db'}")
        await collector.sample()
        await collector.db.dispose()
        away = figures(collector)
        assert away[("campground_db_up", ())] == 0
        assert away[("campground_games_active", (("game", "hike"),))] == 2
        age = away[("campground_db_sample_age_seconds", ())]
        assert sampled[("campground_db_sample_age_seconds", ())] <= age < math.inf
    finally:
        await db.dispose()
