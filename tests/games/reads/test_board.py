"""games.reads.board: the board's two hot reads in SQL give what the ORM gives."""

from __future__ import annotations

from django.utils import timezone

from games.community.chat.reads import stamp as chat_stamp
from games.models import ChatLine, Game, Seat
from games.play import cancel_votes, vacations
from games.reads import board as board_reads
from games.reads import clocks
from games.reads.board import PollRow
from tests.games.helpers import start_game


def test_the_seats_are_as_the_orm_reads_them(alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    vacations.do_start_vacation(bob, 3)
    Seat.objects.filter(game=game, user=alice).update(last_seen_at=timezone.now())
    cancel_votes.do_vote_cancel(game.pk, charlie)
    now = timezone.now()

    rows = board_reads.seats(game.pk, now)

    seats = {s.number: s for s in Seat.objects.filter(game=game)}
    away_until = clocks.on_vacation_until([alice.pk, bob.pk, charlie.pk], now)
    assert [r.number for r in rows] == sorted(seats)
    for row in rows:
        seat = seats[row.number]
        assert row.user_id == seat.user_id
        assert row.last_seen_at == seat.last_seen_at
        assert (row.resigned, row.abandoned, row.cancel_vote) == (
            seat.resigned,
            seat.abandoned,
            seat.cancel_vote,
        )
        assert row.vacation_until == away_until.get(seat.user_id)
        assert (row.game_version, row.game_status) == (game.version, game.status)
        assert (row.game_stamp, row.draft_stamp) == (game.stamp, seat.draft_stamp)
    assert any(r.vacation_until is not None and r.vacation_until.tzinfo for r in rows)
    assert board_reads.seats(game.pk + 1000, now) == []


def test_the_poll_reads_the_version_and_the_viewers_seat(alice, bob, charlie):
    game = start_game(alice, bob)
    seen = timezone.now()
    Seat.objects.filter(game=game, user=alice).update(last_seen_at=seen)

    Seat.objects.filter(game=game, user=bob).update(draft_stamp="ab12")
    Game.objects.filter(pk=game.pk).update(stamp=3)

    def row(seated, seen_at, draft_stamp="", chat_stamp="0.0"):
        return PollRow(game.version, game.status, 3, seated, seen_at, draft_stamp, chat_stamp)

    assert board_reads.poll(game.pk, alice.pk) == row(True, seen)
    assert board_reads.poll(game.pk, bob.pk) == row(True, None, "ab12")
    assert board_reads.poll(game.pk, charlie.pk) == row(False, None)
    assert board_reads.poll(game.pk, None) == row(False, None)
    assert board_reads.poll(game.pk + 1000, alice.pk) is None
    # The chat's stamp: its newest line and how many were hidden (games.community.chat.reads.stamp).
    ChatLine.objects.create(game=game, author=alice, text="hi", version=game.version)
    spam = ChatLine.objects.create(
        game=game, author=bob, text="spam", version=game.version, hidden=True
    )
    assert board_reads.poll(game.pk, alice.pk).chat_stamp == f"{spam.pk}.1"
    assert board_reads.poll(game.pk, alice.pk).chat_stamp == chat_stamp(game.pk)
    assert Game.objects.filter(pk=game.pk).exists()
