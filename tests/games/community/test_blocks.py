"""Blocking a player (games.community.blocks): a blocked player cannot invite the blocker, join
their open invitations or be seated with them by one (either way round), and is never told;
their chat lines are hidden from the blocker (tests/games/community/test_chat.py);
unblocking undoes it all. From the profile's buttons and in every path of the invitations."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.community.blocks import actions as blocks
from games.community.blocks import reads as block_reads
from games.community.friends import actions as friends
from games.community.friends import reads as friend_reads
from games.community.models import Block
from games.models import Invitation
from games.play import invitations
from games.play.errors import Invalid, NotFound
from games.reads import queries
from tests.conftest import client_for
from tests.games.api_helpers import Api


def open_invitation(creator, players: int = 3) -> Invitation:
    return invitations.do_create_invitation(creator, players=players)


class TestTheService:
    def test_block_and_unblock(self, alice, bob):
        assert blocks.do_block(alice, bob)
        assert not blocks.do_block(alice, bob)  # twice: nothing more
        assert block_reads.is_blocked(alice, bob) and not block_reads.is_blocked(bob, alice)
        assert block_reads.blocked_ids(alice) == {bob.pk}

        assert blocks.do_unblock(alice, bob)
        assert not blocks.do_unblock(alice, bob)
        assert not Block.objects.exists()

    def test_not_oneself_nor_a_computer(self, alice):
        from games.play import computer_players

        with pytest.raises(ValidationError):
            blocks.do_block(alice, alice)
        with pytest.raises(ValidationError):
            blocks.do_block(alice, computer_players.account("easy", 1))
        assert not Block.objects.exists()

    def test_a_blocked_friend_is_a_friend_no_more(self, alice, bob):
        friends.do_add_friend(alice, bob)

        blocks.do_block(alice, bob)

        assert not friend_reads.is_friend(alice, bob)


class TestInvitations:
    def test_a_blocked_player_cannot_invite_the_blocker_and_is_not_told_why(self, alice, bob):
        blocks.do_block(alice, bob)

        with pytest.raises(Invalid) as refused:
            invitations.do_create_invitation(bob, players=2, invitees=["alice"])

        assert refused.value.message == "You cannot invite alice."
        assert "block" not in refused.value.message
        assert not Invitation.objects.exists()

    def test_the_blocker_cannot_invite_whom_they_blocked_until_unblocking(self, alice, bob):
        blocks.do_block(alice, bob)

        with pytest.raises(Invalid, match="You blocked bob"):
            invitations.do_create_invitation(alice, players=2, invitees=["bob"])
        blocks.do_unblock(alice, bob)
        invitations.do_create_invitation(alice, players=2, invitees=["bob"])

    def test_the_blockers_open_invitations_are_not_shown_to_the_blocked(self, alice, bob, charlie):
        invitation = open_invitation(alice)
        blocks.do_block(alice, bob)

        assert invitation not in [r.invitation for r in queries.open_invitations(bob)]
        assert not queries.visible_invitations(bob).filter(pk=invitation.pk).exists()
        assert invitation in [r.invitation for r in queries.open_invitations(charlie)]
        lobby = client_for(bob).get(reverse("games:lobby")).content.decode()
        assert f"/invitations/{invitation.pk}/accept/" not in lobby
        api = Api(bob)
        assert api.get(f"/api/v1/invitations/{invitation.pk}/").status_code == 404

    def test_the_blocked_cannot_join_them_as_if_they_did_not_exist(self, alice, bob):
        invitation = open_invitation(alice)
        blocks.do_block(alice, bob)

        with pytest.raises(NotFound):
            invitations.do_accept_invitation(invitation.pk, bob)
        answer = client_for(bob).post(reverse("games:accept", args=[invitation.pk]))
        assert answer.status_code == 404
        assert not invitation.responses.filter(user=bob).exists()

    def test_nor_be_seated_with_a_blocker_who_joined_someone_elses(self, alice, bob, charlie, dave):
        invitation = open_invitation(charlie)
        invitations.do_accept_invitation(invitation.pk, alice)
        blocks.do_block(alice, bob)

        assert invitation not in [r.invitation for r in queries.open_invitations(bob)]
        with pytest.raises(NotFound):
            invitations.do_accept_invitation(invitation.pk, bob)
        invitations.do_accept_invitation(invitation.pk, dave)  # anyone else sits
        invitation.refresh_from_db()
        assert invitation.status == Invitation.Status.STARTED

    def test_the_blocker_does_not_join_one_the_blocked_is_in(self, alice, bob, charlie):
        invitation = open_invitation(charlie)
        invitations.do_accept_invitation(invitation.pk, bob)
        blocks.do_block(alice, bob)

        with pytest.raises(ValidationError, match="You blocked a player"):
            invitations.do_accept_invitation(invitation.pk, alice)
        assert not invitation.responses.filter(user=alice).exists()

    def test_an_invitation_naming_the_blocked_tells_them_nothing(self, alice, bob, charlie, dave):
        """Issue 45: Charlie invites Alice, Bob and Dave by name; Alice accepts, then blocks
        Bob. Bob's accept answered 404, telling him. Now he takes a seat (Alice's acceptance
        is taken back: she is never seated with him), as with no block."""
        invitation = invitations.do_create_invitation(
            charlie, players=3, invitees=[alice.username, bob.username, dave.username]
        )
        invitations.do_accept_invitation(invitation.pk, alice)
        blocks.do_block(alice, bob)

        answer = client_for(bob).post(reverse("games:accept", args=[invitation.pk]))
        assert answer.status_code == 302, answer.content
        assert invitation.responses.filter(user=bob, accepted=True).exists()
        assert not invitation.responses.filter(user=alice).exists()
        # Alice, who knows whom she blocked, is told why she cannot sit.
        with pytest.raises(ValidationError, match="You blocked a player"):
            invitations.do_accept_invitation(invitation.pk, alice)
        invitations.do_accept_invitation(invitation.pk, dave)
        invitation.refresh_from_db()
        assert invitation.status == Invitation.Status.STARTED
        seated = set(invitation.game.seats.values_list("user_id", flat=True))
        assert seated == {charlie.pk, bob.pk, dave.pk}

    def test_a_blocker_who_named_the_blocked_withdraws_as_creators_do(self, alice, bob, charlie):
        named = invitations.do_create_invitation(
            alice, players=3, invitees=[bob.username, charlie.username]
        )
        withdrawn = invitations.do_create_invitation(
            charlie, players=3, invitees=[alice.username, bob.username]
        )
        invitations.do_withdraw_invitation(withdrawn.pk, charlie)
        blocks.do_block(alice, bob)

        # Bob reads what he reads of any invitation its creator withdrew.
        answers = [Api(bob).post(f"/api/v1/invitations/{i.pk}/accept/") for i in (named, withdrawn)]
        assert [a.status_code for a in answers] == [400, 400]
        assert answers[0].json() == answers[1].json()
        named.refresh_from_db()
        assert named.status == Invitation.Status.WITHDRAWN
        assert not named.responses.filter(user=bob).exists()

    def test_unblocking_opens_them_again(self, alice, bob):
        invitation = open_invitation(alice, players=2)
        blocks.do_block(alice, bob)
        blocks.do_unblock(alice, bob)

        invitations.do_accept_invitation(invitation.pk, bob)

        invitation.refresh_from_db()
        assert invitation.status == Invitation.Status.STARTED


class TestThePages:
    def test_block_and_unblock_from_the_profile(self, alice, bob):
        client = client_for(alice)
        profile = reverse("games:profile", args=["bob"])
        assert "Block this player" in client.get(profile).content.decode()

        assert client.post(reverse("accounts:block", args=["bob"])).status_code == 302
        assert block_reads.is_blocked(alice, bob)
        page = client.get(profile).content.decode()
        assert "You blocked this player." in page
        own = client.get(reverse("games:profile", args=["alice"])).content.decode()
        assert "Players you blocked" in own and "/blocks/bob/remove/" in own

        client.post(reverse("accounts:unblock", args=["bob"]))
        assert not block_reads.is_blocked(alice, bob)

    def test_the_blocked_player_sees_nothing_of_it(self, alice, bob):
        client = client_for(bob)
        url = reverse("games:profile", args=["alice"])

        def page() -> str:
            html = client.get(url).content.decode()
            html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
            return re.sub(r'"X-CSRFToken": "[^"]+"', "", html)

        before = page()
        blocks.do_block(alice, bob)

        assert page() == before  # Alice's profile as Bob saw it before: nothing says it

    def test_each_outcome_is_told(self, alice, bob):
        client = client_for(alice)

        def told(name: str) -> str:
            answer = client.post(reverse(name, args=["bob"]), follow=True)
            assert answer.status_code == 200
            return " ".join(str(m) for m in answer.context["messages"])

        assert told("accounts:block") == "You blocked Bob. They are not told."
        assert told("accounts:block") == "You had blocked Bob already."
        assert told("accounts:unblock") == "You unblocked Bob."
        assert told("accounts:unblock") == "Bob was not blocked."
        assert "You cannot block yourself." in " ".join(
            str(m)
            for m in client.post(reverse("accounts:block", args=["alice"]), follow=True).context[
                "messages"
            ]
        )

    def test_blocking_needs_a_post(self, alice, bob):
        assert client_for(alice).get(reverse("accounts:block", args=["bob"])).status_code == 405
        assert not Block.objects.exists()

    def test_no_such_player(self, alice):
        answer = client_for(alice).post(reverse("accounts:block", args=["nobody"]))
        assert answer.status_code == 404
