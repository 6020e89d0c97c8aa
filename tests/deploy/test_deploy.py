"""deploy/ validated offline: the Kubernetes manifests against the Kubernetes
API schemas (kubernetes-validate, strict), the compose file against the
compose specification (vendored by check-jsonschema), nginx's configuration
by crossplane's parser (directives, contexts, argument counts); then what
the files must say for Throneroom (probes, budgets, persistence, balancing,
the lock). Each validator is first shown to catch a planted defect."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import crossplane
import kubernetes_validate
import pytest
import yaml
from throneroom_server import __version__

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
KUBERNETES = "1.31"  # the oldest Kubernetes version the manifests must be valid for


def _manifests() -> list[dict[str, Any]]:
    text = (DEPLOY / "k8s" / "throneroom.yaml").read_text()
    return [doc for doc in yaml.safe_load_all(text) if doc]


def _kind(kind: str, name: str = "throneroom") -> dict[str, Any]:
    found = [d for d in _manifests() if d["kind"] == kind and d["metadata"]["name"] == name]
    assert len(found) == 1, f"{kind}/{name}"
    return found[0]


def _compose_errors(path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.compose-spec", path],
        capture_output=True,
        text=True,
        check=False,
    )
    return "" if done.returncode == 0 else done.stdout + done.stderr


def _nginx_errors(path: Path) -> list[Any]:
    parsed = crossplane.parse(str(path), check_ctx=True, check_args=True)
    return list(parsed["errors"])


# -- the validators catch planted defects --------------------------------------


def test_the_kubernetes_validator_catches_a_bad_manifest() -> None:
    deployment = _kind("Deployment")
    deployment["spec"]["replicas"] = "three"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBERNETES, strict=True)
    unknown = _kind("Service")
    unknown["spec"]["clusterIPs_typo"] = ["None"]
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(unknown, KUBERNETES, strict=True)


def test_the_compose_validator_catches_a_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "compose.yaml"
    bad.write_text("services:\n  x:\n    image: redis\n    replicas_typo: 3\n")
    assert "replicas_typo" in _compose_errors(bad)


def test_the_nginx_parser_catches_a_bad_configuration(tmp_path: Path) -> None:
    bad = tmp_path / "nginx.conf"
    bad.write_text("events {}\nhttp { server { listen 80; grpc_pass; } }\n")
    assert _nginx_errors(bad)


# -- the files are valid -------------------------------------------------------


@pytest.mark.parametrize("index", range(len(_manifests())))
def test_every_manifest_is_valid_kubernetes(index: int) -> None:
    kubernetes_validate.validate(_manifests()[index], KUBERNETES, strict=True)


def test_the_compose_file_follows_the_compose_spec() -> None:
    assert _compose_errors(DEPLOY / "compose.yaml") == ""


def test_the_nginx_configuration_parses() -> None:
    assert _nginx_errors(DEPLOY / "nginx.conf") == []


# -- and say what Throneroom needs ----------------------------------------------


def test_the_deployment_probes_grpc_health_and_drains_before_it_is_killed() -> None:
    deployment = _kind("Deployment")
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["grpc"]["port"] == ports["grpc"]
    env = {e["name"]: e.get("value") for e in container["env"]}
    pre_stop = container["lifecycle"]["preStop"]["exec"]["command"]
    assert pre_stop[0] == "sleep" and int(pre_stop[1]) > 0  # endpoints drop the pod first
    stopping = (
        int(pre_stop[1])
        + int(env["THRONEROOM_DRAIN_SECONDS"])
        + int(env["THRONEROOM_SHUTDOWN_GRACE_SECONDS"])
    )
    assert int(env["THRONEROOM_DRAIN_SECONDS"]) > 0
    assert stopping < pod["terminationGracePeriodSeconds"]
    assert env["THRONEROOM_METRICS_LISTEN"].endswith(f":{ports['metrics']}")
    assert container["image"] == f"ghcr.io/throneroom/throneroom:{__version__}"
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_services_budget_and_autoscaler_point_at_the_deployment() -> None:
    labels = _kind("Deployment")["spec"]["template"]["metadata"]["labels"]
    for name in ("throneroom", "throneroom-headless"):
        assert _kind("Service", name)["spec"]["selector"] == labels
    assert _kind("Service", "throneroom-headless")["spec"]["clusterIP"] == "None"
    pdb = _kind("PodDisruptionBudget")
    assert pdb["spec"]["selector"]["matchLabels"] == labels
    hpa = _kind("HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": "throneroom",
    }
    assert pdb["spec"]["minAvailable"] < hpa["spec"]["minReplicas"]


def test_redis_keeps_an_append_only_file_on_a_volume_and_never_evicts() -> None:
    config = _kind("ConfigMap", "throneroom-redis")["data"]["redis.conf"]
    assert re.search(r"^appendonly yes$", config, re.M)
    assert re.search(r"^maxmemory-policy noeviction$", config, re.M)
    local = (DEPLOY / "redis.conf").read_text()
    for line in ("appendonly yes", "maxmemory-policy noeviction"):
        assert re.search(rf"^{line}$", local, re.M)
    redis = _kind("StatefulSet", "throneroom-redis")
    mounts = {
        m["name"]: m["mountPath"]
        for m in redis["spec"]["template"]["spec"]["containers"][0]["volumeMounts"]
    }
    assert mounts["data"] == "/data" and "dir /data" in config
    assert redis["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data"


def test_compose_runs_three_replicas_behind_a_grpc_balancer_on_persistent_redis() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert services["throneroom"]["deploy"]["replicas"] == 3
    assert services["throneroom"]["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    assert "redis-data:/data" in services["redis"]["volumes"]
    assert "./redis.conf:/usr/local/etc/redis/redis.conf:ro" in services["redis"]["volumes"]
    assert "./nginx.conf:/etc/nginx/nginx.conf:ro" in services["balancer"]["volumes"]
    parsed = crossplane.parse(str(DEPLOY / "nginx.conf"))
    directives = [
        (d["directive"], d["args"]) for config in parsed["config"] for d in _walk(config["parsed"])
    ]
    assert ("grpc_pass", ["grpc://throneroom_grpc"]) in directives
    assert ("listen", ["50051", "http2"]) in directives  # nginx 1.22's spelling (1.25+: http2 on)
    assert ("proxy_set_header", ["Connection", "$connection_upgrade"]) in directives  # WebSocket
    assert ("proxy_buffering", ["off"]) in directives  # SSE watches flow


def _walk(block: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for directive in block:
        out.append(directive)
        out.extend(_walk(directive.get("block", [])))
    return out


def test_the_image_installs_exactly_the_lock() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert "-c constraints.txt" in dockerfile
    assert "--no-index --find-links /wheels -c /tmp/constraints.txt" in dockerfile
    assert re.search(r"^USER throneroom$", dockerfile, re.M)


# -- images pinned, health checked, metrics reachable, pods unprivileged -------

PINNED = re.compile(
    r"^[a-z0-9.-]+\.[a-z]+/[a-z0-9./_-]+:(\d+\.\d+\.\d+[\w.-]*|(?<=debian:)\d+\.\d+-slim)$"
)
"""A fully qualified image name (registry host first) with a patch-level tag
(Debian's: its point release, e.g. 12.9)."""


def _images() -> list[str]:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    images = [service["image"] for service in compose["services"].values()]
    for doc in _manifests():
        template = doc.get("spec", {}).get("template", {}).get("spec", {})
        images += [c["image"] for c in template.get("containers", [])]
    for name in ("Dockerfile", "balancer.Dockerfile"):
        images += re.findall(r"^FROM (\S+)", (DEPLOY / name).read_text(), re.M)
    return images


def test_every_image_is_qualified_and_pinned() -> None:
    images = _images()
    assert len(images) >= 7
    assert [image for image in images if not PINNED.match(image)] == []
    assert not PINNED.match("redis:7.2") and not PINNED.match("nginx:1.27")  # the check bites


def test_compose_checks_every_service_and_publishes_the_metrics() -> None:
    services = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    assert {name for name, s in services.items() if "healthcheck" not in s} == set()
    server = services["throneroom"]
    assert server["healthcheck"]["test"][-1] == "throneroom_server.runtime.healthcheck"
    assert "9100-9102:9100" in server["ports"]  # one host port per replica
    assert int(server["environment"]["THRONEROOM_DRAIN_SECONDS"]) > 0
    assert services["balancer"]["build"]["dockerfile"] == "balancer.Dockerfile"
    assert services["balancer"]["depends_on"]["throneroom"]["condition"] == "service_healthy"
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert "throneroom_server.runtime.healthcheck" in dockerfile.split("HEALTHCHECK", 1)[1]


def test_the_metrics_port_is_on_the_headless_service() -> None:
    ports = {p["name"]: p for p in _kind("Service", "throneroom-headless")["spec"]["ports"]}
    assert ports["metrics"]["targetPort"] == "metrics"


def test_every_pod_runs_unprivileged() -> None:
    for doc in _manifests():
        template = doc.get("spec", {}).get("template")
        if template is None:
            continue
        pod = template["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True, doc["metadata"]["name"]
        for container in pod["containers"]:
            context = container["securityContext"]
            assert context["allowPrivilegeEscalation"] is False
            assert context["capabilities"]["drop"] == ["ALL"]
