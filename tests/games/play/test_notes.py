"""A player's private note on a game (games.play.notes, games.web.notes, the API's
/games/<id>/note/): kept for its author, read by nobody else on any page, partial, replay or
API answer; plain text within its limits, or refused with nothing changed."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Note
from games.play import notes
from games.play.errors import Invalid, NotFound, NotYourTurn
from tests.conftest import HTMX, client_for
from tests.games.api_helpers import Api, game_url
from tests.games.helpers import play_one, start_game
from tests.games.web.test_replay import finish

SECRET = "Bob holds the red Trader, I think ⟦plan⟧"


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


def note_url(game: Game) -> str:
    return reverse("games:note", args=[game.pk])


class TestTheService:
    def test_kept_changed_and_cleared(self, game, alice):
        notes.do_save_note(game.pk, alice, "first")
        notes.do_save_note(game.pk, alice, SECRET)

        assert notes.note_text(game.pk, alice) == SECRET
        assert Note.objects.filter(game=game).count() == 1

        assert notes.do_save_note(game.pk, alice, " \n\t ") is None
        assert notes.note_text(game.pk, alice) == ""
        assert not Note.objects.exists()

    def test_each_player_has_their_own(self, game, alice, bob):
        notes.do_save_note(game.pk, alice, "Alice's")
        notes.do_save_note(game.pk, bob, "Bob's")

        assert notes.note_text(game.pk, alice) == "Alice's"
        assert notes.note_text(game.pk, bob) == "Bob's"

    def test_only_the_players_have_notes(self, game, charlie):
        with pytest.raises(NotYourTurn):
            notes.note_text(game.pk, charlie)
        with pytest.raises(NotYourTurn):
            notes.do_save_note(game.pk, charlie, "mine")
        assert not Note.objects.exists()

    def test_no_such_game(self, alice):
        with pytest.raises(NotFound):
            notes.note_text(10**9, alice)

    def test_line_breaks_and_tabs_are_text(self, game, alice):
        text = "turn 3:\n\tkeep the blue Farmer\r\nmaybe"

        notes.do_save_note(game.pk, alice, text)

        assert notes.note_text(game.pk, alice) == text

    @pytest.mark.parametrize(
        "text", ["bell\x07", "nul\x00", "escape\x1b[31m", "next line\x85"], ids=repr
    )
    def test_control_characters_are_refused(self, game, alice, text):
        notes.do_save_note(game.pk, alice, "before")

        with pytest.raises(Invalid, match="control characters"):
            notes.do_save_note(game.pk, alice, text)

        assert notes.note_text(game.pk, alice) == "before"

    def test_at_most_max_length(self, game, alice):
        notes.do_save_note(game.pk, alice, "x" * Note.MAX_LENGTH)

        with pytest.raises(Invalid, match="at most 5000"):
            notes.do_save_note(game.pk, alice, "y" * (Note.MAX_LENGTH + 1))

        assert notes.note_text(game.pk, alice) == "x" * Note.MAX_LENGTH


class TestThePage:
    def test_the_board_loads_the_note_outside_what_polls_replace(self, game, alice):
        board = client_for(alice).get(reverse("games:board", args=[game.pk])).content.decode()

        assert f'hx-get="{note_url(game)}"' in board
        # After the #board partial, which a poll replaces while its player types.
        assert board.index(f'hx-get="{note_url(game)}"') > board.index('id="board"')
        partial = client_for(alice).get(reverse("games:board", args=[game.pk]), headers=HTMX)
        assert note_url(game) not in partial.content.decode()

    def test_a_spectator_gets_no_note(self, game, charlie):
        board = client_for(charlie).get(reverse("games:board", args=[game.pk])).content.decode()

        assert note_url(game) not in board
        assert client_for(charlie).get(note_url(game), headers=HTMX).status_code == 403

    def test_saved_as_its_player_types_and_read_back(self, game, alice):
        client = client_for(alice)

        saved = client.post(note_url(game), {"text": SECRET}, headers=HTMX)

        assert saved.status_code == 200
        assert "Saved at" in saved.content.decode()
        section = client.get(note_url(game), headers=HTMX).content.decode()
        assert "Bob holds the red Trader, I think ⟦plan⟧</textarea>" in section
        assert "<html" not in section

    def test_the_text_is_escaped(self, game, alice):
        client = client_for(alice)
        client.post(note_url(game), {"text": "</textarea><script>alert(1)</script>"}, headers=HTMX)

        section = client.get(note_url(game), headers=HTMX).content.decode()

        assert "<script>alert(1)" not in section
        assert "&lt;/textarea&gt;&lt;script&gt;" in section

    def test_without_javascript(self, game, alice):
        client = client_for(alice)

        page = client.get(note_url(game))
        assert page.status_code == 200
        assert "<html" in page.content.decode()
        saved = client.post(note_url(game), {"text": "plain form"})

        assert saved.status_code == 302
        assert saved["Location"] == reverse("games:board", args=[game.pk]) + "#note"
        assert notes.note_text(game.pk, alice) == "plain form"

    @pytest.mark.parametrize(
        ("data", "message"),
        [
            ({"text": "x" * 5001}, "at most 5000"),
            ({"text": "ring\x07"}, "control characters"),
            ({}, "No note was sent"),
        ],
        ids=["too long", "control", "missing"],
    )
    def test_refused_with_a_message_and_nothing_changed(self, game, alice, data, message):
        client = client_for(alice)
        client.post(note_url(game), {"text": "kept"}, headers=HTMX)

        refused = client.post(note_url(game), data, headers=HTMX)

        assert refused.status_code == 400
        assert message in refused.content.decode()
        assert notes.note_text(game.pk, alice) == "kept"

    def test_someone_else_cannot_write_it(self, game, alice, charlie):
        notes.do_save_note(game.pk, alice, SECRET)

        refused = client_for(charlie).post(note_url(game), {"text": "mine"}, headers=HTMX)

        assert refused.status_code == 403
        assert notes.note_text(game.pk, alice) == SECRET

    def test_no_such_game(self, alice):
        assert client_for(alice).get(reverse("games:note", args=[10**9])).status_code == 404

    def test_too_many_saves(self, game, alice, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "notes": "2/minute"}
        client = client_for(alice)
        for text in ("one", "two"):
            assert client.post(note_url(game), {"text": text}, headers=HTMX).status_code == 200

        refused = client.post(note_url(game), {"text": "three"}, headers=HTMX)

        assert refused.status_code == 429
        assert "Too many requests" in refused.content.decode()
        assert notes.note_text(game.pk, alice) == "two"


def every_answer(game: Game, user, steps: int = 6) -> str:
    """Everything ``user`` can read of the game, as pages, partials and API answers, while
    it is played on."""
    client, api = client_for(user), Api(user)
    rand = random.Random(1)
    seen = []
    for _ in range(steps):
        board = reverse("games:board", args=[game.pk])
        seen.append(client.get(board).content.decode())
        seen.append(client.get(board, headers=HTMX).content.decode())
        seen.append(client.get(reverse("games:log", args=[game.pk])).content.decode())
        for part in ("", "actions", "moves"):
            seen.append(api.get(game_url(game.pk, part)).content.decode())
        if game.is_active:
            game = play_one(Game.objects.get(pk=game.pk), rand)
    return "\n".join(seen)


def test_nobody_else_ever_reads_it(game, alice, bob, charlie):
    notes.do_save_note(game.pk, alice, SECRET)

    for user in (bob, charlie):
        assert "red Trader, I think" not in every_answer(game, user)
    # Bob reads his own note (none), Charlie, who does not play, none at all.
    assert Api(bob).get(game_url(game.pk, "note")).json() == {"text": ""}
    assert "red Trader" not in client_for(bob).get(note_url(game), headers=HTMX).content.decode()
    assert Api(charlie).get(game_url(game.pk, "note")).status_code == 403
    assert client_for(charlie).get(note_url(game), headers=HTMX).status_code == 403
    anonymous = Client().get(note_url(game), headers=HTMX)
    assert anonymous["HX-Redirect"].startswith(reverse("account_login"))
    assert "red Trader, I think" not in anonymous.content.decode()
    assert Client().get(note_url(game)).status_code == 302


class TestTheApi:
    def test_read_and_write_my_note(self, game, alice):
        api = Api(alice)

        assert api.get(game_url(game.pk, "note")).json() == {"text": ""}
        saved = api.put(game_url(game.pk, "note"), {"text": SECRET})

        assert saved.status_code == 200
        assert saved.json() == {"text": SECRET}
        assert api.get(game_url(game.pk, "note")).json() == {"text": SECRET}
        assert api.put(game_url(game.pk, "note"), {"text": "  "}).json() == {"text": ""}
        assert not Note.objects.exists()

    @pytest.mark.parametrize(
        "body",
        [{"text": "x" * 5001}, {"text": "\x00"}, {"text": 5}, {}, {"text": None}],
        ids=["too long", "nul", "number", "missing", "null"],
    )
    def test_bad_notes_are_refused(self, game, alice, body):
        api = Api(alice)
        api.put(game_url(game.pk, "note"), {"text": "kept"})

        refused = api.put(game_url(game.pk, "note"), body)

        assert refused.status_code == 400
        assert notes.note_text(game.pk, alice) == "kept"

    def test_not_a_player(self, game, charlie):
        refused = Api(charlie).put(game_url(game.pk, "note"), {"text": "mine"})

        assert refused.status_code == 403
        assert not Note.objects.exists()


class TestTheReplay:
    def test_its_author_reads_it_after_the_end_and_nobody_else(self, game, alice, bob):
        notes.do_save_note(game.pk, alice, SECRET)
        game = finish(game)
        replay = reverse("games:replay", args=[game.pk])

        page = client_for(alice).get(replay, follow=True).content.decode()
        assert f'hx-get="{note_url(game)}"' in page
        section = client_for(alice).get(note_url(game), headers=HTMX).content.decode()
        assert "red Trader, I think" in section

        other = client_for(bob).get(replay, follow=True).content.decode()
        assert "red Trader, I think" not in other
        assert client_for(bob).get(note_url(game), headers=HTMX).status_code == 200
        assert (
            "red Trader, I think"
            not in client_for(bob).get(note_url(game), headers=HTMX).content.decode()
        )


def test_in_german(game, alice):
    alice.language = "de"
    alice.save(update_fields=["language"])
    client = client_for(alice)

    section = client.get(note_url(game), headers=HTMX).content.decode()
    refused = client.post(note_url(game), {"text": "\x07"}, headers=HTMX).content.decode()

    assert "Deine Notiz" in section
    assert "nur du kannst sie lesen" in section
    assert "Steuerzeichen" in refused
