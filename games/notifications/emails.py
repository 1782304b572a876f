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
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from accounts import languages
from games.community.chat import reads as chat_reads
from games.core import registry
from games.core.protocol import State
from games.models import Game, Move, Seat
from games.notifications import messages as message_notices
from games.notifications import preferences
from games.notifications.due import CHECKS, QUOTED, WARNING_LEAD, Defer, Skip
from games.notifications.models import Notification
from games.notifications.rows import message_id
from games.reads import since
from games.reads.movelog import describe_move
from games.reads.titles import game_title, short_title
from guildhall_site.upkeep import bounces

Kind = Notification.Kind

# How many lines of "what happened" a turn email shows at most.
LOG_LINES = 30


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


def game_context(game: Game, seat: Seat) -> dict[str, Any]:
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
        "short_title": short_title(game.kind, game.pk),
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


def recent_moves(game: Game, seat: int, state: State) -> list[str]:
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


def unseen_chat(game: Game, seat: Seat) -> dict[str, Any]:
    """What a turn email or a digest says of the game's chat: the lines its player has not
    seen (``chat_lines``, the newest few) and how many there are (``chat_count``)."""
    lines, count = chat_reads.unseen(game, seat.user, seat.last_seen_at, QUOTED)
    return {"chat_lines": lines, "chat_count": count}


# The emails ----------------------------------------------------------------------------------


def subject_title(c: dict[str, Any]) -> str | None:
    """A game as a subject names it: its short title and its players, "Guildhall #12 (Alice
    vs Bob)", so that two games of the same players are told apart."""
    if "short_title" not in c:
        return c.get("title")
    return pgettext("a game in an email's subject", "%(short)s (%(names)s)") % {
        "short": c["short_title"],
        "names": c["title"],
    }


def _subject(row: Notification, c: dict[str, Any]) -> str:
    """The subject, in the active language (``prepare`` calls it in the recipient's)."""
    kind = row.kind
    title = {"title": subject_title(c)}
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
    if kind == Kind.CHAT:
        lines = c["chat_lines"]
        names = sorted({line.author for line in lines}, key=str.casefold)
        return _("%(names)s wrote in %(title)s") % {**title, "names": ", ".join(names)}
    if kind == Kind.MESSAGE:
        return message_notices.subject(c)
    if kind == Kind.DIGEST:
        n = len(c["games"])
        # The same words as the first line of the email (notifications/email/digest.txt).
        return ngettext(
            "%(counter)s game is waiting for your move",
            "%(counter)s games are waiting for your move",
            n,
        ) % {"counter": n}
    raise ValueError(kind)


def _context(row: Notification, found: dict[str, Any]) -> dict[str, Any]:
    c: dict[str, Any] = {"kind": row.kind, "user": row.user, "name": row.user.name}
    if "game" in found:
        game, seat = found["game"], found["seat"].number
        c |= game_context(game, found["seat"])
        state = c.pop("state")
        c["cancelled"] = game.status == Game.Status.CANCELLED
        if row.kind == Kind.TURN:
            c["recent"] = recent_moves(game, seat, state)
            c["since"] = since.summary(game, found["seat"], state).sentence()
            c |= unseen_chat(game, found["seat"])
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
            g |= unseen_chat(game, r.seat)
            games.append(g)
        c["games"] = games
        c["url"] = site_url(reverse("home"))
    if row.kind == Kind.MESSAGE:
        c |= message_notices.email_context(found)
    return c


# Whether each kind is still due: the games' (due.CHECKS) and the messages'.
_CHECKS = {**CHECKS, Kind.MESSAGE: message_notices.check}


def prepare(row: Notification, now: datetime) -> Skip | Defer | EmailMultiAlternatives:
    """The email of ``row`` if it is still due now, else why not."""
    user = row.user
    if not preferences.wants(user, row.kind):
        return Skip("the player does not want these emails")
    if bounces.state(user.email) == bounces.SUPPRESSED:
        return Skip("the address bounced")
    found = _CHECKS[row.kind](row, now)
    if isinstance(found, Skip | Defer):
        return found
    category = preferences.CATEGORY[row.kind]
    unsubscribe = preferences.unsubscribe_url(user, category)
    language = languages.language_of(user)
    with translation.override(language), timezone.override(user_zone(user.time_zone)):
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


def user_zone(name: str) -> zoneinfo.ZoneInfo:
    """A user's time zone (UTC for a name this machine does not know)."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")
