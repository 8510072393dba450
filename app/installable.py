"""What makes the site an app a phone installs: its manifest and its service worker, served
from the site's root. The worker must be: it controls only the pages under the path it is
served from, and the app's pages start at ``/``."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from starlette.exceptions import HTTPException

router = APIRouter(include_in_schema=False)


def _static(request: Request, name: str, media_type: str) -> FileResponse:
    path = request.app.state.settings.STATIC_DIR / name
    if not path.is_file():
        raise HTTPException(404, "The browser client is not installed.")
    # Asked again on every visit: a new worker or manifest reaches every phone at once.
    return FileResponse(path, media_type=media_type, headers={"Cache-Control": "no-cache"})


@router.get("/sw.js")
async def service_worker(request: Request) -> FileResponse:
    return _static(request, "sw.js", "text/javascript")


@router.get("/manifest.webmanifest")
async def manifest(request: Request) -> FileResponse:
    return _static(request, "manifest.webmanifest", "application/manifest+json")
