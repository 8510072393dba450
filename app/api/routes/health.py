"""Health, for load balancers, orchestrators and operators: whether this process answers
(live) and whether this instance can serve (ready)."""

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from app.api.deps import ContextDep
from app.schemas import Liveness, Readiness

router = APIRouter(prefix="/health", tags=["health"])

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
    "/live",
    summary="Liveness",
    description="200 while the process answers; it asks nothing of the database or Redis, so "
    "an outage of either never gets an instance restarted.",
)
async def live() -> Liveness:
    return Liveness(status="ok")


@router.get(
    "/ready",
    summary="Readiness",
    description="200 when the database answers (within 2 s), 503 otherwise. Redis is "
    "reported as of its last health check but does not make this 503: while Redis is away "
    "moves still commit and this instance's sockets stay live (sockets on other instances "
    "catch up once it is back), and every instance out of a load balancer at once would "
    "serve nobody.",
    response_model=Readiness,
    responses={503: {"model": Readiness, "description": "the database does not answer"}},
)
async def ready(ctx: ContextDep) -> Readiness | JSONResponse:
    database = "ok" if await _database_ok(ctx) else "unavailable"
    if ctx.settings.REDIS_URL:
        redis = "ok" if ctx.bus.healthy else "unavailable"
    else:
        redis = "off"
    body = Readiness(database=database, redis=redis)
    if database == "unavailable":
        return JSONResponse(body.model_dump(), status_code=503)
    return body
