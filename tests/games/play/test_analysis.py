"""A finished game's analysis on the site (games.play.analysis, games.reads.analysis): a
player asks, the computer players' task computes it once and keeps it; its players see the
chart and the decisions that cost most on the replay, in English and German, and in the
API; nothing of it before the end (page, API, task), nothing for anyone not seated; bad
input is a 4xx. Tiny budgets: the tests are of the plumbing, not of the search."""

from __future__ import annotations

import json
import random
import re

import pytest
import redis
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import timezone

from games.core import analysis as core
from games.core.match import Match
from games.models import Analysis, Game, Move, Seat
from games.play import analysis
from tests.conftest import client_for
from tests.games.api_helpers import Api, game_url
from tests.games.helpers import start_game

pytestmark = pytest.mark.usefixtures("seats_in_order")


@pytest.fixture(autouse=True)
def _tiny_budget(settings):
    settings.ANALYSIS_ITERATIONS = 8
    settings.ANALYSIS_SECONDS = 60


def finish_short(game: Game, moves: int = 24) -> Game:
    """``game`` played by random moves for ``moves`` records, then conceded by seat 1 (a
    short finished game), stored as the services store one."""
    kind = game.game_kind
    match = Match(kind, game.engine_options(), game.names, game.seed)
    rand = random.Random(game.seed)
    rows = []
    while len(match.record) <= moves:
        seat = min(kind.deciders(match.state))
        action = kind.choose(match.state, seat, rand) if len(match.record) < moves else None
        if action is None:
            seat, action = 1, {"kind": "resign"}
        events = match.apply(action, seat)
        rows.append(
            Move(game=game, number=len(match.record), seat=seat, action=action, events=events)
        )
    Move.objects.bulk_create(rows)
    result = kind.result(match.state)
    assert result is not None
    for row in result:
        Seat.objects.filter(game=game, number=row["seat"]).update(
            rank=row["rank"], score=row["score"], deciding=False, deadline=None
        )
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        version=len(match.record),
        snapshot=kind.to_json(match.state),
        finished=timezone.now(),
    )
    game.refresh_from_db()
    return game


@pytest.fixture(params=["guildhall", "renaissance"])
def finished(request, alice, bob) -> Game:
    return finish_short(start_game(alice, bob, kind=request.param))


def ask(user, game: Game, step: object = 0):
    client = client_for(user)
    url = reverse("games:analysis", args=[game.pk])
    return client.post(url, {"step": step})


def replay_page(user, game: Game, *, german: bool = False) -> str:
    client = client_for(user)
    if german:
        user.language = "de"
        user.save(update_fields=["language"])
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    response = client.get(reverse("games:replay_step", args=[game.pk, 0]))
    assert response.status_code == 200
    return response.content.decode()


class TestAsked:
    def test_a_player_asks_and_it_is_computed_once_then_kept(
        self, finished, alice, bob, django_capture_on_commit_callbacks
    ):
        assert f'action="/games/{finished.pk}/analysis/"' in replay_page(alice, finished)
        with django_capture_on_commit_callbacks(execute=True) as hooks:
            response = ask(alice, finished, 0)
        assert response.status_code == 302
        assert response["Location"].endswith(f"/replay/{0}/#analysis")
        assert len(hooks) == 1  # the task, queued after the commit (run inline here)
        row = Analysis.objects.get(game=finished)
        assert row.status == Analysis.Status.READY and row.requested_by == alice
        assert row.result["decisions"] and row.result["complete"]
        kept = (row.finished, row.result)
        # Asked again, by either player, or delivered twice: nothing is computed again.
        with django_capture_on_commit_callbacks(execute=True) as hooks:
            assert ask(bob, finished, 0).status_code == 302
        assert not hooks
        assert analysis.analyse_game(finished.pk) is False
        row.refresh_from_db()
        assert (row.finished, row.result) == kept
        assert Analysis.objects.filter(game=finished).count() == 1
        # The replay shows it now (its cached page without it is not served again).
        content = replay_page(alice, finished)
        assert '<svg class="chart"' in content
        assert content.count('<polyline class="series') == 2

    def test_the_api_asks_and_reads_it(self, alice, bob, django_capture_on_commit_callbacks):
        game = finish_short(start_game(alice, bob, kind="renaissance"))
        api = Api(alice)
        assert api.get(game_url(game.pk, "analysis")).json() == {
            "status": "none",
            "complete": True,
            "decisions": [],
        }
        with django_capture_on_commit_callbacks(execute=True):
            first = api.post(game_url(game.pk, "analysis"))
        assert first.status_code == 202
        assert first.json()["status"] == "queued"  # (the task ran after the commit)
        again = api.post(game_url(game.pk, "analysis"))
        assert again.status_code == 200 and again.json()["status"] == "ready"
        decisions = api.get(game_url(game.pk, "analysis")).json()["decisions"]
        assert decisions == again.json()["decisions"]
        assert {d["seat"] for d in decisions} <= {0, 1} and decisions[0]["played"]
        assert str(game.seed) not in str(decisions)


@pytest.mark.skipif(not django_settings.REDIS_URL, reason="needs Redis: set REDIS_URL")
def test_queued_on_the_computer_lane_behind_its_moves(
    settings, alice, bob, django_capture_on_commit_callbacks
):
    """Really queued (on the test's Redis, no worker): on the computer players' queue, in
    its lowest priority's list (kombu's "<queue>\\x06\\x16<priority>", served after 0)."""
    from guildhall_site.celery import app

    game = finish_short(start_game(alice, bob))
    saved = {
        "task_always_eager": app.conf.task_always_eager,
        "broker_url": app.conf.broker_url,
        "broker_transport_options": app.conf.broker_transport_options,
    }
    app.close()
    app.conf.update(
        task_always_eager=False, broker_url=settings.REDIS_URL, broker_transport_options={}
    )
    broker = redis.Redis.from_url(settings.REDIS_URL)
    lowest = f"{settings.COMPUTER_QUEUE}\x06\x169"
    broker.delete(settings.COMPUTER_QUEUE, lowest)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            analysis.do_request_analysis(game.pk, alice)
        [message] = broker.lrange(lowest, 0, -1)
        assert json.loads(message)["headers"]["task"] == "games.analyse_game"
        assert broker.llen(settings.COMPUTER_QUEUE) == 0
    finally:
        broker.delete(settings.COMPUTER_QUEUE, lowest)
        app.close()
        app.conf.update(saved)


class TestRefused:
    def test_nothing_before_the_end_page_api_or_task(self, alice, bob):
        game = start_game(alice, bob)
        assert ask(alice, game).status_code == 404
        api = Api(alice)
        for response in (
            api.get(game_url(game.pk, "analysis")),
            api.post(game_url(game.pk, "analysis")),
        ):
            assert response.status_code == 404
            assert response.json()["code"] == "not_found"
        assert analysis.analyse_game(game.pk) is False
        # Even with a row somehow there, the task refuses and leaves it.
        Analysis.objects.create(game=game)
        assert analysis.analyse_game(game.pk) is False
        assert Analysis.objects.get(game=game).status == Analysis.Status.QUEUED

    def test_only_its_players(self, alice, bob, charlie):
        game = finish_short(start_game(alice, bob))
        assert ask(charlie, game).status_code == 403
        api = Api(charlie)
        assert api.get(game_url(game.pk, "analysis")).status_code == 403
        assert api.post(game_url(game.pk, "analysis")).status_code == 403
        assert not Analysis.objects.exists()
        assert 'id="analysis"' not in replay_page(charlie, game)

    def test_bad_input(self, alice, bob):
        game = finish_short(start_game(alice, bob))
        assert ask(alice, game, "two").status_code == 400
        assert client_for(alice).get(reverse("games:analysis", args=[game.pk])).status_code == 405
        assert ask(alice, Game(pk=game.pk + 1000)).status_code == 404
        assert Api(alice).post(game_url(game.pk + 1000, "analysis")).status_code == 404
        # Nobody asked for it: the task has nothing to do.
        assert analysis.analyse_game(game.pk) is False
        assert not Analysis.objects.exists()


def stored_with_marks(game: Game) -> list[core.Judged]:
    """An analysis stored as the task would, whose two decisions of seat 0 cost 25 and 40
    points of chance (the search's other judgements are tested in tests/games/core)."""
    kind = game.game_kind
    record = [m.record() for m in Move.objects.filter(game=game).order_by("number")]
    found = [
        d
        for d in core.decisions(kind, game.engine_options(), game.names, game.seed, record)
        if d.seat == 0
    ]
    judged = []
    for d, (before, after) in zip(found[1:3], [(0.7, 0.45), (0.6, 0.2)], strict=True):
        best = next(a for a in kind.legal_actions(d.state, 0) if a != d.action)
        judged.append(core.Judged(d.step, 0, d.action, best, before, after, 8))
    result = core.Analysis(tuple(judged), complete=True, seconds=1.0, iterations=16)
    Analysis.objects.create(
        game=game, status="ready", finished=timezone.now(), result=result.to_json()
    )
    return judged


class TestShown:
    def test_the_marked_decisions_in_the_games_words(self, finished, alice):
        judged = stored_with_marks(finished)
        content = replay_page(alice, finished)
        marks = re.findall(r'<li value="(\d)" data-seat="0">(.*?)</li>', content, re.S)
        assert [n for n, _ in marks] == ["1", "2"]
        assert "+25%" in marks[0][1] and "+40%" in marks[1][1]
        assert "would have been better than" in marks[0][1]
        # Each links to the replay's step where it was decided.
        url = reverse("games:replay_step", args=[finished.pk, judged[0].step - 1])
        assert f'href="{url}"' in marks[0][1]
        assert content.count('<g class="mark mark-0">') == 2
        # The chance's axis in percent, from 0 to 100.
        ticks = re.findall(r'<text class="y-tick" x="[\d.]+" y="[\d.]+">([^<]*)</text>', content)
        assert ticks == ["0%", "25%", "50%", "75%", "100%"]

    def test_in_german(self, finished, alice):
        stored_with_marks(finished)
        content = replay_page(alice, finished, german=True)
        assert "Analyse" in content
        assert "wäre besser gewesen als" in content
        assert "would have been better" not in content
