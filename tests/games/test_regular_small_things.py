"""Small things a regular meets (issue 26.9): an invitation open to all offers no "Decline"
(there is nobody it asks), one that names the player does."""

from django.urls import reverse

from games.models import Game, Invitation
from games.play import invitations
from tests.conftest import client_for


def test_only_an_invitation_naming_me_offers_decline(alice, bob, charlie):
    open_one = invitations.do_create_invitation(bob, players=3)
    for_me = invitations.do_create_invitation(bob, invitees=[alice])

    page = client_for(alice).get(reverse("games:lobby")).content.decode()

    decline = f'action="{reverse("games:decline", args=[open_one.pk])}"'
    assert f'id="invitation-{open_one.pk}"' in page and decline not in page
    assert f'action="{reverse("games:decline", args=[for_me.pk])}"' in page
    # Once seated at the open one, I may leave it.
    invitations.do_accept_invitation(open_one.pk, alice)
    page = client_for(alice).get(reverse("games:lobby")).content.decode()
    assert decline in page and "Leave" in page


def _finished(invitation) -> Game:
    game = Game.objects.get(invitation=invitation)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    return game


def test_a_rematch_invites_the_same_people_to_the_same_game(alice, bob, charlie):
    first = invitations.do_create_invitation(
        alice, kind="renaissance", players=2, invitees=[bob], move_days=7
    )
    invitations.do_accept_invitation(first.pk, bob)
    game = _finished(first)
    board = client_for(bob).get(reverse("games:board", args=[game.pk])).content.decode()
    assert reverse("games:rematch", args=[game.pk]) in board

    response = client_for(bob).post(reverse("games:rematch", args=[game.pk]))

    assert response.status_code == 302 and response["Location"] == reverse("games:lobby")
    again = Invitation.objects.exclude(pk=first.pk).get()
    assert (again.creator, again.kind, again.players, again.move_days) == (
        bob,
        "renaissance",
        2,
        7,
    )
    assert list(again.invitees.all()) == [alice]
    assert again.options == first.options
    # Nobody else may ask for it, nor for a game still going on.
    assert client_for(charlie).post(reverse("games:rematch", args=[game.pk])).status_code == 403
    assert Invitation.objects.count() == 2


def test_a_rematch_against_the_computer_starts_at_once(alice):
    first = invitations.do_create_invitation(alice, players=2, computers=["strong"])
    game = _finished(first)

    response = client_for(alice).post(reverse("games:rematch", args=[game.pk]))

    again = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == reverse("games:board", args=[again.pk])
    assert sorted(again.seats.values_list("computer_level", flat=True)) == ["", "strong"]


def test_no_rematch_of_a_game_going_on(alice, bob):
    first = invitations.do_create_invitation(alice, players=2, computers=["normal"])
    game = Game.objects.get(invitation=first)

    response = client_for(alice).post(reverse("games:rematch", args=[game.pk]))

    assert response.status_code == 302
    assert Game.objects.count() == 1 and Invitation.objects.count() == 1
