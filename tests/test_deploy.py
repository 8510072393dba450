"""The Dockerfile and docker-compose.yml can't be run here (no Docker engine): check them by parsing."""

import ipaddress
import re
import shlex
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


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


def test_dockerfile_uses_only_known_instructions_and_starts_from_python():
    known = {"FROM", "ENV", "WORKDIR", "COPY", "RUN", "USER", "EXPOSE", "CMD", "ARG", "LABEL"}
    rows = dockerfile_instructions()
    assert rows[0][0] == "FROM"
    assert re.fullmatch(r"python:3\.1[1-9][\w.-]*", rows[0][1])
    assert {k for k, _ in rows} <= known


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
