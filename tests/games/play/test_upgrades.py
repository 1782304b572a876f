"""Games stored by an earlier release, in an older state format and under older rules
(issue 43): ``verify_games`` compares like with like, a move rebuilds an old snapshot from
its record, and ``manage.py upgrade_games`` rewrites old snapshots (a dry run says what it
would change and changes nothing). The databases of real earlier releases are in
tests/games/upgrades/."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.core import replays
from games.management.commands.verify_games import check_game
from games.models import Game, Move, Seat
from games.play import invitations, moves
from games.reads.records import stored_game
from games.renaissance.formats import FORMATS
from tests.games.helpers import start_game


def play(game: Game, n: int, rand: random.Random) -> Game:
    for _ in range(n):
        seat = Seat.objects.filter(game=game, deciding=True).order_by("number").first()
        kind = game.game_kind
        action = kind.choose(kind.from_json(game.snapshot), seat.number, rand)
        game = moves.do_submit_action(game.pk, seat.user, action, game.version)
    return game


def stored_as(game: Game, fmt: int) -> Game:
    """The game as the code of an earlier format would have stored it."""
    Game.objects.filter(pk=game.pk).update(snapshot=FORMATS.project(game.snapshot, fmt))
    return Game.objects.get(pk=game.pk)


@pytest.fixture(autouse=True)
def same_games(monkeypatch):
    """The same deals and seats every run."""
    monkeypatch.setattr(invitations, "seed_random", random.Random(1))
    monkeypatch.setattr(invitations, "seat_random", random.Random(44))


@pytest.fixture
def old_game(alice, bob) -> Game:
    """A Renaissance Man game begun under rules 1, stored in format 1 after 40 records."""
    game = start_game(alice, bob, kind="renaissance")
    Game.objects.filter(pk=game.pk).update(rules=1)
    game = play(stored_as(game, 1), 40, random.Random(4))
    assert (game.snapshot["format"], game.snapshot["rules"]) == (FORMATS.current, 1)
    return stored_as(game, 1)


def upgrade(*args) -> str:
    out = StringIO()
    call_command("upgrade_games", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


class TestVerifyGames:
    def test_it_compares_an_old_snapshot_with_the_replay_as_its_format_held_it(self, old_game):
        assert old_game.snapshot["format"] == 1
        assert check_game(old_game) is None

    def test_it_reports_a_changed_old_snapshot(self, old_game):
        snapshot = {**old_game.snapshot, "round": old_game.snapshot["round"] + 1}
        Game.objects.filter(pk=old_game.pk).update(snapshot=snapshot)

        assert check_game(Game.objects.get(pk=old_game.pk)) == (
            "its snapshot differs from the replay of its record"
        )

    def test_it_reports_a_changed_record_of_an_old_game(self, old_game):
        last = Move.objects.filter(game=old_game).order_by("-number").first()
        Move.objects.filter(pk=last.pk).update(seat=1 - last.seat)

        assert check_game(old_game) is not None

    def test_it_reports_a_game_replayed_under_other_rules(self, old_game):
        # The fixture's games tell the versions apart; here: a rules version it never had.
        Game.objects.filter(pk=old_game.pk).update(rules=3)
        problem = check_game(Game.objects.get(pk=old_game.pk))
        assert problem.startswith("it cannot be set up again")


class TestAMoveOnAnOldGame:
    def test_it_rebuilds_the_snapshot_from_the_record(self, old_game):
        game = play(old_game, 1, random.Random(5))

        replayed = replays.replay(stored_game(game)).state
        assert game.snapshot == replays.stored(game.game_kind.to_json(replayed))
        assert game.snapshot["format"] == FORMATS.current and game.rules == 1
        assert check_game(game) is None
        # What format 1 lacked comes from the record: the hand cards everyone saw taken
        # (an upgrade of the snapshot alone would know none).
        assert any(p["known"] for p in game.snapshot["players"])


class TestUpgradeGames:
    def test_a_dry_run_says_what_it_would_change_and_changes_nothing(self, old_game):
        out = upgrade("--dry-run")

        assert f"Game {old_game.pk}: snapshot from format 1 to {FORMATS.current}" in out
        assert "1 would change, 0 left as they were" in out
        assert Game.objects.get(pk=old_game.pk).snapshot == old_game.snapshot

    def test_it_rewrites_old_snapshots_from_their_records(self, old_game):
        upgrade()

        game = Game.objects.get(pk=old_game.pk)
        assert (game.snapshot["format"], game.snapshot["rules"]) == (FORMATS.current, 1)
        assert game.stamp == old_game.stamp + 1  # boards read afresh
        assert check_game(game) is None
        assert "0 changed" in upgrade()

    def test_it_leaves_a_game_nothing_explains_and_says_so(self, old_game):
        last = Move.objects.filter(game=old_game).order_by("-number").first()
        Move.objects.filter(pk=last.pk).update(action={"kind": "foundation", "worker": "rm"})

        with pytest.raises(CommandError, match="1 left as they were"):
            upgrade()

        assert Game.objects.get(pk=old_game.pk).snapshot == old_game.snapshot
        assert not Move.objects.filter(game=old_game, rules__isnull=False).exists()


class TestBackTo:
    def test_it_stores_a_game_s_snapshots_in_the_format_of_the_release_before(
        self, old_game, alice, bob
    ):
        upgrade()
        guildhall = start_game(alice, bob)

        out = upgrade("--back-to", "renaissance:3")

        assert f"Game {old_game.pk}: snapshot from format {FORMATS.current} back to 3" in out
        game = Game.objects.get(pk=old_game.pk)
        assert game.snapshot["format"] == 3 and "rules" not in game.snapshot
        assert check_game(game) is None  # like with like, in format 3
        assert Game.objects.get(pk=guildhall.pk).snapshot == guildhall.snapshot

    @pytest.mark.parametrize("value", ["renaissance:99", "renaissance:0", "chess:1", "renaissance"])
    def test_it_refuses_a_format_the_game_never_had(self, old_game, value):
        with pytest.raises(CommandError, match="not a game and one of its formats"):
            upgrade("--back-to", value)


@pytest.mark.parametrize(("fmt", "rules"), [(1, 1), (2, 2), (3, 2), (4, 2)])
def test_a_game_stored_in_any_earlier_format_verifies_and_plays_on(alice, bob, fmt, rules):
    game = start_game(alice, bob, kind="renaissance")
    Game.objects.filter(pk=game.pk).update(rules=rules)
    game = stored_as(play(stored_as(game, fmt), 30, random.Random(fmt)), fmt)
    assert check_game(game) is None

    game = play(game, 10, random.Random(fmt + 10))

    assert (game.snapshot["format"], game.snapshot["rules"]) == (FORMATS.current, rules)
    assert check_game(game) is None
