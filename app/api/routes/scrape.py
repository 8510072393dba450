"""``GET /metrics``: every metric of this instance in Prometheus' text format (``app.metrics``
defines them; ``app.figures`` samples those that live in the database)."""

from __future__ import annotations

import hmac
import ipaddress
import os

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    multiprocess,
)

from app import metrics

router = APIRouter(tags=["operations"])


def parse_allowed(setting: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [
        ipaddress.ip_network(entry.strip(), strict=False)
        for entry in setting.split(",")
        if entry.strip()
    ]


def _allowed(request: Request) -> bool:
    ctx = request.app.state.ctx
    admin = ctx.settings.ADMIN_TOKEN
    authorization = request.headers.get("authorization", "")
    if admin and authorization[:7].lower() == "bearer ":
        if hmac.compare_digest(authorization[7:].strip().encode(), admin.encode()):
            return True
    try:
        address = ipaddress.ip_address(request.client.host if request.client else "")
    except ValueError:
        return False
    return any(address in network for network in parse_allowed(ctx.settings.METRICS_ALLOW))


@router.get(
    "/metrics",
    summary="Prometheus metrics",
    description="Every metric of this instance (of all its workers, with several) in "
    "Prometheus' text format: HTTP requests, socket messages and closes, moves committed and "
    "refused, move latency, sockets, games being played, bots, database pool, Redis, limits, "
    "deadlines. Figures read from the database come from a sample taken in the background "
    "(`campground_db_sample_age_seconds` says how old), so this answers while the database "
    "is away. Only for addresses in `METRICS_ALLOW` (loopback by default) or with the bearer "
    "`ADMIN_TOKEN`; 403 otherwise.",
    response_class=Response,
    responses={
        200: {
            "content": {
                CONTENT_TYPE_LATEST: {
                    "schema": {"type": "string"},
                    "example": 'campground_moves_committed_total{game="hike",played_by="person"} 12.0\n',
                }
            },
            "description": "the metrics",
        },
        403: {"description": "not an allowed address, and no admin token"},
    },
)
async def scrape(request: Request) -> Response:
    if not _allowed(request):
        detail = (
            "Metrics are for the operator: an allowed address (METRICS_ALLOW) or the admin token."
        )
        return JSONResponse({"detail": detail}, status_code=403)
    ctx = request.app.state.ctx
    metrics.REDIS_UP.set(1 if ctx.settings.REDIS_URL and ctx.bus.healthy else 0)
    if os.environ.get(metrics.MULTIPROCESS):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    body = generate_latest(registry) + generate_latest(ctx.figures.registry)
    return Response(body, media_type=CONTENT_TYPE_LATEST)
