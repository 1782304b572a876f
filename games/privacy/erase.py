"""An account deleted for good, once its grace period is over (``accounts.deletion``).

What goes and what stays is docs/privacy.md's list; in short: the account's row stays,
because the seats of its games name it (``Seat.user`` protects it) and other players'
ratings were computed with it, but under a neutral name ("Deleted player 12") and with
every personal field emptied; its games keep their moves under that name (their snapshots
rebuilt from their records, so that they replay and verify); everything the player wrote,
chose or was sent goes (chat lines, messages, notes, friends, blocks, tokens and their
webhooks, devices, addresses, sessions, vacations, notices). Moderation keeps its record of
reports and suspensions, without the words the player wrote.

Every step can run again: a deletion stopped halfway (a worker gone, a tournament busy)
is finished by the next sweep.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime

from allauth.account.models import EmailAddress
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import BooleanField, Q
from django.utils import timezone

from accounts import deletion, services
from accounts.models import ApiToken, User
from games.community.messages.actions import recount_unread
from games.community.models import Block, Conversation, Friendship
from games.community.moderation.models import ModerationNotice, Report
from games.models import ChatLine, Game, Invitation, InvitationResponse, Note, Seat, Vacation
from games.notifications.models import Notification, PushSubscription
from games.play import errors, invitations, moves, renames, stand_ins
from games.reads import live
from games.tournaments import services as tournaments
from games.tournaments.models import Action, Entry, Notice, Tournament

log = logging.getLogger(__name__)


def neutral_name(user_id: int) -> str:
    return f"{services.DELETED_NAME} {user_id}"


def do_erase_due(now: datetime | None = None) -> int:
    """Delete every account whose grace period is over; how many were. One that cannot be
    finished now (a tournament busy moving on) is tried again at the next sweep."""
    erased = 0
    for user_id in list(deletion.due(now).values_list("pk", flat=True)):
        try:
            erased += do_erase(user_id, now)
        except errors.Limited:
            log.info("account %s: deletion put off (a tournament is busy)", user_id)
        except Exception:
            # One account's fault must not hold up the others' deletions: the next sweep
            # tries it again (each step may run twice), and the error is reported.
            log.exception("account %s: deletion failed", user_id)
    return erased


def do_erase(user_id: int, now: datetime | None = None) -> bool:
    """Delete the account if its deletion is (still) due; whether it was deleted now."""
    now = now or timezone.now()
    # The claim: due, not cancelled meanwhile. From here the account cannot log in (nor
    # cancel by logging in), and every open event stream of theirs ends.
    claimed = deletion.due(now).filter(pk=user_id).update(is_active=False)
    if not claimed:
        return False
    transaction.on_commit(lambda: live.user_closed(user_id), robust=True)
    user = User.objects.get(pk=user_id)
    name = neutral_name(user_id)
    old_names = {user.username, user.display_name} - {""}
    _leave_tournaments(user)
    _settle_games(user)
    _leave_invitations(user)
    for game_id, number in list(
        Seat.objects.filter(user=user).values_list("game_id", "number").order_by("game_id")
    ):
        renames.do_rename_seat(game_id, number, name)
    with transaction.atomic():
        others = _remove_rows(user)
        _scrub_records(user, old_names, name)
        _anonymise(user, name, now)
    for other in others:
        recount_unread(other)
    services.delete_sessions_of({user_id})
    log.info("account %s deleted", user_id)
    return True


def _leave_tournaments(user: User) -> None:
    """Out of the tournaments not over (their games under way conceded, as the
    tournaments' rules have it); finished ones keep their standings."""
    going_on = Entry.objects.filter(
        user=user,
        status=Entry.Status.ACTIVE,
        tournament__status__in=(Tournament.Status.SIGNUP, Tournament.Status.RUNNING),
    ).values_list("tournament_id", flat=True)
    for tournament_id in list(going_on):
        try:
            tournaments.do_leave(tournament_id, user)
        except ValidationError:
            pass  # it ended meanwhile


def _settle_games(user: User) -> None:
    """Each game going on conceded, or played on by the computer, as the player chose."""
    concede = user.deletion_games != deletion.RunningGames.COMPUTER
    seats = Seat.objects.filter(
        user=user, game__status__in=Game.ACTIVE, resigned=False, abandoned=False
    ).select_related("game")
    for seat in list(seats):
        try:
            if concede:
                moves.do_concede(seat.game_id, user)
            elif not seat.stand_in or seat.stand_in_until is not None:
                level = stand_ins.nearest(seat.game.game_kind, "")
                stand_ins.do_stand_in(seat.game_id, user, level)
        except (errors.GameNotActive, ValidationError):
            pass  # it ended meanwhile, or the computer plays it already


def _leave_invitations(user: User) -> None:
    """Their open invitations withdrawn, their answers and their place among others'
    invitees gone."""
    for invitation_id in list(
        Invitation.objects.filter(creator=user, status=Invitation.Status.OPEN).values_list(
            "pk", flat=True
        )
    ):
        try:
            invitations.do_withdraw_invitation(invitation_id, user)
        except (ValidationError, PermissionDenied):
            pass  # it started meanwhile
    with transaction.atomic():
        InvitationResponse.objects.filter(user=user).exclude(
            invitation__status=Invitation.Status.STARTED
        ).delete()
        Invitation.invitees.through.objects.filter(user_id=user.pk).delete()
        # Those that never became a game are nobody's record.
        Invitation.objects.filter(creator=user).exclude(status=Invitation.Status.STARTED).exclude(
            status=Invitation.Status.OPEN
        ).delete()


def _remove_rows(user: User) -> set[int]:
    """Everything the player wrote, chose or was sent; the other people of their
    conversations (whose unread counts change)."""
    # Moderation keeps its record of a report, not the words the player wrote (the reported
    # line goes; the report stays, without its text and its line).
    Report.objects.filter(chat_line__author=user).update(chat_line=None)
    Report.objects.filter(author=user).update(text="")
    Report.objects.filter(reporter=user).update(comment="")
    ChatLine.objects.filter(author=user).delete()
    Note.objects.filter(user=user).delete()
    Vacation.objects.filter(user=user).delete()
    Friendship.objects.filter(Q(user=user) | Q(friend=user)).delete()
    Block.objects.filter(Q(user=user) | Q(blocked=user)).delete()
    # A conversation goes whole: it was between two, and one of them is gone.
    conversations = Conversation.objects.filter(Q(user_a=user) | Q(user_b=user))
    others = {c.other_id(user.pk) for c in conversations.only("user_a_id", "user_b_id")}
    conversations.delete()
    ApiToken.objects.filter(user=user).delete()  # and their webhooks with them
    PushSubscription.objects.filter(user=user).delete()
    EmailAddress.objects.filter(user=user).delete()
    Notification.objects.filter(user=user).delete()
    Notice.objects.filter(user=user).delete()
    ModerationNotice.objects.filter(user=user).delete()
    # An organiser's messages to their players go; their reasons for what they did stay,
    # as the tournament's record, by nobody.
    Action.objects.filter(by=user, kind=Action.Kind.MESSAGE).update(text="")
    Action.objects.filter(by=user).update(by=None)
    return others


def _scrub_records(user: User, old_names: set[str], name: str) -> None:
    """Their old names where the site wrote them into records that stay."""
    user_type = ContentType.objects.get_for_model(User)
    LogEntry.objects.filter(content_type=user_type, object_id=str(user.pk)).update(object_repr=name)
    if not old_names:
        return
    pattern = re.compile(
        r"(?<!\w)("
        + "|".join(re.escape(n) for n in sorted(old_names, key=len, reverse=True))
        + r")(?!\w)"
    )
    theirs = Q(tournament__entries__user=user) | Q(tournament__creator=user)
    for action in Action.objects.filter(theirs).exclude(what="").distinct():
        what = pattern.sub(name, action.what)[:300]
        if what != action.what:
            Action.objects.filter(pk=action.pk).update(what=what)


def _anonymise(user: User, name: str, now: datetime) -> None:
    """The row that stays: its neutral name, and nothing of the person."""
    defaults = {f.name: f.get_default() for f in User._meta.concrete_fields}
    keep = {"id", "password", "date_joined", "is_guest", "username_skeleton"}
    for field, value in defaults.items():
        if field not in keep and not field.startswith("deleted"):
            setattr(user, field, value)
    user.username = f"{services.DELETED_PREFIX}{user.pk}"
    user.display_name = name
    user.set_unusable_password()
    user.is_active = False
    # Every email and push notification off.
    user.turn_emails = User.TurnEmails.NEVER
    user.reminder_after_hours = None
    for name in (*User.EMAIL_PREFERENCES, *User.PUSH_PREFERENCES):
        if isinstance(User._meta.get_field(name), BooleanField):
            setattr(user, name, False)
    user.deleted_at = now
    user.save()
    User.objects.filter(pk=user.pk).update(unread_messages=0)
    user.groups.clear()
    user.user_permissions.clear()
