"""Small things a regular meets (issue 26.9): an invitation open to all offers no "Decline"
(there is nobody it asks), one that names the player does."""

from django.urls import reverse

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
