"""Real Chromium against the real server: a ``server_url`` and a ``new_page()`` factory.

The server is ``uvicorn app.main:app`` in a subprocess on a free localhost port with a fresh,
migrated SQLite database and bots that move at once. Each ``new_page()`` call opens its own
browser context, so every page is a separate player with its own cookie.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PROJECT = Path(__file__).resolve().parents[2]
ADMIN_TOKEN = "admin-token-for-browser-tests"


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


# The browser logs every refused request as a console error; tests that probe a dead link or a
# refused move expect those (4xx). Any other console error fails the test.
EXPECTED_REFUSAL = re.compile(
    r"Failed to load resource: the server responded with a status of 4\d\d"
)


def _need_browser(reason: str):
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (REQUIRE_BROWSER=1)")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Every page comes from 127.0.0.1: allow far more than one person needs.
GENEROUS_LIMITS = {
    "RATE_PLAYERS": "10000/60",
    "RATE_SOCKETS": "10000/60",
    "RATE_MOVES": "10000/60",
    "RATE_LOBBIES": "10000/60",
    "RATE_JOINS": "10000/60",
    "MAX_SOCKETS_PER_ADDRESS": "100000",
    "RATE_SOCKETS_PER_ADDRESS": "10000/60",
    "RATE_MOVES_PER_ADDRESS": "10000/60",
    "RATE_LOBBIES_PER_ADDRESS": "10000/60",
    "RATE_JOINS_PER_ADDRESS": "10000/60",
    "RATE_QUEUES": "10000/60",
    "RATE_QUEUES_PER_ADDRESS": "10000/60",
    "RATE_REPLAYS": "10000/60",
    "RATE_REPLAYS_PER_ADDRESS": "10000/60",
}


@contextmanager
def serving(work: Path, app: str = "app.main:app", **env_extra: str) -> Iterator[str]:
    """A Campground server (uvicorn serving ``app``, ``module:attribute``; ``--factory``
    when it ends in ``()``) with its own empty database in ``work``: its base URL."""
    with _server(work, _migrated(work), app=app, **env_extra) as base:
        yield base


def _migrated(work: Path) -> str:
    from app.migrate import upgrade

    url = f"sqlite+aiosqlite:///{work / 'campground.db'}"
    # upgrade() runs its own event loop; Playwright's sync API may already hold this thread's.
    migration = ThreadPoolExecutor(1)
    migration.submit(upgrade, url).result()
    migration.shutdown()
    return url


@contextmanager
def _server(
    work: Path,
    database_url: str,
    name: str = "server",
    app: str = "app.main:app",
    cwd: Path = PROJECT,
    **settings: str,
) -> Iterator[str]:
    """``uvicorn`` serving ``app`` of the checkout ``cwd`` on a free port, its log in
    ``work/{name}.log``: its base URL."""
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "BOT_DELAY": "0",
        "PUBLIC_URL": f"http://127.0.0.1:{port}",
        "ADMIN_TOKEN": ADMIN_TOKEN,
        **GENEROUS_LIMITS,
        **settings,
    }
    target = ["--factory", app[:-2]] if app.endswith("()") else [app]
    log_path = work / f"{name}.log"
    log = open(log_path, "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", *target, "--host", "127.0.0.1", "--port", str(port)],
        cwd=cwd,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/games", timeout=1):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(
                    f"server did not start; see {log_path}:\n" + log_path.read_text()[-3000:]
                ) from None
            time.sleep(0.1)
    try:
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def server_url(tmp_path_factory) -> Iterator[str]:
    """Base URL of a running Campground server with its own empty database."""
    work = tmp_path_factory.mktemp("server")
    with _server(work, _migrated(work)) as base:
        yield base


@pytest.fixture(scope="module")
def two_instances(tmp_path_factory) -> Iterator[tuple[str, str]]:
    """Two servers on one database and one Redis, as two replicas behind a load balancer:
    their base URLs. Skipped when Redis is unreachable, unless REQUIRE_REDIS=1."""
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        with redis.Redis.from_url(url, socket_connect_timeout=3) as client:
            client.ping()
    except redis.RedisError as exc:
        if os.environ.get("REQUIRE_REDIS") == "1":
            pytest.fail(f"Redis at {url} is unreachable ({exc})")
        pytest.skip(f"Redis at {url} is unreachable ({exc})")
    work = tmp_path_factory.mktemp("instances")
    database_url = _migrated(work)
    bus = {"REDIS_URL": url, "REDIS_PREFIX": f"campground-browser-{uuid.uuid4().hex[:12]}:"}
    with _server(work, database_url, "a", **bus) as a, _server(work, database_url, "b", **bus) as b:
        yield a, b


# Per module, not per run: Playwright's sync API keeps an event loop running in the thread
# while it is started, and the app's async tests that a test process runs after a browser
# module need the thread without one.
@pytest.fixture(scope="module")
def browser():
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        _need_browser(f"Chromium is not installed at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _need_browser("the playwright package is not installed")
    from playwright.sync_api import expect

    # Assertions wait as long as actions do: on a busy 2-core machine a page's fetch and redraw
    # can take longer than Playwright's 5 s default for `expect`.
    expect.set_options(timeout=15_000)
    pw = sync_playwright().start()
    browser = pw.chromium.launch(
        executable_path=CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium"),
        args=CHROMIUM_ARGS,
    )
    yield browser
    browser.close()
    pw.stop()


def _watch(page, errors: list[str]) -> None:
    """Collect the page's uncaught errors, console errors (but a refused request's note) and
    Content-Security-Policy violations into ``errors``."""
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
    # The browser's own CSP reports do not reach the console events: the page reports them.
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', (e) => console.error("
        "`CSP violation: ${e.violatedDirective} ${e.blockedURI}`))"
    )
    page.on(
        "console",
        lambda message: (
            errors.append(f"{page.url}: {message.text}")
            if message.type == "error" and not EXPECTED_REFUSAL.match(message.text)
            else None
        ),
    )


@pytest.fixture(scope="module")
def _reading_context(browser, server_url):
    errors: list[str] = []
    context = browser.new_context(
        viewport={"width": 375, "height": 800}, reduced_motion="reduce", base_url=server_url
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    _watch(page, errors)
    yield page, errors
    context.close()


@pytest.fixture
def reading_page(_reading_context):
    """``reading_page(width=375, height=800)``: one page for every test of a module that only
    reads what the server shows (opening a browser context and its renderer costs more than
    most such tests), without cookies at the start of each test: a test signs its page in
    with ``page.context.add_cookies``. The same errors as ``new_page``'s fail the test."""
    page, errors = _reading_context
    errors.clear()
    page.context.clear_cookies()

    def make(*, width: int = 375, height: int = 800):
        page.set_viewport_size({"width": width, "height": height})
        return page

    yield make
    page.goto("about:blank")
    assert not errors, "JavaScript errors in the page:\n" + "\n".join(errors)


@pytest.fixture
def new_page(browser, server_url):
    """``new_page(path="/", width=..., height=..., **context_options)``: a page in a fresh
    context (a new player); the options go to Playwright's ``new_context`` (``reduced_motion``,
    ``base_url`` for another server than ``server_url``…).
    Pages prefer reduced motion unless a test asks for ``reduced_motion="no-preference"``: a
    click waits for its control to stand still, and the marks of every move animate for 0.6 s.

    Uncaught JavaScript errors, console errors (but the browser's note of a refused request, a
    4xx some tests probe for) and anything the Content-Security-Policy blocks, on any page, fail
    the test at teardown.
    """
    contexts = []
    errors: list[str] = []

    def make(path: str = "/", *, width: int = 1100, height: int = 900, **options):
        options.setdefault("reduced_motion", "reduce")
        options.setdefault("base_url", server_url)
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        _watch(page, errors)
        page.goto(path)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, "JavaScript errors in the page:\n" + "\n".join(errors)
