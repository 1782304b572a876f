"""The dashboard's figures in /metrics (games by kind and state, active players), and the
Grafana dashboard and Prometheus alert rules shipped in docs/ops: they parse, and every metric
they name is one the site exports."""

from __future__ import annotations

import json
import os
import re
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from games.models import Game, Seat
from tests.games.helpers import start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seats_in_order")]

OPS = Path(django_settings.BASE_DIR) / "docs" / "ops"
TOKEN = "dashboard-scrape-token"


@pytest.fixture
def scrape(settings):
    if not django_settings.REDIS_URL:
        if os.environ.get("CI") == "true":
            pytest.fail("REDIS_URL is needed under CI")
        pytest.skip("needs Redis: set REDIS_URL (the queues' and heartbeats' figures)")
    settings.METRICS_ENABLED = True
    settings.METRICS_TOKEN = TOKEN
    settings.METRICS_ALLOWED_NETWORKS = []
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = django_settings.REDIS_URL

    def read() -> dict[str, dict[tuple, float]]:
        response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
        assert response.status_code == 200
        return {
            family.name: {
                (s.name, tuple(sorted(s.labels.items()))): s.value for s in family.samples
            }
            for family in text_string_to_metric_families(response.content.decode())
        }

    return read


def test_games_by_kind_and_state_and_active_players(scrape, alice, bob, charlie):
    playing = start_game(alice, bob)
    finished = start_game(alice, charlie)
    Game.objects.filter(pk=finished.pk).update(status="finished", finished=timezone.now())
    Seat.objects.filter(game=playing, user=alice).update(last_seen_at=timezone.now())
    Seat.objects.filter(game=finished, user=charlie).update(
        last_seen_at=timezone.now() - timedelta(hours=2)
    )

    families = scrape()

    games = families["guildhall_games"]
    # Running: in its setup (Guildhall's first choices) or playing.
    running = sum(
        games.get(("guildhall_games", (("game", "guildhall"), ("status", status))), 0)
        for status in ("setup", "playing")
    )
    assert running == 1
    assert games[("guildhall_games", (("game", "guildhall"), ("status", "finished")))] == 1
    players = families["guildhall_players_active"]
    assert players[("guildhall_players_active", (("within", "15m"),))] == 1
    assert players[("guildhall_players_active", (("within", "24h"),))] == 2


# Suffixes Prometheus adds to a family's samples.
SUFFIXES = ("_total", "_bucket", "_sum", "_count", "_created")


def named_metrics(expression: str) -> set[str]:
    names = set(re.findall(r"\b(guildhall_[a-z0-9_]+)", expression))
    return {n for n in names}


def exported(families: dict) -> set[str]:
    names = set(families)
    for family in families.values():
        names |= {name for name, _ in family}
    return names


def test_the_dashboard_and_the_alerts_parse_and_name_only_exported_metrics(scrape):
    dashboard = json.loads((OPS / "grafana-dashboard.json").read_text())
    rules = yaml.safe_load((OPS / "alerts.yml").read_text())
    expressions = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    expressions += [r["expr"] for g in rules["groups"] for r in g["rules"]]
    assert all(
        r["alert"] and r["annotations"]["summary"] for g in rules["groups"] for r in g["rules"]
    )
    # Counters and histograms with no sample yet show only their family's name.
    names = exported(scrape())
    families = {n.removesuffix(s) for n in names for s in SUFFIXES if n.endswith(s)} | names

    used = set().union(*(named_metrics(e) for e in expressions))
    assert {"guildhall_process_up", "guildhall_games", "guildhall_players_active"} <= used
    unknown = sorted(
        n
        for n in used
        if n not in names and not any(n == f + s for f in families for s in SUFFIXES)
    )
    assert not unknown, f"not exported by the site: {unknown}"
