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


def _shown(user, query: str) -> set[int]:
    page = client_for(user).get(f"{reverse('games:lobby')}?{query}").content.decode()
    return {i.pk for i in Invitation.objects.all() if f'id="invitation-{i.pk}"' in page}


def test_the_lobby_filters_by_game_players_time_and_host_rating(alice, bob, charlie):
    from games.models import Rating

    guildhall_3 = invitations.do_create_invitation(bob, players=3, move_days=3)
    renaissance = invitations.do_create_invitation(bob, kind="renaissance", players=2, move_days=7)
    no_limit = invitations.do_create_invitation(charlie, players=2, move_days=None)
    Rating.objects.create(user=bob, kind="guildhall", mu=30, sigma=2, games=9, rating=1600)
    Rating.objects.create(user=charlie, kind="guildhall", mu=25, sigma=8, games=1, rating=900)
    everything = {guildhall_3.pk, renaissance.pk, no_limit.pk}

    assert _shown(alice, "") == everything
    assert _shown(alice, "game=renaissance") == {renaissance.pk}
    assert _shown(alice, "players=3") == {guildhall_3.pk}
    assert _shown(alice, "move_days=none") == {no_limit.pk}
    assert _shown(alice, "move_days=3&game=guildhall") == {guildhall_3.pk}
    assert _shown(alice, "min_rating=1000") == {guildhall_3.pk}  # Bob's Guildhall rating
    # A value it cannot read filters nothing, and says so.
    response = client_for(alice).get(f"{reverse('games:lobby')}?players=many&game=chess")
    assert response.status_code == 200
    assert _shown(alice, "players=many&game=chess") == everything
    assert "errorlist" in response.content.decode()
