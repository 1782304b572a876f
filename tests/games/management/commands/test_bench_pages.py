"""The building blocks of ``manage.py bench_pages`` (docs/performance.md): the load
generators, the data built through the services, the logged-in session and token, the bare
view. Behaviour only: how fast anything is belongs to the command, not to the tests."""

from __future__ import annotations

import copy
import http.server
import random
import threading
from collections import Counter

import pytest
from django.conf import settings as django_settings
from django.core.management import CommandError, call_command

from games.core import registry
from games.models import Game, Move, Seat
from games.perf import data, load
from games.web.board import poll_token_of

# The load generators ---------------------------------------------------------------------------


@pytest.fixture
def tiny_server():
    """A local HTTP server: 204 on /empty, else 200 with a few bytes (keep-alive)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        seen: Counter = Counter()

        def do_GET(self):
            Handler.seen[self.headers.get("X-Test", "")] += 1
            if self.path == "/empty":
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = b"hello"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], Handler.seen
    server.shutdown()
    server.server_close()


def test_the_python_load_generator_keeps_its_connections_busy_and_measures(tiny_server):
    port, seen = tiny_server
    target = load.Target("tiny", "/page", {"X-Test": "yes"})

    result = load.python_load("127.0.0.1", port, target, connections=3, seconds=0.3)

    assert result.requests > 3
    assert result.errors == 0
    assert result.statuses == {200: result.requests}
    assert seen["yes"] == result.requests  # the headers are sent
    assert 0 < result.p50_ms <= result.p99_ms
    assert result.seconds >= 0.3
    assert result.rps == pytest.approx(result.requests / result.seconds)


def test_answers_other_than_the_expected_one_are_errors(tiny_server):
    port, _seen = tiny_server

    empty = load.python_load(
        "127.0.0.1", port, load.Target("poll", "/empty", expect=204), connections=2, seconds=0.2
    )
    wrong = load.python_load(
        "127.0.0.1", port, load.Target("poll", "/page", expect=204), connections=2, seconds=0.2
    )

    assert empty.requests and empty.errors == 0
    assert wrong.requests and wrong.errors == wrong.requests


def test_no_server_counts_errors_but_no_latency():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nobody listens there once closed

    result = load.python_load(
        "127.0.0.1", port, load.Target("none", "/"), connections=1, seconds=0.1
    )

    assert result.requests == 0
    assert result.errors > 0


def test_percentiles_are_nearest_rank():
    values = [float(x) for x in range(1, 101)]

    assert load.percentile(values, 50) == 50
    assert load.percentile(values, 99) == 99
    assert load.percentile([3.0], 99) == 3
    assert load.percentile([], 50) == 0


WRK_REPORT = """\
Running 5s test @ http://127.0.0.1:8000/games/1/
  2 threads and 8 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    52.10ms   10.20ms 200.00ms   90.00%
    Req/Sec    76.50     12.00   100.00     70.00%
  Latency Distribution
     50%   49.80ms
     75%   55.00ms
     90%   60.00ms
     99%    1.20s
  765 requests in 5.01s, 20.50MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:    152.69
Transfer/sec:      4.09MB
"""


def test_wrk_reports_are_read():
    result = load.parse_wrk(WRK_REPORT)

    assert result.requests == 765
    assert result.seconds == pytest.approx(5.01)
    assert result.p50_ms == pytest.approx(49.8)
    assert result.p99_ms == pytest.approx(1200)
    assert result.errors == 7
    assert result.rps == pytest.approx(765 / 5.01)


def test_wrk_microseconds_and_a_clean_run():
    text = WRK_REPORT.replace("49.80ms", "830.00us").split("  Socket errors")[0]
    text += "Requests/sec:    152.69\n"

    result = load.parse_wrk(text)

    assert result.p50_ms == pytest.approx(0.83)
    assert result.errors == 0


def test_a_report_without_figures_is_refused():
    with pytest.raises(ValueError):
        load.parse_wrk("unable to connect to 127.0.0.1:1 Connection refused\n")


# The data --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_late_game_and_the_dashboard_are_built_through_the_services():
    built = data.build("guildhall", players=4, moves=12, dashboard=3, seed=5)

    game = built.game
    assert game.kind == "guildhall" and len(game.names) == 4
    # 12 decisions: public ones are moves (not a snapshot); the choices of a simultaneous
    # setup still hidden are the game's private records until the step resolves.
    assert game.is_active and game.version + len(game.drafts) == 12
    assert Move.objects.filter(game=game).count() == game.version
    seat = Seat.objects.get(game=game, user=built.viewer)
    assert seat.deciding  # the viewer is the seat the game waits for
    state = registry.get("guildhall").from_json(game.snapshot)
    assert registry.get("guildhall").legal_actions(state, seat.number)
    active = Game.objects.filter(seats__user=built.viewer, status__in=Game.ACTIVE)
    assert built.active_games == active.count() == 3
    assert len(built.users) == 4
    assert all(u.turn_emails == u.TurnEmails.NEVER for u in built.users)


@pytest.mark.django_db
def test_a_game_of_simultaneous_choices_is_built_the_same_way():
    built = data.build("goofspiel", players=3, moves=5, dashboard=2, seed=2)

    assert built.game.kind == "goofspiel" and built.game.version == 5
    assert built.game.is_active
    assert Seat.objects.get(game=built.game, user=built.viewer).deciding
    assert built.active_games == 2


@pytest.mark.django_db
def test_play_stops_when_the_game_is_over():
    users = data.make_users(2, prefix="short")
    game = data.start_game("goofspiel", users[0], users[1:])

    game = data.play(game, 10_000, random.Random(1))

    assert not game.is_active
    assert data.next_move(game, random.Random(1)) is None


@pytest.mark.django_db
def test_the_session_logs_the_viewer_in_and_the_token_opens_the_api(client):
    built = data.build("guildhall", players=2, moves=3, dashboard=1, seed=3)
    game = built.game

    client.cookies[django_settings.SESSION_COOKIE_NAME] = data.login_session(built.viewer)
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200
    assert page.wsgi_request.user == built.viewer
    assert b'name="action"' in page.content  # the decisions of the seat to move
    poll = client.get(f"/games/{game.pk}/poll/?v={poll_token_of(game, None)}")
    assert poll.status_code == 204

    client.cookies.clear()
    token = data.api_token(built.viewer)
    actions = client.get(f"/api/v1/games/{game.pk}/actions/", HTTP_AUTHORIZATION=f"Token {token}")
    assert actions.status_code == 200
    assert actions.json()["my_turn"] is True


# The bare view and the command -----------------------------------------------------------------


@pytest.mark.django_db
def test_the_bare_view_answers_beside_the_site(client, settings):
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [
        *templates[0]["DIRS"],
        settings.BASE_DIR / "guildhall_site" / "bench_templates",
    ]
    settings.TEMPLATES = templates
    settings.ROOT_URLCONF = "guildhall_site.bench_urls"

    bare = client.get("/bench/bare/")

    assert bare.status_code == 200
    assert b"one small template" in bare.content
    assert client.get("/accounts/login/").status_code == 200  # the site's own URLs too


def test_the_site_itself_has_no_bare_view():
    from django.urls import Resolver404, resolve

    with pytest.raises(Resolver404):
        resolve("/bench/bare/")


@pytest.mark.django_db
def test_the_command_refuses_sqlite_and_unknown_games():
    from django.db import connection

    if connection.vendor == "postgresql":
        with pytest.raises(CommandError, match="no game"):
            call_command("bench_pages", "--game", "chess", "--redis", "")
    else:
        with pytest.raises(CommandError, match="PostgreSQL"):
            call_command("bench_pages", "--redis", "")


# bench_render ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["guildhall", "renaissance"])
def test_bench_render_measures_every_row(kind, db):
    """Each row of ``manage.py bench_render`` is the page it should be (the command checks
    each answer before timing it), with its queries counted and its size."""
    from games.management.commands.bench_render import Command, bench_settings

    command = Command()
    options = {
        "repeat": 2,
        "api_moves": 4,
        "dashboard": 3,
        "moves": 30,
        "extra_games": 0,
        "seed": 1,
        "language": "en",
        "profile": False,
        "json": True,
        "sql": False,
    }
    with bench_settings():
        result = command.measure(kind, options)

    rows = result["rows"]
    assert set(rows) >= {
        "bare view",
        "board, fresh",
        "board, fresh, nothing stored",
        "board, cached",
        "unchanged poll",
        "dashboard, fresh",
        "API move",
    }
    assert rows["bare view, no middleware"]["queries"] == 0
    assert rows["bare view"]["queries"] == 2  # the session and the user
    assert rows["board, fresh"]["queries"] > rows["board, cached"]["queries"]
    assert rows["board, fresh"]["kb"] > 10
    assert rows["API move"]["n"] >= 1


def test_bench_render_adds_finished_games_of_others(db, alice, bob):
    from games.management.commands.bench_render import add_finished_games
    from tests.games.helpers import play_one, start_game

    game = start_game(alice, bob)
    rand = random.Random(1)
    for _ in range(12):
        game = play_one(game, rand)
    before = Game.objects.count()

    add_finished_games(game, 7, crowd=4, per_batch=3)

    added = Game.objects.exclude(pk=game.pk)
    assert Game.objects.count() == before + 7
    assert set(added.values_list("status", flat=True)) == {Game.Status.FINISHED}
    assert Seat.objects.filter(game__in=added).count() == 14
    assert not Seat.objects.filter(game__in=added, user__in=[alice, bob]).exists()
    assert Move.objects.filter(game__in=added).count() == 70
