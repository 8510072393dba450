"""Health: whether this instance can serve (for load balancers and operators)."""

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from app.api.deps import ContextDep
from app.schemas import Readiness

router = APIRouter(prefix="/api/health", tags=["health"])

# Seconds the database may take to answer the readiness check.
DATABASE_TIMEOUT = 2.0


async def _database_ok(ctx) -> bool:
    async def select_one() -> None:
        async with ctx.db.session() as session:
            await session.execute(text("select 1"))

    try:
        await asyncio.wait_for(select_one(), DATABASE_TIMEOUT)
    except Exception:  # noqa: BLE001 - any failure means "not ready"
        return False
    return True


@router.get(
    "/ready",
    summary="Readiness",
    description="200 when the database answers and, with `REDIS_URL` set, Redis answers too; "
    "503 otherwise. While Redis is away moves still commit and this instance's sockets stay "
    "live, but sockets on other instances wait for Redis to catch up.",
    responses={503: {"model": Readiness, "description": "a dependency does not answer"}},
)
async def ready(ctx: ContextDep) -> Readiness:
    database = "ok" if await _database_ok(ctx) else "unavailable"
    if ctx.settings.REDIS_URL:
        redis = "ok" if await ctx.bus.ping() else "unavailable"
    else:
        redis = "off"
    body = Readiness(database=database, redis=redis)
    if "unavailable" in (database, redis):
        return JSONResponse(body.model_dump(), status_code=503)
    return body
