"""A game's chat (games.community.chat: its actions, reads and views; the API's
/games/<id>/chat/): written by its players, read by the table (and spectators unless it is
for the players only), plain text within its limits, arriving with the board's poll, in the
replay at the moment it was written, never from the site itself."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from games.community.blocks import actions as blocks
from games.community.chat import actions as chat
from games.community.chat import reads as chat_reads
from games.models import ChatLine, Game
from games.play import moves
from games.play.errors import Invalid, NotFound, NotYourTurn
from tests.conftest import HTMX, client_for
from tests.games.api_helpers import Api, game_url
from tests.games.helpers import play_one, start_game
from tests.games.web.test_replay import finish


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


def chat_url(game: Game) -> str:
    return reverse("games:chat", args=[game.pk])


def texts(game: Game, user) -> list[str]:
    return [line.text for line in chat_reads.read(game, user).lines]


class TestWriting:
    def test_a_player_writes_and_the_table_reads_it(self, game, alice, bob, charlie):
        chat.do_write(game.pk, alice, "  good luck!  ")
        chat.do_write(game.pk, bob, "you too")

        for reader in (alice, bob, charlie):  # charlie watches
            assert texts(game, reader) == ["good luck!", "you too"]
        [first, _second] = chat_reads.read(game, bob).lines
        assert (first.author, first.username) == ("Alice", "alice")

    def test_the_line_keeps_the_version_it_was_written_at(self, game, alice):
        game = play_one(game, __import__("random").Random(1))
        line = chat.do_write(game.pk, alice, "hi")

        assert line.version == game.version

    def test_only_the_players_write(self, game, charlie):
        with pytest.raises(NotYourTurn):
            chat.do_write(game.pk, charlie, "let me in")
        assert not ChatLine.objects.exists()

    def test_after_the_end_too(self, game, alice, bob):
        game = moves.do_concede(game.pk, bob)
        assert game.status == Game.Status.FINISHED

        chat.do_write(game.pk, bob, "good game")

        assert texts(game, alice) == ["good game"]

    def test_no_such_game(self, alice):
        with pytest.raises(NotFound):
            chat.do_write(10**9, alice, "hello")

    @pytest.mark.parametrize(
        "text",
        ["", "   \n\t ", "x" * (ChatLine.MAX_LENGTH + 1), "bell\x07", "nul\x00", "esc\x1b[31m"],
    )
    def test_refused_and_nothing_stored(self, game, alice, text):
        with pytest.raises(Invalid):
            chat.do_write(game.pk, alice, text)
        assert not ChatLine.objects.exists()

    def test_at_most_max_length_and_line_breaks_are_text(self, game, alice):
        chat.do_write(game.pk, alice, "x" * ChatLine.MAX_LENGTH)
        chat.do_write(game.pk, alice, "one\ntwo")

        assert texts(game, alice) == ["x" * ChatLine.MAX_LENGTH, "one\ntwo"]


class TestReading:
    def test_players_only_keeps_spectators_out(self, alice, bob, charlie):
        game = start_game(alice, bob, chat_players_only=True)
        chat.do_write(game.pk, alice, "between us")

        assert texts(game, bob) == ["between us"]
        with pytest.raises(chat_reads.NotReadable):
            chat_reads.readable_game(game.pk, charlie)
        client = client_for(charlie)
        assert client.get(chat_url(game), headers=HTMX).status_code == 403
        board = client.get(reverse("games:board", args=[game.pk])).content.decode()
        assert chat_url(game) not in board
        assert Api(charlie).get(game_url(game.pk, "chat")).status_code == 403

    def test_a_blocked_players_lines_are_hidden_for_the_blocker_with_a_count(
        self, game, alice, bob, charlie
    ):
        chat.do_write(game.pk, bob, "rude words")
        chat.do_write(game.pk, alice, "hello")
        blocks.do_block(alice, bob)

        read = chat_reads.read(game, alice)
        assert [line.text for line in read.lines] == ["hello"]
        assert read.blocked == 1
        # Everyone else reads on as before, and nothing tells Bob.
        assert texts(game, bob) == ["rude words", "hello"]
        assert texts(game, charlie) == ["rude words", "hello"]
        page = client_for(alice).get(chat_url(game), headers=HTMX).content.decode()
        assert "rude words" not in page
        assert "1 line from a player you blocked is hidden." in page
        bobs = client_for(bob).get(chat_url(game), headers=HTMX).content.decode()
        assert "blocked" not in bobs

        blocks.do_unblock(alice, bob)
        assert texts(game, alice) == ["rude words", "hello"]

    def test_a_hidden_line_is_gone_for_everyone(self, game, alice, bob):
        line = chat.do_write(game.pk, bob, "spam spam")
        before = chat_reads.stamp(game.pk)
        ChatLine.objects.filter(pk=line.pk).update(hidden=True)

        assert texts(game, alice) == []
        assert chat_reads.stamp(game.pk) != before

    def test_the_newest_lines_on_the_board(self, game, alice, bob):
        for n in range(chat_reads.BOARD_LINES + 3):
            chat.do_write(game.pk, alice, f"line {n}")

        read = chat_reads.read(game, bob)
        assert len(read.lines) == chat_reads.BOARD_LINES
        assert read.lines[-1].text == f"line {chat_reads.BOARD_LINES + 2}"
        assert read.earlier


class TestThePage:
    def test_the_board_loads_the_chat_outside_what_polls_replace(self, game, alice):
        client = client_for(alice)
        page = client.get(reverse("games:board", args=[game.pk])).content.decode()
        partial = client.get(reverse("games:board", args=[game.pk]), headers=HTMX)

        assert f'hx-get="{chat_url(game)}"' in page
        assert chat_url(game) not in partial.content.decode()  # what the polls swap
        assert 'hx-include="#chat-stamp"' in page

    def test_written_and_shown_escaped_with_links(self, game, alice, bob):
        client = client_for(alice)
        text = "<script>alert(1)</script> see https://example.org/rules"

        answer = client.post(chat_url(game), {"text": text}, headers=HTMX)

        assert answer.status_code == 200
        body = answer.content.decode()
        assert "<script>alert(1)</script>" not in body
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
        assert '<a href="https://example.org/rules" rel="nofollow">' in body
        # The form comes back empty, out of band.
        assert 'id="chat-form"' in body and 'hx-swap-oob="true"' in body
        shown = client_for(bob).get(chat_url(game), headers=HTMX).content.decode()
        assert "&lt;script&gt;" in shown and "Alice" in shown

    def test_without_javascript(self, game, alice, bob):
        client = client_for(alice)

        answer = client.post(chat_url(game), {"text": "plain form"})

        assert answer.status_code == 302
        assert answer["Location"].endswith(f"/games/{game.pk}/#chat")
        page = client_for(bob).get(chat_url(game))
        assert page.status_code == 200 and "plain form" in page.content.decode()

    @pytest.mark.parametrize(
        ("data", "message"),
        [
            ({}, "No line was sent"),
            ({"text": "  "}, "an empty line is not sent"),
            ({"text": "x" * 501}, "at most 500 characters"),
            ({"text": "a\x07b"}, "control characters"),
        ],
    )
    def test_refused_with_a_message_and_nothing_stored(self, game, alice, data, message):
        answer = client_for(alice).post(chat_url(game), data, headers=HTMX)

        assert answer.status_code == 400
        assert message in answer.content.decode()
        assert not ChatLine.objects.exists()

    def test_a_spectator_reads_but_has_no_form_and_cannot_write(self, game, alice, charlie):
        chat.do_write(game.pk, alice, "hello all")
        client = client_for(charlie)

        page = client.get(chat_url(game), headers=HTMX).content.decode()
        assert "hello all" in page and 'id="chat-form"' not in page
        assert client.post(chat_url(game), {"text": "me too"}, headers=HTMX).status_code == 403
        assert ChatLine.objects.count() == 1

    def test_no_such_game(self, alice):
        assert client_for(alice).get(reverse("games:chat", args=[10**9])).status_code == 404

    def test_too_many_lines_per_user(self, game, alice, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "chat": "2/minute"}
        client = client_for(alice)
        for text in ("one", "two"):
            assert client.post(chat_url(game), {"text": text}, headers=HTMX).status_code == 200

        refused = client.post(chat_url(game), {"text": "three"}, headers=HTMX)

        assert refused.status_code == 429
        assert "Too many requests" in refused.content.decode()
        assert texts(game, alice) == ["one", "two"]

    def test_too_many_lines_per_address(self, alice, bob, dave, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "chat_address": "3/minute"}
        game = start_game(alice, bob, dave)
        sent = [
            client_for(user).post(chat_url(game), {"text": "hi"}, headers=HTMX).status_code
            for user in (alice, bob, dave, alice)
        ]

        assert sent == [200, 200, 200, 429]
        assert ChatLine.objects.count() == 3


class TestThePoll:
    def poll(self, client, game: Game, stamp: str):
        token = f"{game.version}.{game.stamp}-{game.status}-"
        url = reverse("games:board_poll", args=[game.pk])
        return client.get(url, {"v": token, "c": stamp}, headers=HTMX)

    def test_a_new_line_arrives_with_the_poll(self, game, alice, bob):
        client = client_for(bob)
        stamp = chat_reads.stamp(game.pk)
        quiet = self.poll(client, game, stamp)
        assert quiet.status_code == 204 and "HX-Trigger" not in quiet

        chat.do_write(game.pk, alice, "your move")

        told = self.poll(client, game, stamp)
        assert told.status_code == 204  # the board did not change...
        assert told["HX-Trigger"] == "chat-changed"  # ...the chat did
        fresh = client.get(chat_url(game), {"part": "lines"}, headers=HTMX).content.decode()
        assert "your move" in fresh
        assert chat_reads.stamp(game.pk) in fresh
        assert "HX-Trigger" not in self.poll(client, game, chat_reads.stamp(game.pk))

    def test_a_line_written_while_the_lines_are_read_comes_with_the_next_poll(
        self, game, alice, bob
    ):
        """The lines and their stamp are two queries: a line committed between them must
        leave the stamp older than the chat, or the board never loads that line."""
        written = []

        def write_after_the_lines(execute, sql, params, many, context):
            result = execute(sql, params, many, context)
            if not written and "ORDER BY" in sql and "chat" in sql:
                written.append(chat.do_write(game.pk, alice, "between the queries"))
            return result

        with connection.execute_wrapper(write_after_the_lines):
            read = chat_reads.read(game, bob)
        assert written, "the line was written during the read"
        assert "between the queries" not in [line.text for line in read.lines]
        told = self.poll(client_for(bob), game, read.stamp)
        assert told["HX-Trigger"] == "chat-changed"

    def test_a_poll_without_the_chat_says_nothing_of_it(self, game, alice, bob):
        chat.do_write(game.pk, alice, "psst")
        token = f"{game.version}.{game.stamp}-{game.status}-"
        answer = client_for(bob).get(
            reverse("games:board_poll", args=[game.pk]), {"v": token}, headers=HTMX
        )
        assert answer.status_code == 204 and "HX-Trigger" not in answer


class TestTheApi:
    def test_write_and_read(self, game, alice, bob):
        api = Api(alice)
        written = api.post(game_url(game.pk, "chat"), {"text": "hello <b>Bob</b>"})
        assert written.status_code == 201
        line = written.json()
        assert line["text"] == "hello <b>Bob</b>"  # plain text, as written
        assert (line["author"], line["username"], line["version"]) == ("Alice", "alice", 0)

        Api(bob).post(game_url(game.pk, "chat"), {"text": "hi"})
        listed = Api(bob).get(game_url(game.pk, "chat")).json()
        assert [x["text"] for x in listed["results"]] == ["hello <b>Bob</b>", "hi"]
        after = Api(bob).get(game_url(game.pk, "chat") + f"?after={line['id']}").json()
        assert [x["text"] for x in after["results"]] == ["hi"]

    @pytest.mark.parametrize(
        "body", [{}, {"text": ""}, {"text": "  "}, {"text": 5}, {"text": "x" * 501}]
    )
    def test_bad_lines_are_refused(self, game, alice, body):
        refused = Api(alice).post(game_url(game.pk, "chat"), body)

        assert refused.status_code == 400
        assert refused.json()["code"] == "invalid"
        assert not ChatLine.objects.exists()

    def test_not_a_player(self, game, charlie):
        refused = Api(charlie).post(game_url(game.pk, "chat"), {"text": "hi"})
        assert refused.status_code == 403
        assert not ChatLine.objects.exists()

    def test_bad_after(self, game, alice):
        answer = Api(alice).get(game_url(game.pk, "chat") + "?after=x")
        assert answer.status_code == 400

    def test_blocked_authors_are_left_out(self, game, alice, bob):
        chat.do_write(game.pk, bob, "from bob")
        blocks.do_block(alice, bob)

        listed = Api(alice).get(game_url(game.pk, "chat")).json()
        assert listed["results"] == []


class TestTheReplay:
    def test_lines_appear_at_the_moment_they_were_written(self, game, alice, bob):
        game = finish(game)
        assert game.version > 6
        ChatLine.objects.create(game=game, author=alice, text="before any move", version=0)
        ChatLine.objects.create(game=game, author=bob, text="after five moves", version=5)

        client = client_for(alice)

        def step(n: int) -> str:
            return client.get(reverse("games:replay_step", args=[game.pk, n])).content.decode()

        assert "before any move" in step(1) and "after five moves" not in step(4)
        assert "before any move" in step(5) and "after five moves" in step(5)
        # A line hidden since is gone from the replay too (its cached steps included).
        ChatLine.objects.filter(text="after five moves").update(hidden=True)
        assert "after five moves" not in step(5)

    def test_players_only_chat_is_not_in_a_spectators_replay(self, alice, bob, charlie):
        game = finish(start_game(alice, bob, chat_players_only=True))
        ChatLine.objects.create(game=game, author=alice, text="our secret plan", version=0)

        page = client_for(charlie).get(reverse("games:replay_step", args=[game.pk, 1]))
        assert page.status_code == 200
        assert "our secret plan" not in page.content.decode()


def test_the_whole_history_page_shows_the_whole_chat(game, alice, bob, charlie):
    for n in range(chat_reads.BOARD_LINES + 2):
        chat.do_write(game.pk, alice, f"line {n}")
    blocks.do_block(bob, alice)

    page = client_for(charlie).get(reverse("games:log", args=[game.pk])).content.decode()
    assert "line 0<" in page and f"line {chat_reads.BOARD_LINES + 1}<" in page
    bobs = client_for(bob).get(reverse("games:log", args=[game.pk])).content.decode()
    assert "line 0<" not in bobs


def test_the_site_never_writes_in_a_chat(game, alice, bob):
    """No automatic line: moves, a time-out's marks and the end leave the chat as the
    players left it."""
    import random

    rand = random.Random(5)
    chat.do_write(game.pk, alice, "gl")
    for _ in range(15):
        game = play_one(game, rand)
    moves.do_concede(game.pk, bob)

    assert list(ChatLine.objects.values_list("author__username", "text")) == [("alice", "gl")]
