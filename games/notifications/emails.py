"""What each notification says, and whether it is still due when its turn to be sent comes.

``prepare(row, now)`` reads the game again and answers ``Skip`` (no longer due: the turn
passed, the player unsubscribed...), ``Defer`` (the player is looking at the game: ask again
later) or the email to send.

Secrets: everything about a game comes from the game's ``view(state, seat)`` for the
recipient's seat (and the game's words for it: ``prompt``, ``scores``, ``result_detail``) and
from ``games.reads.movelog.describe_move`` for the same seat, never from the state, the seed or the
events themselves.

Emails are rendered in the recipient's language and time zone. Each has a text and an HTML
body (templates ``notifications/email/<kind>.txt`` and ``.html``), an absolute link to the
game (``SITE_URL``), and a one-click unsubscribe link for its category, also given in the
``List-Unsubscribe`` and ``List-Unsubscribe-Post`` headers (RFC 8058).
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from accounts import languages
from games.core import registry
from games.models import Game, Invitation, Move, Seat
from games.notifications import preferences
from games.notifications.models import Notification
from games.reads import clocks, queries
from games.reads.movelog import describe_move
from games.reads.titles import game_title

Kind = Notification.Kind

# A player seen on the game this recently may still have it open: the board polls every few
# seconds and records it at most every 20 s (Seat.last_seen_at). Turn emails and reminders
# wait until the player has been away this long (lichess's CorresAlarm skips the alarm of a
# player who is looking at the game).
ACTIVE_WINDOW = timedelta(minutes=5)
# How many lines of "what happened" a turn email shows at most.
LOG_LINES = 30

WARNING_LEAD = {Kind.DEADLINE_24H: timedelta(hours=24), Kind.DEADLINE_1H: timedelta(hours=1)}
WEEK = timedelta(days=7)


@dataclass(frozen=True)
class Skip:
    reason: str


@dataclass(frozen=True)
class Defer:
    until: datetime
    reason: str


def site_url(path: str) -> str:
    return settings.SITE_URL + path


def game_url(game_id: int) -> str:
    return site_url(reverse("games:board", args=[game_id]))


def ordinal(n: int) -> str:
    """A place in the active language: 1st, 2nd, 3rd, 4th (German: 1., 2., 3., 4.)."""
    last = n % 10
    if 10 <= n % 100 <= 20 or last not in (1, 2, 3):
        text = pgettext("place in a ranking", "%(n)sth")
    elif last == 1:
        text = pgettext("place in a ranking", "%(n)sst")
    elif last == 2:
        text = pgettext("place in a ranking", "%(n)snd")
    else:
        text = pgettext("place in a ranking", "%(n)srd")
    return text % {"n": n}


# The game as the recipient may see it --------------------------------------------------------


def game_context(game: Game, seat: Seat) -> dict:
    """What an email may say about ``game`` to the player of ``seat``: from their view."""
    kind = game.game_kind
    state = kind.from_json(game.snapshot)
    number = seat.number
    v = kind.view(state, number)
    names = game.names
    scores = kind.scores(v)
    players = [
        {"name": name, "score": scores.get(q), "me": q == number, "seat": q}
        for q, name in enumerate(names)
    ]
    context = {
        "game_id": game.pk,
        "game_name": kind.name,
        "score_label": _(kind.score_label),
        "title": game_title(names),
        "opponents": [n for i, n in enumerate(names) if i != number],
        "players": players,
        "url": game_url(game.pk),
        "deadline": seat.deadline,
        "move_days": game.move_days,
        "waiting_since": seat.deciding_since,
        "phase": v["phase"],
    }
    prompt = kind.prompt(v)
    if prompt is not None:
        context["prompt"] = prompt
    else:
        waiting = sorted(kind.deciders(state) - {number})
        if waiting:
            context["waiting_for"] = ", ".join(names[q] for q in waiting)
    result = kind.result(state)
    if result:
        context["result"] = [
            {
                **row,
                "name": names[row["seat"]],
                "place": ordinal(row["rank"]),
                "me": row["seat"] == number,
                "detail": kind.result_detail(row),
            }
            for row in result
        ]
        mine = next((r for r in result if r["seat"] == number), None)
        context["my_place"] = ordinal(mine["rank"]) if mine else None
    context["state"] = state  # for recent_moves; never given to a template
    return context


def recent_moves(game: Game, seat: int, state) -> list[str]:
    """The log lines, for ``seat``, of the moves since that player's own last move."""
    last_own = (
        Move.objects.filter(game=game, seat=seat, automatic=False)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    moves = Move.objects.filter(game=game, number__gt=last_own or 0).order_by("-number")
    lines: list[str] = []
    for events in moves.values_list("events", flat=True)[:LOG_LINES]:
        lines[:0] = describe_move(game, state, events, seat)
    return lines[-LOG_LINES:]


# Whether each kind is still due ---------------------------------------------------------------


def _waiting(row: Notification) -> tuple[Game, Seat] | Skip:
    """The game and seat of a notification about a player's wait, if that wait goes on."""
    game = row.game
    if game is None or game.status not in Game.ACTIVE:
        return Skip("the game is over")
    seat = Seat.objects.filter(game=game, user_id=row.user_id).first()
    if seat is None or not seat.deciding:
        return Skip("it is not this player's turn")
    if seat.wait_version != row.turn:
        return Skip("the turn has passed")
    if not seat.is_person:
        return Skip("the computer plays this seat")
    return game, seat


def _active_until(seat: Seat, now: datetime) -> datetime | None:
    seen = seat.last_seen_at
    if seen is not None and seen > now - ACTIVE_WINDOW:
        return seen + ACTIVE_WINDOW
    return None


def _away(row: Notification, now: datetime) -> Defer | None:
    vacation = clocks.current_vacation(row.user, now)
    if vacation is not None:
        return Defer(vacation.end, "the player is on vacation")
    return None


def _check_turn(row, now):
    waiting = _waiting(row)
    if isinstance(waiting, Skip):
        return waiting
    game, seat = waiting
    if seat.last_seen_at is not None and seat.last_seen_at >= seat.deciding_since:
        return Skip("the player has seen the game since the turn came to them")
    if until := _active_until(seat, now):
        return Defer(until, "the player was on the game a moment ago")
    return {"game": game, "seat": seat}


def _check_reminder(row, now):
    waiting = _waiting(row)
    if isinstance(waiting, Skip):
        return waiting
    game, seat = waiting
    if row.kind == Kind.WEEKLY:
        if game.move_days is not None:
            return Skip("the game has a time limit")
        due = seat.deciding_since + WEEK * row.number
    else:
        due = seat.deciding_since + timedelta(hours=row.user.reminder_after_hours)
    if now < due:
        return Defer(due, "not due yet")
    if away := _away(row, now):
        return away
    if until := _active_until(seat, now):
        return Defer(until, "the player is on the game")
    return {"game": game, "seat": seat, "weeks": row.number}


def _check_deadline(row, now):
    waiting = _waiting(row)
    if isinstance(waiting, Skip):
        return waiting
    game, seat = waiting
    if seat.deadline is None or seat.deadline <= now:
        return Skip("no time limit runs out")
    lead = WARNING_LEAD[row.kind]
    if seat.deadline - lead > now + timedelta(minutes=1):
        # A vacation pushed the deadline back since the sweep chose this warning.
        return Defer(seat.deadline - lead, "the deadline moved")
    if until := _active_until(seat, now):
        return Defer(min(until, seat.deadline), "the player is on the game")
    return {"game": game, "seat": seat, "hours_left": round(lead.total_seconds() / 3600)}


def _seat_of(row) -> Seat | None:
    return Seat.objects.filter(game=row.game, user=row.user).first()


def _check_started(row, now):
    seat = _seat_of(row)
    if seat is None or row.game.status not in Game.ACTIVE:
        return Skip("the game is not going on")
    return {"game": row.game, "seat": seat}


def _check_finished(row, now):
    seat = _seat_of(row)
    if seat is None or row.game.status in Game.ACTIVE:
        return Skip("the game is not over")
    return {"game": row.game, "seat": seat}


def _check_abandoned(row, now):
    seat = _seat_of(row)
    if seat is None:
        return Skip("not a player of this game")
    return {"game": row.game, "seat": seat, "dropped": row.number}


def _check_invitation(row, now):
    invitation: Invitation = row.invitation
    if invitation.status != Invitation.Status.OPEN:
        return Skip("the invitation is no longer open")
    if not invitation.invitees.filter(pk=row.user_id).exists():
        return Skip("not invited")
    if invitation.responses.filter(user=row.user).exists():
        return Skip("already answered")
    # At most a few a day from one player to another (per device for a push): a hundred
    # invitations must not become a hundred emails.
    heard = (
        Notification.objects.filter(
            kind=Kind.INVITATION,
            user_id=row.user_id,
            channel=row.channel,
            subscription_id=row.subscription_id,
            status=Notification.Status.SENT,
            sent_at__gt=now - timedelta(days=1),
            invitation__creator_id=invitation.creator_id,
        )
        .exclude(pk=row.pk)
        .count()
    )
    if heard >= settings.INVITATION_EMAILS_PER_DAY:
        return Skip("enough invitations from this player today")
    return {"invitation": invitation}


def _check_digest(row, now):
    rows = queries.games_to_play(row.user)
    if not rows:
        return Skip("no game is waiting")
    return {"rows": rows}


# Whether a notification is still due: the context its message needs, or why not now.
Check = Callable[[Notification, datetime], Skip | Defer | dict[str, Any]]

CHECKS: dict[str, Check] = {
    Kind.TURN: _check_turn,
    Kind.REMINDER: _check_reminder,
    Kind.WEEKLY: _check_reminder,
    Kind.DEADLINE_24H: _check_deadline,
    Kind.DEADLINE_1H: _check_deadline,
    Kind.STARTED: _check_started,
    Kind.FINISHED: _check_finished,
    Kind.ABANDONED: _check_abandoned,
    Kind.INVITATION: _check_invitation,
    Kind.DIGEST: _check_digest,
}


# The emails ----------------------------------------------------------------------------------


def _subject(row: Notification, c: dict) -> str:
    """The subject, in the active language (``prepare`` calls it in the recipient's)."""
    kind = row.kind
    title = {"title": c.get("title")}
    if kind == Kind.STARTED:
        return _("Your game %(title)s has started") % title
    if kind == Kind.TURN:
        return _("Your turn in %(title)s") % title
    if kind == Kind.REMINDER:
        return _("Reminder: %(title)s is waiting for you") % title
    if kind == Kind.WEEKLY:
        weeks = c["weeks"]
        return ngettext(
            "%(title)s has waited for you for %(count)s week",
            "%(title)s has waited for you for %(count)s weeks",
            weeks,
        ) % {**title, "count": weeks}
    if kind in WARNING_LEAD:
        hours = c["hours_left"]
        return ngettext(
            "%(count)s hour left to move in %(title)s",
            "%(count)s hours left to move in %(title)s",
            hours,
        ) % {**title, "count": hours}
    if kind == Kind.FINISHED:
        if c.get("cancelled"):
            return _("%(title)s was cancelled") % title
        if c.get("my_place"):
            return _("Game over: %(title)s (you finished %(place)s)") % {
                **title,
                "place": c["my_place"],
            }
        return _("Game over: %(title)s") % title
    if kind == Kind.ABANDONED:
        return _("%(name)s dropped out of %(title)s") % {**title, "name": c["dropped_name"]}
    if kind == Kind.INVITATION:
        # The same words as the first line of the email (notifications/email/invitation.txt).
        return _("%(creator)s invites you to a %(players)s-player game of %(game_name)s") % {
            "creator": c["creator"],
            "players": c["players"],
            "game_name": c["game_name"],
        }
    if kind == Kind.DIGEST:
        n = len(c["games"])
        # The same words as the first line of the email (notifications/email/digest.txt).
        return ngettext(
            "%(counter)s game is waiting for your move",
            "%(counter)s games are waiting for your move",
            n,
        ) % {"counter": n}
    raise ValueError(kind)


def _context(row: Notification, found: dict) -> dict:
    c: dict = {"kind": row.kind, "user": row.user, "name": row.user.name}
    if "game" in found:
        game, seat = found["game"], found["seat"].number
        c |= game_context(game, found["seat"])
        state = c.pop("state")
        c["cancelled"] = game.status == Game.Status.CANCELLED
        if row.kind == Kind.TURN:
            c["recent"] = recent_moves(game, seat, state)
        if row.kind == Kind.ABANDONED:
            c["dropped_name"] = game.names[found["dropped"]]
        c |= {k: v for k, v in found.items() if k not in ("game", "seat")}
    if "invitation" in found:
        invitation = found["invitation"]
        kind = registry.get(invitation.kind)
        c |= {
            # Who invites, unmistakably: a display name with its username where they differ.
            "creator": invitation.creator.name_with_username,
            "players": invitation.players,
            "game_name": kind.name,
            "options_label": kind.options_label(invitation.engine_options()),
            "move_days": invitation.move_days,
            "others": [
                u.name_with_username for u in invitation.invitees.all() if u.pk != row.user_id
            ],
            "url": site_url(reverse("games:lobby")),
        }
    if "rows" in found:
        games = []
        for r in found["rows"]:
            game = Game.objects.get(pk=r.game.pk)  # the list deferred the snapshot
            g = game_context(game, r.seat)
            g.pop("state")
            games.append(g)
        c["games"] = games
        c["url"] = site_url(reverse("home"))
    return c


def prepare(row: Notification, now: datetime) -> Skip | Defer | EmailMultiAlternatives:
    """The email of ``row`` if it is still due now, else why not."""
    user = row.user
    if not preferences.wants(user, row.kind):
        return Skip("the player does not want these emails")
    found = CHECKS[row.kind](row, now)
    if isinstance(found, Skip | Defer):
        return found
    category = preferences.CATEGORY[row.kind]
    unsubscribe = preferences.unsubscribe_url(user, category)
    language = languages.language_of(user)
    with translation.override(language), timezone.override(_zone(user.time_zone)):
        c = _context(row, found)
        c |= {
            "unsubscribe_url": unsubscribe,
            "unsubscribe_what": preferences.DESCRIPTION[category],
            "settings_url": site_url(reverse("accounts:edit_profile")),
            "site_url": settings.SITE_URL,
            # Django date formats (the ``date`` filter), as the recipient's language writes them.
            "when_format": pgettext("date and time in emails, Django date format", "l j F, H:i"),
            "day_format": pgettext("date in emails, Django date format", "l j F"),
        }
        subject = settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + _subject(row, c)
        text = render_to_string(f"notifications/email/{row.kind}.txt", c)
        html = render_to_string(f"notifications/email/{row.kind}.html", c)
    from games.notifications.delivery import message_id

    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        to=[user.email],
        headers={
            "Message-ID": message_id(row),
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def _zone(name: str):
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")
