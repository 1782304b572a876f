"""Playing the computer has a short form of its own (issue 26.7): the game, its options, the
opponents and their strength, and "Start the game"; no invitee, rating, time or chat field."""

from django.urls import reverse

from games.models import Game, Invitation, Seat

NEW = reverse("games:invitation_new")


def test_the_form_asks_only_what_a_game_against_the_computer_needs(client, alice):
    client.force_login(alice)

    page = client.get(f"{NEW}?game=renaissance&against=computer").content.decode()

    assert "Start the game" in page and "Open the invitation" not in page
    assert "Renaissance Man against the computer" in page
    for absent in ("invitees", "rated", "move_days", "chat_players_only", 'name="players"'):
        assert absent not in page
    assert 'name="computers"' in page and 'name="computer_level"' in page
    assert "3 computer players" in page  # Renaissance Man seats up to four
    # The one-player variants cannot apply: the computer makes two players at least.
    assert 'name="solo"' not in page and 'name="solo_cards"' not in page
    assert 'name="solo"' in client.get(f"{NEW}?game=renaissance").content.decode()


def test_it_starts_the_game_at_once_with_the_strength_chosen(client, alice):
    client.force_login(alice)

    response = client.post(
        f"{NEW}?against=computer",
        {"game": "guildhall", "rules": "yucata", "setup": "sequential"}
        | {"computers": 2, "computer_level": "strong"},
    )

    assert response.status_code == 302, response.content.decode()[-3000:]
    game = Game.objects.get()
    assert response["Location"] == reverse("games:board", args=[game.pk])
    assert len(game.names) == 3 and not game.rated and game.move_days is None
    levels = sorted(Seat.objects.filter(game=game).values_list("computer_level", flat=True))
    assert levels == ["", "strong", "strong"]
    assert Invitation.objects.get().invitees.count() == 0


def test_a_strength_the_game_has_not_is_a_form_error(client, alice):
    client.force_login(alice)

    response = client.post(
        f"{NEW}?against=computer",
        {"game": "guildhall", "rules": "yucata", "computers": 1, "computer_level": "god"},
    )

    assert response.status_code == 200
    assert "Start the game" in response.content.decode()
    assert not Game.objects.exists()
