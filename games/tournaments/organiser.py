"""The organiser's tools: cancel, edit before the start, remove a player, enter or correct a
result, extend a round's deadline, and a message to every entrant. Each ``do_*`` checks that
the user organises the tournament, then changes its rows under the tournament's row lock (as
``services`` does) and logs an ``Action`` with the organiser's reason, which the event's page
shows. The pages and the API call these alike."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.play import errors
from games.tournaments import notices, services
from games.tournaments.models import Action, Entry, Notice, Round, Table, Tournament

Status = Tournament.Status
MAX_EXTEND_DAYS = 30
# Messages to every entrant: at most this many a day per tournament.
MESSAGES_PER_DAY = 3
MAX_MESSAGE = 2000
MAX_REASON = 300


def _reason(text: str, field: str = "reason") -> str:
    text = " ".join(str(text or "").split())
    if not 3 <= len(text) <= MAX_REASON:
        raise errors.Invalid(
            field, _("Give a reason of 3 to %(most)d characters.") % {"most": MAX_REASON}
        )
    return text


def _organised(tournament_id: int, user: User) -> Tournament:
    """The tournament, locked, if ``user`` organises it."""
    tournament = services._lock(tournament_id, person=True)
    if not user.is_authenticated or user.pk != tournament.creator_id:
        raise PermissionDenied(_("Only the organiser may do that."))
    return tournament


def _log(tournament: Tournament, user: User, kind: str, text: str, what: str = "") -> Action:
    return Action.objects.create(
        tournament=tournament, by=user, kind=kind, text=text, what=what[:300]
    )


def _entrants(tournament: Tournament) -> list[User]:
    return [e.user for e in tournament.entries.select_related("user")]


def do_cancel(tournament_id: int, user: User, reason: str) -> Tournament:
    """The organiser calls it off, before or during play: everyone signed up hears it; games
    under way go on outside the tournament."""
    reason = _reason(reason)
    with transaction.atomic():
        tournament = _organised(tournament_id, user)
        if tournament.status not in (Status.SIGNUP, Status.RUNNING):
            raise ValidationError(_("This tournament is over."))
        tournament.status = Status.CANCELLED
        tournament.finished = timezone.now()
        tournament.save(update_fields=["status", "finished"])
        _log(tournament, user, Action.Kind.CANCEL, reason)
        notices.tell(tournament, _entrants(tournament), Notice.Kind.CANCELLED)
    return tournament


EDITABLE = (
    "name",
    "options",
    "format",
    "table_size",
    "advance",
    "rounds",
    "move_days",
    "round_days",
    "rated",
    "starts_at",
    "signup_until",
    "min_players",
    "max_players",
    "access",
)


def do_edit(tournament_id: int, user: User, **changes: Any) -> Tournament:
    """Change the settings while sign-up is open (every rule of a new tournament holds; the
    most players not below those signed up)."""
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise errors.Invalid(unknown[0], _("This cannot be changed."))
    with transaction.atomic():
        tournament = _organised(tournament_id, user)
        if tournament.status != Status.SIGNUP:
            raise ValidationError(_("A tournament can be edited only before it starts."))
        current = {name: getattr(tournament, name) for name in EDITABLE}
        if current["format"] != Tournament.Format.KNOCKOUT and "advance" not in changes:
            current["advance"] = None
        merged = current | changes
        new = services.check_new_tournament(user, kind=tournament.kind, **merged)
        signed_up = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
        if new.max_players < signed_up:
            raise errors.Invalid(
                "max_players",
                _("%(n)d players have signed up already.") % {"n": signed_up},
            )
        changed = []
        for name in EDITABLE:
            value = getattr(new, name)
            if value != getattr(tournament, name):
                setattr(tournament, name, value)
                changed.append(name)
        if tournament.access == Tournament.Access.CODE and not tournament.code:
            tournament.code = secrets.token_urlsafe(6)
        tournament.save()
        if changed:
            _log(tournament, user, Action.Kind.EDIT, ", ".join(changed))
    return tournament


def do_remove(tournament_id: int, user: User, username: str, reason: str) -> Entry:
    """Take a player out: before the start their sign-up goes; once it runs they concede
    their games under way and are never paired again (as a player who leaves)."""
    reason = _reason(reason)
    with transaction.atomic():
        tournament = _organised(tournament_id, user)
        entry = (
            Entry.objects.select_related("user")
            .filter(tournament=tournament, user__username=str(username))
            .first()
        )
        if entry is None or entry.status != Entry.Status.ACTIVE:
            raise errors.Invalid("username", _("No such player in this tournament."))
        if tournament.status not in (Status.SIGNUP, Status.RUNNING):
            raise ValidationError(_("This tournament is over."))
        _log(tournament, user, Action.Kind.REMOVE, reason, entry.user.name)
        if tournament.status == Status.SIGNUP:
            entry.status = Entry.Status.REMOVED
            entry.save(update_fields=["status"])
        else:
            services._take_out(tournament, entry, Entry.Status.REMOVED)
            services._settle(tournament, timezone.now())
        notices.tell(tournament, [entry.user], Notice.Kind.REMOVED)
    return entry


def do_set_result(
    tournament_id: int,
    user: User,
    *,
    round_id: int,
    table: int,
    places: Mapping[str, int],
    reason: str,
) -> Table:
    """Enter a table's result (a game that cannot end, a result agreed elsewhere) or correct
    one: ``places`` by username (1 first, equal places tie). The standings follow at once;
    an open round closes if this was its last table. Rounds already paired stay as they
    are; a knockout's or a league season's result is final once its round closed (who went
    on, or up, was decided by it)."""
    reason = _reason(reason)
    with transaction.atomic():
        tournament = _organised(tournament_id, user)
        # A finished Swiss or round robin may still be corrected (its standings follow).
        correctable = tournament.status == Status.RUNNING or (
            tournament.status == Status.FINISHED
            and tournament.format in (Tournament.Format.SWISS, *services.ROBINS)
        )
        if not correctable:
            raise ValidationError(_("Results of this tournament can no longer be changed."))
        row = (
            Table.objects.select_related("round")
            .filter(round__tournament=tournament, round_id=round_id, number=table)
            .first()
        )
        if row is None or row.bye:
            raise errors.Invalid("table", _("No such table with a game in this tournament."))
        rnd = row.round
        # Who went on (a knockout) or up and down (a league's past season) was decided by
        # the results of a closed round: those stay.
        settled = tournament.format in services.ELIMINATIONS or (
            tournament.is_league and rnd.season != tournament.season
        )
        if rnd.status == Round.Status.DONE and settled:
            raise ValidationError(
                _("This round is over, and who went on was decided by its results.")
            )
        by_name = dict(Entry.objects.filter(pk__in=row.entries).values_list("user__username", "pk"))
        given = {str(k): v for k, v in dict(places).items()}
        if set(given) != set(by_name):
            raise errors.Invalid(
                "places", _("Give a place to each player at the table, and to nobody else.")
            )
        size = len(by_name)
        if not all(type(v) is int and 1 <= v <= size for v in given.values()):
            raise errors.Invalid(
                "places", _("Places are whole numbers from 1 to %(n)d.") % {"n": size}
            )
        new = {str(by_name[name]): place for name, place in given.items()}
        before = dict(row.places) if row.decided else {}
        names = {str(pk): name for name, pk in by_name.items()}
        what = _("Round %(round)d, table %(table)d: %(places)s") % {
            "round": rnd.number,
            "table": row.number,
            "places": ", ".join(f"{names[p]} {v}" for p, v in sorted(new.items(), key=_by_place)),
        }
        if before:
            what += " " + _("(was %(places)s)") % {
                "places": ", ".join(
                    f"{names.get(p, '?')} {v}" for p, v in sorted(before.items(), key=_by_place)
                )
            }
        row.places, row.decided, row.decided_by = new, True, "organiser"
        row.save(update_fields=["places", "decided", "decided_by"])
        _log(tournament, user, Action.Kind.RESULT, reason, what)
        if tournament.status == Status.RUNNING:
            services._settle(tournament, timezone.now())
        elif tournament.status == Status.FINISHED:
            _new_winner(tournament)
    return row


def _by_place(item: tuple[str, int]) -> tuple[int, str]:
    return item[1], item[0]


def _new_winner(tournament: Tournament) -> None:
    ranked = services.standings(tournament)
    if ranked:
        winner = Entry.objects.select_related("user").get(pk=ranked[0].player)
        if tournament.winner_id != winner.user_id:
            tournament.winner = winner.user
            tournament.save(update_fields=["winner"])


def do_extend(tournament_id: int, user: User, *, round_id: int, days: int, reason: str) -> Round:
    """Push a round's deadline back by ``days`` (1 to 30): its games are adjudicated later."""
    reason = _reason(reason)
    if type(days) is not int or not 1 <= days <= MAX_EXTEND_DAYS:
        raise errors.Invalid("days", _("Extend by 1 to %(most)d days.") % {"most": MAX_EXTEND_DAYS})
    with transaction.atomic():
        tournament = _organised(tournament_id, user)
        rnd = Round.objects.filter(tournament=tournament, pk=round_id).first()
        if rnd is None:
            raise errors.Invalid("round", _("No such round in this tournament."))
        if rnd.status != Round.Status.PLAYING or tournament.status != Status.RUNNING:
            raise ValidationError(_("Only a round under way can be extended."))
        rnd.deadline += timedelta(days=days)
        rnd.save(update_fields=["deadline"])
        what = _("Round %(round)d until %(when)s") % {
            "round": rnd.number,
            "when": timezone.localtime(rnd.deadline).strftime("%Y-%m-%d %H:%M"),
        }
        _log(tournament, user, Action.Kind.EXTEND, reason, what)
    return rnd


def messages_left(tournament: Tournament, now: datetime | None = None) -> int:
    now = now or timezone.now()
    sent = Action.objects.filter(
        tournament=tournament, kind=Action.Kind.MESSAGE, created__gte=now - timedelta(days=1)
    ).count()
    return max(0, MESSAGES_PER_DAY - sent)


def do_message(tournament_id: int, user: User, text: str) -> Action:
    """A message to every player signed up and still in, by email and push (as the other
    notices: the player's settings decide); at most ``MESSAGES_PER_DAY`` a day."""
    text = str(text or "").strip()
    if not 1 <= len(text) <= MAX_MESSAGE:
        raise errors.Invalid(
            "text", _("Write a message of 1 to %(most)d characters.") % {"most": MAX_MESSAGE}
        )
    with transaction.atomic():
        tournament = _organised(tournament_id, user)
        if tournament.status == Status.CANCELLED:
            raise ValidationError(_("This tournament was cancelled."))
        if not messages_left(tournament):
            oldest = (
                Action.objects.filter(
                    tournament=tournament,
                    kind=Action.Kind.MESSAGE,
                    created__gte=timezone.now() - timedelta(days=1),
                )
                .order_by("created")
                .values_list("created", flat=True)
                .first()
            )
            wait = int(
                ((oldest or timezone.now()) + timedelta(days=1) - timezone.now()).total_seconds()
            )
            raise errors.Limited(
                _("At most %(n)d messages a day: try again later.") % {"n": MESSAGES_PER_DAY},
                retry_after=max(1, wait),
            )
        action = _log(tournament, user, Action.Kind.MESSAGE, text)
        players = [
            e.user
            for e in tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("user")
        ]
        notices.tell(tournament, players, Notice.Kind.MESSAGE, about=action.pk)
    return action


def do_seed(tournament_id: int, user: User, usernames: list[str]) -> list[int]:
    """Seed by hand before the start: ``usernames`` best first (players signed up; those
    left out follow by rating, as the seeds are fixed at the start)."""
    with transaction.atomic():
        tournament = _organised(tournament_id, user)
        if tournament.status != Status.SIGNUP:
            raise ValidationError(_("Seeds can be set only before the start."))
        entries = dict(
            tournament.entries.filter(status=Entry.Status.ACTIVE).values_list(
                "user__username", "pk"
            )
        )
        names = [str(n).strip() for n in usernames if str(n).strip()]
        unknown = [n for n in names if n not in entries]
        if unknown or len(set(names)) != len(names):
            raise errors.Invalid(
                "usernames",
                _("Name each player signed up at most once (not %(name)s).")
                % {"name": (unknown or names)[0]},
            )
        tournament.hand_seeds = [entries[n] for n in names]
        tournament.save(update_fields=["hand_seeds"])
        _log(tournament, user, Action.Kind.SEED, _("Seeds set by hand"), ", ".join(names))
    seeds: list[int] = tournament.hand_seeds
    return seeds
