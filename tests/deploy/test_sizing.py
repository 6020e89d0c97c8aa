"""The million-game plan of docs/scaling.md against the service's bounds: the
plan's per-pod figures are recomputed from its inputs table, and the
Kubernetes manifest (or, where it sets nothing, the service's default) must
hold them; the autoscaler reaches the plan's pods, a pod is one process on
one core, its memory limit holds its streams, and Redis's connections fit
``maxclients``."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import yaml
from throneroom_server.runtime.config import SETTINGS, Config

ROOT = Path(__file__).resolve().parents[2]
SCALING = (ROOT / "docs" / "scaling.md").read_text()
MANIFEST = [
    doc
    for doc in yaml.safe_load_all((ROOT / "deploy" / "k8s" / "throneroom.yaml").read_text())
    if doc
]
REDIS_DEFAULT_MAXCLIENTS = 10_000


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _rows(first_header: str) -> dict[str, list[str]]:
    """A table of the doc by its first column's header: first cell -> the others."""
    lines = SCALING.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[0]] = cells[1:]
    return rows


INPUTS = {name: _number(value) for name, (value,) in _rows("input").items()}
BOUNDS = _rows("bound")


def _kind(kind: str, name: str) -> dict[str, Any]:
    return next(d for d in MANIFEST if d["kind"] == kind and d["metadata"]["name"] == name)


def _container() -> dict[str, Any]:
    spec = _kind("Deployment", "throneroom")["spec"]["template"]["spec"]
    container: dict[str, Any] = spec["containers"][0]
    return container


def _env() -> dict[str, str]:
    return {item["name"]: item["value"] for item in _container()["env"]}


def _setting(variable: str) -> int:
    """What a pod of the manifest runs with: its env, else the default."""
    env = _env()
    if variable in env:
        return int(env[variable])
    setting = next(s for s in SETTINGS if s.env == variable)
    return int(getattr(Config(), setting.field))


def _mebibytes(quantity: str) -> float:
    match = re.fullmatch(r"(\d+)(Mi|Gi)", quantity)
    assert match, quantity
    return int(match[1]) * (1024 if match[2] == "Gi" else 1)


def _pods() -> int:
    cores = INPUTS["moves per second"] * INPUTS["service CPU per move (ms)"] / 1000
    return math.ceil(cores / (INPUTS["autoscaler target (%)"] / 100))


def _per_pod_streams() -> int:
    clients = INPUTS["concurrent games"] * INPUTS["watch streams per game"]
    return math.ceil(clients / _pods())


def test_the_plans_pods_are_what_its_inputs_give_and_the_autoscaler_reaches_them() -> None:
    assert f"**{_pods()} pods**" in SCALING
    hpa = _kind("HorizontalPodAutoscaler", "throneroom")["spec"]
    assert hpa["maxReplicas"] >= _pods()
    target = hpa["metrics"][0]["resource"]["target"]["averageUtilization"]
    assert target == INPUTS["autoscaler target (%)"]


def test_a_pod_is_one_process_on_one_core() -> None:
    assert _setting("THRONEROOM_WORKERS") == 1
    assert _container()["resources"]["requests"]["cpu"] == "1"


def test_every_bound_holds_the_plans_peak() -> None:
    """Streams, watched games (at worst one per stream) and connections (one
    client per stream) per pod, against the manifest's setting."""
    peak = _per_pod_streams()
    for variable in (
        "THRONEROOM_MAX_STREAMS",
        "THRONEROOM_MAX_WATCHED_GAMES",
        "THRONEROOM_MAX_CONNECTIONS",
        "THRONEROOM_MAX_CALLS",
    ):
        at_peak, manifest, default = next(
            cells for name, cells in BOUNDS.items() if name.startswith(f"`{variable}`")
        )
        assert _number(at_peak) == peak, variable
        assert _number(manifest) == _setting(variable), variable
        assert _setting(variable) >= peak, variable
        setting = next(s for s in SETTINGS if s.env == variable)
        assert _number(default) == getattr(Config(), setting.field), variable
    # Watch streams are calls too: the call bound must leave room beside them.
    assert _setting("THRONEROOM_MAX_CALLS") > _setting("THRONEROOM_MAX_STREAMS")


def test_a_pods_memory_limit_holds_its_streams() -> None:
    idle = INPUTS["server memory idle (MB)"]
    per_stream = INPUTS["server memory per watch stream (KB)"] / 1024
    at_peak, limit, _ = BOUNDS["memory (MB)"]
    assert _number(at_peak) == round(idle + _per_pod_streams() * per_stream)
    resources = _container()["resources"]
    assert _number(limit.split()[0]) == _mebibytes(resources["limits"]["memory"])
    at_bound = idle + _setting("THRONEROOM_MAX_STREAMS") * per_stream
    assert at_bound <= _mebibytes(resources["limits"]["memory"])
    assert _mebibytes(resources["requests"]["memory"]) >= _number(at_peak)


def test_redis_connections_fit_maxclients() -> None:
    """Per primary: each pod's command pool and one subscriber connection
    (shard channels), at the plan's peak and at the autoscaler's maximum."""
    per_pod = _setting("THRONEROOM_REDIS_MAX_CONNECTIONS") + 1
    at_peak = _pods() * per_pod
    assert f"**{at_peak:,} connections per primary**" in SCALING
    assert at_peak <= REDIS_DEFAULT_MAXCLIENTS
    most = _kind("HorizontalPodAutoscaler", "throneroom")["spec"]["maxReplicas"] * per_pod
    config = _kind("ConfigMap", "throneroom-redis")["data"]["redis.conf"]
    found = re.search(r"^maxclients (\d+)$", config, re.M)
    assert found and most <= int(found[1])
