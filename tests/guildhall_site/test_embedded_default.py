"""The embedded default under real play: ``rundemo`` (SQLite, a web server and a Celery worker
with beat writing the same database file) takes hundreds of moves from several games at once,
with polls beside them, without a single error.

These start real processes and take about a minute; they need nothing but Python.
"""

import json
import random
import re
import threading

import pytest

from accounts.management.commands.rundemo import DEMO_PASSWORD
from tests.live import DemoSite, Player, board_choices

GAMES = 3
MOVES_PER_GAME = 150


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    # The players here move at machine speed, faster than the limit on a person's moves.
    env = {"API_THROTTLE_ACTIONS": "100000/minute"}
    with DemoSite(tmp_path_factory.mktemp("demo"), env=env) as site:
        yield site


def _player(site: DemoSite, username: str) -> Player:
    player = Player(site.url)
    player.log_in(username, DEMO_PASSWORD)
    return player


def _start_games(alice: Player, bob: Player, count: int) -> list[int]:
    for _ in range(count):
        answer = alice.post(
            "/lobby/new/", {"players": 2, "rules": "yucata", "setup": "sequential", "move_days": 3}
        )
        assert answer.status == 302, answer.body[-2000:]
    lobby = bob.get("/lobby/").body
    game_ids = []
    for invitation in sorted(set(re.findall(r"/invitations/(\d+)/accept/", lobby))):
        answer = bob.post(f"/invitations/{invitation}/accept/", {})
        assert answer.status == 302
        game_ids.append(int(re.search(r"/games/(\d+)/", answer.location).group(1)))
    assert len(game_ids) == count
    return game_ids


def _play(game_id: int, players: list[Player], seed: int, moves: int, answers: list) -> None:
    """Random legal moves, each player in turn looking at the board as htmx does."""
    rand = random.Random(seed)
    made = 0
    while made < moves:
        moved = False
        for player in players:
            board = player.get(f"/games/{game_id}/", **{"HX-Request": "true"})
            answers.append(("board", board.status))
            if board.status != 200:
                return
            version, actions = board_choices(board.body)
            if not actions:
                continue
            answer = player.post(
                f"/games/{game_id}/move/",
                {"action": _json(rand.choice(actions)), "version": version},
                **{"HX-Request": "true"},
            )
            answers.append(("move", answer.status))
            made += 1
            moved = True
        if not moved:
            return  # the game is over


def _poll(game_id: int, players: list[Player], stop: threading.Event, answers: list) -> None:
    while not stop.is_set():
        for player in players:
            answers.append(("poll", player.get(f"/games/{game_id}/poll/?v=0").status))
        stop.wait(0.2)


def _json(action: dict) -> str:
    return json.dumps(action)


class TestEmbeddedDefault:
    def test_it_takes_concurrent_play_without_an_error(self, site):
        alice, bob = _player(site, "alice"), _player(site, "bob")
        game_ids = _start_games(alice, bob, GAMES)
        answers: list[tuple[str, int]] = []
        stop = threading.Event()
        players = [
            threading.Thread(target=_play, args=(g, [alice, bob], g, MOVES_PER_GAME, answers))
            for g in game_ids
        ]
        pollers = [
            threading.Thread(target=_poll, args=(g, [alice, bob], stop, answers)) for g in game_ids
        ]
        for thread in players + pollers:
            thread.start()
        for thread in players:
            thread.join(600)
        stop.set()
        for thread in pollers:
            thread.join(60)

        moves = [status for kind, status in answers if kind == "move"]
        assert len(moves) >= GAMES * 100
        failed = [(kind, status) for kind, status in answers if status >= 500]
        assert failed == [], f"{len(failed)} of {len(answers)} requests failed"
        assert set(moves) == {200}
        log = site.log()
        assert "database is locked" not in log
        assert "Traceback" not in log
        # The worker's emails (printed) link to where this demo serves, not to a default.
        assert f"{site.url}/games/{game_ids[0]}/" in log
        assert "127.0.0.1:8000" not in log
        # The games are whole: each snapshot is its record replayed.
        check = site.manage("verify_games")
        assert check.returncode == 0, check.stdout + check.stderr
