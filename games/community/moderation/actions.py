"""Reporting what people wrote, and what moderators do about it.

Anyone logged in reports a chat line they can read, a message they received, or a player's
profile, with a reason from a short list and an optional comment; a report waits in the
moderation queue (the admin, staff only). A moderator then hides the text for everyone (its
author is told), warns the author, suspends the account for a time or for good, lifts a
suspension, or dismisses the report. Every one of those is logged (``ModerationLog``).

A suspended account cannot log in or use the API (``is_active`` off: Django's backends,
the sessions and the API's tokens all refuse an inactive user), its open invitations are
withdrawn, its acceptances of others' open invitations taken back, and the computer plays its
seats as for a player who dropped out. A suspension for a time is lifted by the sweep once it
has run out (``lift_expired``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from celery import shared_task
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.community.chat import reads as chat_reads
from games.community.moderation import messages as reported_messages
from games.community.moderation.models import ModerationLog, ModerationNotice, Report, Suspension
from games.community.moderation.notices import tell
from games.models import ChatLine, Invitation, InvitationResponse
from games.play.abandon import abandon_all
from games.play.errors import Invalid, NotFound
from games.reads import list_stamps, live
from guildhall_site.text import has_control_characters

Action = ModerationLog.Action


# Reports ------------------------------------------------------------------------------------


def _check_comment(comment: str) -> str:
    comment = comment.strip()
    if len(comment) > Report.MAX_LENGTH:
        raise Invalid(
            "comment",
            _("A report's comment holds at most %(most)d characters (this one has %(n)d).")
            % {"most": Report.MAX_LENGTH, "n": len(comment)},
        )
    if has_control_characters(comment):
        raise Invalid("comment", _("A comment may not hold control characters."))
    return comment


def target_of(reporter: User, kind: str, target: str) -> dict[str, Any]:
    """What ``reporter`` reports: its author, text and row, if they may see it."""
    if kind == Report.Kind.CHAT:
        line = (
            ChatLine.objects.filter(pk=int(target) if target.isdigit() else 0, hidden=False)
            .select_related("author", "game")
            .first()
        )
        if line is None or not chat_reads.may_read(line.game, reporter):
            raise NotFound(_("No such line"))
        return {"author": line.author, "text": line.text, "chat_line": line}
    if kind == Report.Kind.MESSAGE:
        found = reported_messages.received(reporter, target)
        if found is None:
            raise NotFound(_("No such message"))
        message_id, author, text = found
        return {"author": author, "text": text, "message_id": message_id}
    if kind == Report.Kind.PROFILE:
        user = User.objects.filter(username=target, computer_level="").first()
        if user is None:
            raise NotFound(_("No such player"))
        return {"author": user, "text": user.name_with_username}
    raise Invalid("kind", _("Report a chat line, a message or a profile."))


def do_report(reporter: User, kind: str, target: str, reason: str, comment: str = "") -> Report:
    """``reporter`` reports a chat line (its id), a message (its id) or a profile (its
    username). Reporting the same thing again changes nothing: the report already made."""
    if reason not in Report.Reason.values:
        raise Invalid("reason", _("Choose a reason from the list."))
    comment = _check_comment(comment)
    found = target_of(reporter, kind, str(target))
    if found["author"].pk == reporter.pk:
        raise Invalid("kind", _("You cannot report yourself."))
    try:
        with transaction.atomic():
            return Report.objects.create(
                reporter=reporter, kind=kind, reason=reason, comment=comment, **found
            )
    except IntegrityError:
        key = {k: v for k, v in found.items() if k in ("chat_line", "message_id")}
        if kind == Report.Kind.PROFILE:
            key = {"author": found["author"], "status": Report.Status.OPEN}
        return Report.objects.filter(reporter=reporter, kind=kind, **key).first() or Report()


# What moderators do -------------------------------------------------------------------------


def _log(
    moderator: User | None, action: str, user: User, report: Report | None = None, note: str = ""
) -> None:
    ModerationLog.objects.create(
        moderator=moderator, action=action, user=user, report=report, note=note
    )


def _handled(report: Report | None, moderator: User, status: str = Report.Status.ACTED) -> None:
    if report is None:
        return
    # Every open report of the same thing is handled with it.
    same = Report.objects.filter(kind=report.kind, status=Report.Status.OPEN)
    if report.chat_line_id:
        same = same.filter(chat_line_id=report.chat_line_id)
    elif report.message_id:
        same = same.filter(message_id=report.message_id)
    else:
        same = same.filter(pk=report.pk)
    same.update(status=status, handled_by=moderator, handled_at=timezone.now())


def hide(moderator: User, report: Report) -> bool:
    """The reported line or message hidden for everyone, its author told; False for a
    profile (a moderator renames by hand) or a text hidden already."""
    with transaction.atomic():
        if report.kind == Report.Kind.CHAT and report.chat_line_id:
            changed = ChatLine.objects.filter(pk=report.chat_line_id, hidden=False).update(
                hidden=True
            )
        elif report.kind == Report.Kind.MESSAGE and report.message_id:
            changed = reported_messages.hide(report.message_id)
        else:
            return False
        _handled(report, moderator)
        if not changed:
            return False
        _log(moderator, Action.HIDE, report.author, report)
        tell(
            report.author,
            _(
                "A moderator hid something you wrote, for breaking the site's rules "
                "(reported as: %(reason)s): “%(text)s”"
            )
            % {"reason": report.get_reason_display(), "text": report.text},
        )
    return True


def warn(moderator: User, user: User, text: str, report: Report | None = None) -> None:
    """``user`` is warned with ``text`` (on the site and by email)."""
    text = text.strip()
    if not text:
        raise ValidationError(_("Say what the warning is about."))
    with transaction.atomic():
        _log(moderator, Action.WARN, user, report, text)
        _handled(report, moderator)
        tell(user, _("A warning from the moderators: %(text)s") % {"text": text})


def suspend(
    moderator: User,
    user: User,
    until: datetime | None,
    reason: str = "",
    report: Report | None = None,
) -> Suspension:
    """``user`` suspended until ``until`` (None: for good)."""
    if user.is_staff or user.is_superuser:
        raise ValidationError(_("Staff accounts are not suspended here."))
    with transaction.atomic():
        suspension = Suspension.objects.create(user=user, until=until, reason=reason)
        User.objects.filter(pk=user.pk).update(is_active=False)
        user.is_active = False
        withdrawn = Invitation.objects.filter(creator=user, status=Invitation.Status.OPEN).update(
            status=Invitation.Status.WITHDRAWN
        )
        InvitationResponse.objects.filter(
            user=user, accepted=True, invitation__status=Invitation.Status.OPEN
        ).delete()
        if withdrawn:
            list_stamps.invitations_changed()
        note = reason if until is None else f"{reason} (until {until:%Y-%m-%d %H:%M} UTC)"
        _log(moderator, Action.SUSPEND, user, report, note.strip())
        _handled(report, moderator)
        if until is None:
            told = _("Your account has been suspended for good by the moderators.")
        else:
            told = _("Your account has been suspended by the moderators until %(until)s.") % {
                "until": f"{until:%Y-%m-%d %H:%M} UTC"
            }
        if reason:
            told += " " + _("The reason: %(reason)s") % {"reason": reason}
        tell(user, told)
        # Their open event streams end as soon as this is committed.
        user_id = user.pk
        transaction.on_commit(lambda: live.user_closed(user_id), robust=True)
    # Each game on its own, as a time-out would: the computer plays the seat from now on.
    abandon_all(user)
    return suspension


def lift(moderator: User | None, suspension: Suspension) -> bool:
    """The suspension ends now (False if it had ended): the account may log in again,
    unless another suspension still runs."""
    now = timezone.now()
    with transaction.atomic():
        ended = Suspension.objects.filter(pk=suspension.pk, lifted__isnull=True).update(lifted=now)
        if not ended:
            return False
        if not running(suspension.user_id):
            User.objects.filter(pk=suspension.user_id).update(is_active=True)
        _log(moderator, Action.LIFT, suspension.user)
    return True


def running(user_id: int) -> bool:
    """Whether a suspension of the account runs now."""
    now = timezone.now()
    running = Suspension.objects.filter(user_id=user_id, lifted__isnull=True)
    return running.exclude(until__lte=now).exists()


def dismiss(moderator: User, report: Report, note: str = "") -> None:
    with transaction.atomic():
        _handled(report, moderator, Report.Status.DISMISSED)
        _log(moderator, Action.DISMISS, report.author, report, note)


@shared_task(name="games.moderation.lift_expired")
def lift_expired() -> int:
    """Lift the suspensions that have run out (beat, every few minutes)."""
    expired = Suspension.objects.filter(lifted__isnull=True, until__lte=timezone.now())
    return sum(lift(None, s) for s in expired.select_related("user"))


def notices(user: User) -> list[ModerationNotice]:
    """What the moderators told ``user`` that they have not read yet."""
    return list(ModerationNotice.objects.filter(user=user, read__isnull=True).order_by("created"))
