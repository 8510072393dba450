"""deploy/kubernetes/: every resource valid for Kubernetes (kubernetes-validate, strict: no
unknown field), and the shape of more than one machine: N instances behind a Service with
probes, resources and a disruption budget, a migration Job, PostgreSQL and Redis named as
external services, settings the app knows."""

import re
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from app.config import Settings

ROOT = Path(__file__).resolve().parent.parent
MANIFESTS = ROOT / "deploy" / "kubernetes"
# The oldest Kubernetes still commonly run; the manifests use nothing newer.
KUBERNETES = "1.30.0"


def resources() -> list[dict]:
    found = []
    for path in sorted(MANIFESTS.glob("*.yaml")):
        found += [doc for doc in yaml.safe_load_all(path.read_text()) if doc]
    return found


def one(kind: str, name: str) -> dict:
    [found] = [r for r in resources() if r["kind"] == kind and r["metadata"]["name"] == name]
    return found


def dockerfile(keyword: str) -> str:
    text = (ROOT / "Dockerfile").read_text()
    return re.search(rf"^{keyword} (.+)$", text, re.M).group(1).strip()


@pytest.mark.parametrize(
    "resource", resources(), ids=lambda r: f"{r['kind']}/{r['metadata']['name']}"
)
def test_every_resource_is_valid_for_kubernetes(resource):
    kubernetes_validate.validate(resource, KUBERNETES, strict=True)


def test_the_validation_would_catch_a_misspelt_field():
    app = one("Deployment", "campground")
    container = app["spec"]["template"]["spec"]["containers"][0]
    container["livenesProbe"] = container.pop("livenessProbe")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(app, KUBERNETES, strict=True)


def pod_labels(workload: dict) -> dict:
    return workload["spec"]["template"]["metadata"]["labels"]


def test_several_instances_behind_a_service_with_probes_and_a_disruption_budget():
    app = one("Deployment", "campground")
    assert app["spec"]["replicas"] >= 2
    labels = pod_labels(app)
    assert app["spec"]["selector"]["matchLabels"] == labels
    service = one("Service", "campground")
    assert service["spec"]["selector"] == labels
    budget = one("PodDisruptionBudget", "campground")
    assert budget["spec"]["selector"]["matchLabels"] == labels
    assert budget["spec"]["maxUnavailable"] < app["spec"]["replicas"]

    [container] = app["spec"]["template"]["spec"]["containers"]
    [port] = container["ports"]
    assert str(port["containerPort"]) == dockerfile("EXPOSE")
    assert service["spec"]["ports"][0]["targetPort"] == port["name"]
    assert container["livenessProbe"]["httpGet"]["path"] == "/health/live"
    assert container["startupProbe"]["httpGet"]["path"] == "/health/live"
    assert container["readinessProbe"]["httpGet"]["path"] == "/health/ready"
    assert container["args"][:2] == ["campground", "serve"]


def test_every_container_asks_for_resources_and_runs_as_the_image_s_user():
    user = int(dockerfile("USER").split(":")[0])
    workloads = [r for r in resources() if r["kind"] in ("Deployment", "Job")]
    assert {w["kind"] for w in workloads} == {"Deployment", "Job"}
    for workload in workloads:
        pod = workload["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert pod["securityContext"]["runAsUser"] == user
        for container in pod["containers"]:
            assert {"cpu", "memory"} <= set(container["resources"]["requests"])
            assert container["securityContext"]["allowPrivilegeEscalation"] is False


def test_a_job_migrates_the_database_with_the_app_s_image():
    job = one("Job", "campground-migrate")
    [container] = job["spec"]["template"]["spec"]["containers"]
    assert container["args"] == ["campground", "migrate"]
    [app] = one("Deployment", "campground")["spec"]["template"]["spec"]["containers"]
    assert container["image"] == app["image"]
    assert container["envFrom"] == app["envFrom"]
    assert job["spec"]["template"]["spec"]["restartPolicy"] == "Never"


def test_postgres_and_redis_are_external_services_the_secret_names():
    for name, port in (("campground-postgres", 5432), ("campground-redis", 6379)):
        service = one("Service", name)
        assert service["spec"]["type"] == "ExternalName"
        assert service["spec"]["ports"][0]["port"] == port
    told = (MANIFESTS / "config.yaml").read_text()
    assert "@campground-postgres:5432/" in told and "redis://campground-redis:6379/" in told


def test_the_settings_given_are_settings_the_app_reads():
    config = one("ConfigMap", "campground")["data"]
    assert set(config) <= set(Settings.model_fields)
    Settings(**config)
    assert config["LOG_FORMAT"] == "json"


def test_the_ingress_hashes_game_sockets_like_the_proxy():
    games = one("Ingress", "campground-games")
    assert games["metadata"]["annotations"]["nginx.ingress.kubernetes.io/upstream-hash-by"] == (
        "$uri"
    )
    [path] = games["spec"]["rules"][0]["http"]["paths"]
    assert path["path"] == "/ws/games/"
    assert path["backend"]["service"]["name"] == "campground"
