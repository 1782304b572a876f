"""Tournaments and leagues: created, joined and left; started when sign-up closes; each
round paired when the last table of the one before is decided; finished with a winner.

Like the games' actions (``games.play``), each ``do_*`` checks first and changes its rows
in ``transaction.atomic()`` under ``select_for_update()`` of the tournament's row, so that
everything that moves a tournament on (a game's end, a round's deadline, the sweep) runs
one at a time per tournament: two last games ending at the same moment on two workers
each take the lock in turn, and the second finds the round already closed and the next
one paired. The unique (tournament, season, division, number) of a round backs this up.

The pairings, schedules and standings are the pure modules of ``formats``; games are
started through ``games.play.invitations.start_game`` and their ends heard through the
platform's hook (``games.play.events.GAME_ENDED``, ``games.tournaments.tasks``).
"""

from __future__ import annotations

import logging
import secrets
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import OperationalError, connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.community.blocks import reads as blocks
from games.community.friends import reads as friends
from games.community.models import Block
from games.core import GameKind, OptionError, parse_options, registry
from games.models import MOVE_DAYS, Game, Move, Rating, Seat
from games.play import errors, moves, ratings
from games.play.invitations import start_game
from games.play.timeouts import TIMEOUT_EVENT
from games.reads.viewing import game_state
from games.tournaments import notices
from games.tournaments.formats import Round as Deal
from games.tournaments.formats import (
    double_elimination,
    knockout,
    league,
    round_robin,
    swiss,
)
from games.tournaments.formats.apart import keep_apart
from games.tournaments.formats.seats import seat_order
from games.tournaments.formats.standings import Bye, Row, TableResult, knockout_standings
from games.tournaments.formats.standings import standings as rank_players
from games.tournaments.models import Entry, Notice, Round, Table, Tournament

log = logging.getLogger(__name__)

Format = Tournament.Format
# Everyone meets everyone: once, or twice.
ROBINS = (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN)
# Out by losing: ranked by the round reached.
ELIMINATIONS = (Format.KNOCKOUT, Format.DOUBLE_ELIMINATION)

# A player whose time ran out this many times in a tournament's games is withdrawn.
TIMEOUTS_TO_WITHDRAW = 2
# The decisions the computer makes for one time-out are made within this time of each other.
ONE_WAIT = timedelta(minutes=1)
# A Swiss or a knockout: each Swiss round of 512 is paired within 30 s on the site's machine
# (python manage.py bench_tournaments), under the tournament's row lock.
MAX_PLAYERS = 512
MAX_LEAGUE = 640
MAX_ROUND_ROBIN = 24  # everyone meets everyone: more would take months
MAX_SWISS_ROUNDS = 15
MAX_SIGNUP_DAYS = 60
# How many rounds robin or knockout take is fixed at the start; a league's "rounds" is its
# number of seasons (0: it goes on until stopped).
MAX_SEASONS = 50


def bye_points(tournament: Tournament) -> Fraction:
    """A bye in a Swiss scores as a win; in a round robin or a league nothing (everyone sits
    out as often as the numbers allow); in a knockout it only lets the player go on."""
    return Fraction(1) if tournament.format in (Format.SWISS, Format.KNOCKOUT) else Fraction(0)


def player_limits(format: str, table_size: int) -> tuple[int, int]:
    """The fewest and the most players a tournament of ``format`` may have."""
    if format == Format.LEAGUE:
        return league.LEAST, MAX_LEAGUE
    if format in ROBINS:
        return table_size, MAX_ROUND_ROBIN
    return (2 if format == Format.DOUBLE_ELIMINATION else table_size), MAX_PLAYERS


def uses_tie_breaks(tournament: Tournament) -> bool:
    return tournament.format not in ELIMINATIONS


# Creating -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewTournament:
    """A new tournament that keeps every rule (``check_new_tournament``)."""

    name: str
    game: GameKind
    options: dict[str, Any]
    format: str
    table_size: int
    advance: int
    rounds: int
    move_days: int | None
    round_days: int
    rated: bool
    starts_at: datetime
    signup_until: datetime | None
    min_players: int
    max_players: int
    access: str


def check_new_tournament(
    creator: User,
    *,
    name: str,
    kind: str,
    options: Mapping[str, Any] | None = None,
    format: str = Format.SWISS,
    table_size: int = 2,
    advance: int | None = None,
    rounds: int = 0,
    move_days: int | None = 3,
    round_days: int = 14,
    rated: bool = True,
    starts_at: datetime,
    signup_until: datetime | None = None,
    min_players: int = 4,
    max_players: int = 32,
    access: str = Tournament.Access.ANYONE,
    now: datetime | None = None,
) -> NewTournament:
    """Every rule of a new tournament, for the page's form and the API alike; raises
    ``errors.Invalid`` naming the field at fault."""
    now = now or timezone.now()
    if creator.is_computer or not creator.is_active:
        raise PermissionDenied(_("Only people organise tournaments"))
    name = " ".join(str(name).split())
    if not 3 <= len(name) <= 80:
        raise errors.Invalid("name", _("Give the tournament a name of 3 to 80 characters."))
    try:
        game = registry.get(kind)
    except registry.UnknownGame as error:
        raise errors.Invalid("game", str(error)) from None
    if format not in Format.values:
        raise errors.Invalid("format", _("Choose a format from the list."))
    if not 2 <= table_size <= 4:
        raise errors.Invalid("table_size", _("Tables seat 2 to 4 players."))
    if not game.min_players <= table_size <= game.max_players:
        raise errors.Invalid(
            "table_size",
            _("%(game)s is played by %(least)d to %(most)d players.")
            % {"game": game.name, "least": game.min_players, "most": game.max_players},
        )
    try:
        game.parse_options(options, table_size)
    except OptionError as error:
        raise errors.Invalid(error.option, error.message) from None
    if move_days is not None and move_days not in MOVE_DAYS:
        raise errors.Invalid("move_days", _("Choose a time per move from the list"))
    if not 1 <= round_days <= 90:
        raise errors.Invalid("round_days", _("A round lasts 1 to 90 days."))
    if move_days is not None and round_days < move_days:
        raise errors.Invalid(
            "round_days", _("A round must last at least as long as the time per move.")
        )
    if format == Format.KNOCKOUT:
        advance = knockout.default_advance(table_size) if advance is None else advance
        if not 1 <= advance < table_size:
            raise errors.Invalid(
                "advance",
                _("From 1 to %(most)d players go on from each table.") % {"most": table_size - 1},
            )
    else:
        advance = 1
    if format == Format.SWISS and not 1 <= rounds <= MAX_SWISS_ROUNDS:
        raise errors.Invalid(
            "rounds", _("A Swiss has 1 to %(most)d rounds.") % {"most": MAX_SWISS_ROUNDS}
        )
    if format == Format.LEAGUE and not 0 <= rounds <= MAX_SEASONS:
        raise errors.Invalid(
            "rounds",
            _("A league plays 1 to %(most)d seasons, or 0 for no end.") % {"most": MAX_SEASONS},
        )
    if format == Format.DOUBLE_ELIMINATION and table_size != 2:
        raise errors.Invalid("table_size", _("A double elimination is played at tables of two."))
    if format in (*ROBINS, *ELIMINATIONS):
        rounds = 0  # fixed at the start, by the number of players
    least, most = player_limits(format, table_size)
    if not least <= min_players <= max_players <= most:
        raise errors.Invalid(
            "min_players",
            _("Between %(least)d and %(most)d players, the minimum not above the maximum.")
            % {"least": least, "most": most},
        )
    if format == Format.KNOCKOUT:
        least_at_table = max(2, game.min_players)
        stuck = [
            n
            for n in range(min_players, max_players + 1)
            if not knockout.playable(n, table_size, advance, least_at_table)
        ]
        if stuck:
            raise errors.Invalid(
                "advance",
                _("A knockout of %(players)d players cannot be played at these tables.")
                % {"players": stuck[0]},
            )
    if access not in Tournament.Access.values:
        raise errors.Invalid("access", _("Choose who may join from the list."))
    if not now < starts_at <= now + timedelta(days=MAX_SIGNUP_DAYS):
        raise errors.Invalid(
            "starts_at",
            _("The start must be in the future, within %(days)d days.") % {"days": MAX_SIGNUP_DAYS},
        )
    if signup_until is not None and not now < signup_until <= starts_at:
        raise errors.Invalid(
            "signup_until", _("Sign-up must close in the future, and not after the start.")
        )
    return NewTournament(
        name=name,
        game=game,
        options=parse_options(game.option_specs, options),
        format=format,
        table_size=table_size,
        advance=advance,
        rounds=rounds,
        move_days=move_days,
        round_days=round_days,
        rated=rated,
        starts_at=starts_at,
        signup_until=signup_until,
        min_players=min_players,
        max_players=max_players,
        access=access,
    )


def do_create_tournament(creator: User, **arguments: Any) -> Tournament:
    """A new tournament open for sign-up until ``starts_at`` (the arguments of
    ``check_new_tournament``). The organiser is not entered: they join like anyone."""
    new = check_new_tournament(creator, **arguments)
    return Tournament.objects.create(
        name=new.name,
        creator=creator,
        kind=new.game.id,
        options=new.options,
        format=new.format,
        table_size=new.table_size,
        advance=new.advance,
        rounds=new.rounds,
        move_days=new.move_days,
        round_days=new.round_days,
        rated=new.rated,
        starts_at=new.starts_at,
        signup_until=new.signup_until,
        min_players=new.min_players,
        max_players=new.max_players,
        access=new.access,
        code=secrets.token_urlsafe(6) if new.access == Tournament.Access.CODE else "",
    )


# Joining and leaving ---------------------------------------------------------------------------


# How long a person's request (a join, a leave, an organiser's action) waits for the
# tournament's row while a worker moves it on, before it answers "try again" (PostgreSQL).
PERSON_LOCK_WAIT_MS = 5000
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE when lock_timeout ran out


def _lock(tournament_id: int, *, person: bool = False) -> Tournament:
    """The tournament's row, locked to the end of the transaction. A ``person``'s request
    waits ``PERSON_LOCK_WAIT_MS`` at most (a web worker must not hang behind the sweep),
    then is refused with ``errors.Limited``, and nothing changed."""
    rows = Tournament.objects.select_for_update()
    if person and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = %s", [f"{PERSON_LOCK_WAIT_MS}ms"])
    try:
        tournament = rows.get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise errors.NotFound(_("No such tournament")) from None
    except OperationalError as error:
        cause = error.__cause__
        if getattr(cause, "sqlstate", getattr(cause, "pgcode", None)) != LOCK_NOT_AVAILABLE:
            raise
        raise errors.Limited(
            _("The tournament is busy moving on: try again in a few seconds."), retry_after=5
        ) from None
    if person and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = 0")
    return tournament


def may_join(tournament: Tournament, user: User, code: str = "") -> str | None:
    """Why ``user`` may not join now (words for people), or None."""
    if not user.is_authenticated or user.is_computer or not user.is_active:
        return _("Only people who are logged in join tournaments.")
    if not signup_open(tournament):
        return _("Sign-up for this tournament has closed.")
    if tournament.access == Tournament.Access.FRIENDS and user.pk != tournament.creator_id:
        if not friends.is_friend(tournament.creator, user):
            return _("Only the organiser's friends may join this tournament.")
    if tournament.access == Tournament.Access.CODE and user.pk != tournament.creator_id:
        if not secrets.compare_digest(str(code).strip(), tournament.code):
            return _("This tournament needs its invitation code: ask the organiser.")
    # Kept apart by a block (either way) from the organiser or anyone signed up: they would
    # share a table. As everywhere on the site, the refusal names no reason.
    others = [tournament.creator_id, *_active_users(tournament)]
    if blocks.kept_apart(user.pk, others):
        return _("You cannot join this tournament.")
    return None


def signup_open(tournament: Tournament, now: datetime | None = None) -> bool:
    """Whether players may sign up now: before the sign-up deadline (the start, if none was
    set); a league at any time (from its next season on); a Swiss under way while a round is
    still to be paired (late entry: from the next round on, without points for the rounds
    missed)."""
    now = now or timezone.now()
    if tournament.status == Tournament.Status.SIGNUP:
        return tournament.signup_until is None or now < tournament.signup_until
    if tournament.status != Tournament.Status.RUNNING:
        return False
    if tournament.is_league:
        return True
    if tournament.format == Format.SWISS:
        paired = tournament.round_set.order_by("-number").values_list("number", flat=True)
        return (paired.first() or 0) < tournament.rounds
    return False


def _active_users(tournament: Tournament) -> list[int]:
    return list(
        tournament.entries.filter(status=Entry.Status.ACTIVE).values_list("user_id", flat=True)
    )


def do_join(tournament_id: int, user: User, code: str = "") -> Entry:
    """``user`` signs up (a league: from its next season on)."""
    with transaction.atomic():
        tournament = _lock(tournament_id, person=True)
        reason = may_join(tournament, user, code)
        if reason is not None:
            raise PermissionDenied(reason)
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is not None and entry.status == Entry.Status.ACTIVE:
            raise ValidationError(_("You have signed up already."))
        if entry is not None and tournament.status != Tournament.Status.SIGNUP:
            raise ValidationError(_("You left this tournament: you cannot join it again."))
        active = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
        if active >= tournament.max_players:
            raise ValidationError(_("This tournament is full."))
        if entry is None:
            entry = Entry(tournament=tournament, user=user)
        entry.status = Entry.Status.ACTIVE
        entry.since_season = tournament.season + 1 if tournament.is_league else 0
        if tournament.format == Format.SWISS and tournament.status == Tournament.Status.RUNNING:
            # A late entrant: seeded last, paired from the next round on.
            last = tournament.entries.order_by("-seed").values_list("seed", flat=True).first()
            entry.seed = (last or 0) + 1
        entry.save()
    return entry


def do_leave(tournament_id: int, user: User) -> Entry:
    """``user`` leaves: before the start, simply; once it runs, they concede their games
    under way and are never paired again (a league: from its next season on they are out
    of its divisions)."""
    with transaction.atomic():
        tournament = _lock(tournament_id, person=True)
        entry = Entry.objects.filter(
            tournament=tournament, user=user, status=Entry.Status.ACTIVE
        ).first()
        if entry is None:
            raise ValidationError(_("You are not playing in this tournament."))
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise ValidationError(_("This tournament is over."))
        if tournament.status == Tournament.Status.SIGNUP:
            entry.delete()
            entry.status = Entry.Status.LEFT
            return entry
        _take_out(tournament, entry, Entry.Status.LEFT)
        _settle(tournament, timezone.now())
    return entry


def _take_out(tournament: Tournament, entry: Entry, status: str) -> None:
    """``entry`` plays no more: it concedes every game of the tournament under way."""
    entry.status = status
    entry.save(update_fields=["status"])
    under_way = Game.objects.filter(
        tournament_table__round__tournament=tournament,
        status__in=Game.ACTIVE,
        seats__user_id=entry.user_id,
    ).values_list("pk", flat=True)
    for game_id in list(under_way):
        try:
            moves.do_concede(game_id, entry.user)
        except errors.GameNotActive:
            pass  # it ended meanwhile


# Starting ---------------------------------------------------------------------------------------


def do_close_signup(tournament_id: int, now: datetime | None = None) -> Tournament | None:
    """At its start time: too few players cancel the tournament (everyone hears it), else
    the seeds are fixed from the players' ratings and the first round is paired. None
    when there was nothing to do (not yet, or done before)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status != Tournament.Status.SIGNUP or tournament.starts_at > now:
            return None
        entries = list(tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("user"))
        if len(entries) < tournament.min_players:
            tournament.status = Tournament.Status.CANCELLED
            tournament.finished = now
            tournament.save(update_fields=["status", "finished"])
            notices.tell(tournament, [e.user for e in entries], Notice.Kind.CANCELLED)
            return tournament
        _seed(tournament, entries)
        tournament.status = Tournament.Status.RUNNING
        tournament.started = now
        seeded = [e.pk for e in sorted(entries, key=lambda e: e.seed)]
        if tournament.format in ROBINS:
            tournament.schedule = _schedule(tournament, seeded)
            tournament.rounds = len(tournament.schedule)
        elif tournament.format == Format.KNOCKOUT:
            tournament.rounds = knockout.rounds_needed(
                len(seeded), tournament.table_size, tournament.advance, _least(tournament)
            )
        elif tournament.is_league:
            tournament.season = 1
            tournament.divisions = league.join([], seeded)
            tournament.schedule = [_schedule(tournament, d) for d in tournament.divisions]
        tournament.save()
        _pair_first(tournament, seeded, now)
        _settle(tournament, now)
    return tournament


def _seed(tournament: Tournament, entries: list[Entry]) -> None:
    """Seeds from the ratings at the tournament's game (a player without one counts as a
    new player), then the order of sign-up."""
    rated = dict(
        Rating.objects.filter(
            kind=tournament.kind, user__in=[e.user_id for e in entries]
        ).values_list("user_id", "rating")
    )
    new_player = ratings.Skill().rating
    # The organiser's order first (those of it still in), then the others by rating.
    by_hand = {pk: i for i, pk in enumerate(tournament.hand_seeds)}
    order = sorted(
        entries,
        key=lambda e: (
            by_hand.get(e.pk, len(by_hand)),
            -rated.get(e.user_id, new_player),
            e.joined,
            e.pk,
        ),
    )
    for seed, entry in enumerate(order, 1):
        entry.seed = seed
        entry.rating = rated.get(entry.user_id)
    Entry.objects.bulk_update(order, ["seed", "rating"])


def _schedule(tournament: Tournament, players: Sequence[int]) -> list[list[list[int]]]:
    rounds = round_robin.schedule(players, tournament.table_size, seed=tournament.pk)
    if tournament.format == Format.DOUBLE_ROUND_ROBIN:
        rounds = round_robin.double(rounds)
    return [[list(t) for t in r] for r in rounds]


def _pair_first(tournament: Tournament, seeded: list[int], now: datetime) -> None:
    if tournament.format == Format.SWISS:
        _pair_swiss(tournament, 1, now)
    elif tournament.format in ROBINS:
        _pair_scheduled(tournament, 0, 0, 1, tournament.schedule, seeded, now)
    elif tournament.format == Format.KNOCKOUT:
        _create_round(tournament, 0, 0, 1, *_knockout_deal(tournament, seeded), now)
    elif tournament.format == Format.DOUBLE_ELIMINATION:
        tables, byes = double_elimination.deal(seeded, {})
        _create_round(tournament, 0, 0, 1, _apart_tables(tournament, tables, {}), byes, now)
    else:
        _start_season(tournament, now)


def _least(tournament: Tournament) -> int:
    """The fewest players at a table of the tournament's game."""
    return max(2, tournament.game_kind.min_players)


def _knockout_deal(tournament: Tournament, seeded: list[int]) -> tuple[Deal, list[int]]:
    tables, byes = knockout.deal(
        seeded, tournament.table_size, tournament.advance, _least(tournament)
    )
    return _apart_tables(tournament, tables), byes


def _apart_tables(
    tournament: Tournament,
    tables: Sequence[tuple[int, ...]],
    lost: Mapping[int, int] | None = None,
) -> Deal:
    """A deal's tables with players who blocked one another (after signing up) moved
    apart where a swap can do it (in a double elimination, within a bracket)."""
    seated = [p for t in tables for p in t]
    apart = {frozenset(pair) for pair in _apart_pairs(tournament, seated)}
    if lost is None:
        return keep_apart(list(tables), apart)
    return keep_apart(list(tables), apart, lambda t: lost.get(t[0], 0))


# Rounds -----------------------------------------------------------------------------------------


def _create_round(
    tournament: Tournament,
    season: int,
    division: int,
    number: int,
    tables: Sequence[Sequence[int]],
    byes: Sequence[int],
    now: datetime,
) -> Round:
    """A round's tables, their games started together, and the byes; everyone hears."""
    rnd = Round.objects.create(
        tournament=tournament,
        season=season,
        division=division,
        number=number,
        started=now,
        deadline=now + timedelta(days=tournament.round_days),
    )
    entries = {e.pk: e for e in tournament.entries.select_related("user")}
    kind = tournament.game_kind
    told: list[User] = []
    # Berger tables give a 2-player round robin's first seats in turn by themselves.
    berger = tournament.format in ROBINS and tournament.table_size == 2
    taken = {} if berger else _seats_taken(tournament)
    for i, table in enumerate(tables, 1):
        present = [p for p in table if entries[p].status == Entry.Status.ACTIVE]
        row = Table(round=rnd, number=i, entries=list(table))
        if len(present) >= max(2, kind.min_players):
            ordered = present if berger else seat_order(present, taken)
            users = [entries[p].user for p in ordered]
            row.game = start_game(
                kind,
                kind.parse_options(tournament.options, len(users)),
                users,
                move_days=tournament.move_days,
                rated=tournament.rated,
                in_order=True,
            )
            told += users
        else:
            # Nobody to play against: the players still in take the table.
            row.places = _with_absent({str(p): 1 for p in present}, table)
            row.decided, row.decided_by = True, "forfeit"
            told += [entries[p].user for p in present]
        row.save()
    for j, player in enumerate(byes, len(tables) + 1):
        Table.objects.create(
            round=rnd,
            number=j,
            entries=[player],
            bye=True,
            places={str(player): 1},
            decided=True,
            decided_by="bye",
        )
        told.append(entries[player].user)
    notices.tell(tournament, told, Notice.Kind.ROUND, about=rnd.pk)
    return rnd


def _seats_taken(tournament: Tournament) -> dict[int, list[int]]:
    """How often each entry had each seat (0 first) in the tournament's games so far."""
    by_user = dict(tournament.entries.values_list("user_id", "pk"))
    out: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    rows = Seat.objects.filter(game__tournament_table__round__tournament=tournament)
    for user_id, number in rows.values_list("user_id", "number"):
        if user_id in by_user and 0 <= number < 4:
            out[by_user[user_id]][number] += 1
    return dict(out)


def _with_absent(places: dict[str, int], table: Sequence[int]) -> dict[str, int]:
    """``places`` of the players who played, and the players gone from the table after them
    (tied last)."""
    last = len(places) + 1
    return {**places, **{str(p): last for p in table if str(p) not in places}}


def _history(tournament: Tournament, season: int, division: int) -> QuerySet[Table]:
    return Table.objects.filter(
        round__tournament=tournament, round__season=season, round__division=division
    ).select_related("round")


def results(
    tournament: Tournament, season: int = 0, division: int = 0
) -> tuple[list[TableResult], list[Bye]]:
    """The decided tables and byes of one stage (a league's season and division)."""
    out: list[TableResult] = []
    byes: list[Bye] = []
    for table in _history(tournament, season, division).filter(decided=True):
        if table.bye:
            byes.append(Bye(table.round.number, table.entries[0]))
        else:
            places = {int(p): place for p, place in table.places.items()}
            out.append(TableResult(table.round.number, places))
    return out, byes


def standings(tournament: Tournament, season: int = 0, division: int = 0) -> list[Row]:
    """The ranking of one stage, its players in seed order."""
    players = stage_players(tournament, season, division)
    found, byes = results(tournament, season, division)
    if tournament.format in ELIMINATIONS:
        return knockout_standings(players, found, byes)
    return rank_players(
        players,
        found,
        byes,
        bye_points=bye_points(tournament),
        tie_breaks=uses_tie_breaks(tournament),
    )


def stage_players(tournament: Tournament, season: int = 0, division: int = 0) -> list[int]:
    """The entries of a stage in seed order: a league division's as the season began, else
    everyone who started."""
    if tournament.is_league and season:
        played = _history(tournament, season, division).values_list("entries", flat=True)
        seen = {p for entries in played for p in entries}
        if season == tournament.season and 0 < division <= len(tournament.divisions):
            return list(tournament.divisions[division - 1])
        order = {e: i for i, e in enumerate(tournament.entries.values_list("pk", flat=True))}
        return sorted(seen, key=lambda p: order.get(p, 0))
    return list(tournament.entries.filter(seed__gt=0).order_by("seed").values_list("pk", flat=True))


def _active(tournament: Tournament) -> set[int]:
    return set(tournament.entries.filter(status=Entry.Status.ACTIVE).values_list("pk", flat=True))


def _pair_swiss(tournament: Tournament, number: int, now: datetime) -> None:
    found, byes = results(tournament)
    players = [p for p in stage_players(tournament) if p in _active(tournament)]
    scores = {r.player: r.points for r in standings(tournament)}
    history: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    for result in found:
        history[result.round].append(tuple(result.places))
    bye_count: dict[int, int] = defaultdict(int)
    for bye in byes:
        bye_count[bye.player] += 1
    firsts = {p: seats[0] - seats[1] for p, seats in _seats_taken(tournament).items()}
    # Players who blocked one another after signing up weigh as having met three times:
    # they share a table only when nothing else can be paired.
    apart = _apart_pairs(tournament, players)
    if apart:
        history[0] = history.get(0, []) + apart * 3
    tables, bye_players = swiss.pair(
        players, scores, list(history.values()), bye_count, tournament.table_size, firsts
    )
    _create_round(tournament, 0, 0, number, tables, bye_players, now)


def _apart_pairs(tournament: Tournament, players: Sequence[int]) -> list[tuple[int, ...]]:
    """The pairs of ``players`` kept apart by a block (either way round)."""
    user_of = dict(tournament.entries.filter(pk__in=list(players)).values_list("pk", "user_id"))
    entry_of = {u: p for p, u in user_of.items()}
    rows = Block.objects.filter(
        user_id__in=list(entry_of), blocked_id__in=list(entry_of)
    ).values_list("user_id", "blocked_id")
    return [(entry_of[a], entry_of[b]) for a, b in rows if a != b]


def _pair_scheduled(
    tournament: Tournament,
    season: int,
    division: int,
    number: int,
    schedule: list[list[list[int]]],
    players: Sequence[int],
    now: datetime,
) -> None:
    tables = [tuple(t) for t in schedule[number - 1]]
    seated = {p for t in tables for p in t}
    active = _active(tournament)
    # Those the schedule sits out this round (withdrawn players need no bye).
    byes = [p for p in players if p not in seated and p in active]
    _create_round(tournament, season, division, number, tables, byes, now)


def _start_season(tournament: Tournament, now: datetime) -> None:
    for division, players in enumerate(tournament.divisions, 1):
        schedule = tournament.schedule[division - 1]
        if schedule:
            _pair_scheduled(tournament, tournament.season, division, 1, schedule, players, now)


# Moving on -------------------------------------------------------------------------------------


def do_game_ended(game_id: int) -> Tournament | None:
    """The platform's hook: a game ended. If it was a tournament's, its table is decided and
    the tournament moves on (the next round, or its end). Safe to run twice or late."""
    tournament_id = (
        Table.objects.filter(game_id=game_id).values_list("round__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return None
    return do_update(tournament_id)


def do_update(tournament_id: int, now: datetime | None = None) -> Tournament:
    """Everything that is due in a tournament: withdrawals, decided tables, rounds closed
    and the next ones paired, its end."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status == Tournament.Status.RUNNING:
            _withdraw_timed_out(tournament)
            _settle(tournament, now)
    return tournament


def _settle(tournament: Tournament, now: datetime) -> None:
    """Decide what can be decided; close the rounds all of whose tables are, and pair the
    next (which may be decided at once: all forfeits)."""
    for _step in range(1000):
        open_rounds = list(tournament.round_set.filter(status=Round.Status.PLAYING))
        closed = False
        for rnd in open_rounds:
            _decide_tables(tournament, rnd, now)
            if not rnd.tables.filter(decided=False).exists():
                rnd.status, rnd.finished = Round.Status.DONE, now
                rnd.save(update_fields=["status", "finished"])
                _after_round(tournament, rnd, now)
                closed = True
        if not closed or tournament.status != Tournament.Status.RUNNING:
            return
    raise RuntimeError(f"tournament {tournament.pk} did not settle")


def _decide_tables(tournament: Tournament, rnd: Round, now: datetime) -> None:
    by_user = dict(tournament.entries.values_list("user_id", "pk"))
    for table in rnd.tables.filter(decided=False).select_related("game"):
        game = table.game
        if game is None:
            continue
        seats = list(Seat.objects.filter(game=game).order_by("number"))
        if game.status == Game.Status.FINISHED:
            places = {str(by_user[s.user_id]): s.rank or len(seats) for s in seats}
            how = "game"
        elif game.status == Game.Status.CANCELLED:
            # Cancelled by its players' votes: nobody won, all share the table.
            places = {str(by_user[s.user_id]): 1 for s in seats}
            how = "game"
        elif now >= rnd.deadline:
            places = {str(by_user[s.user_id]): place for s, place in adjudicate(game, seats)}
            how = "deadline"
        else:
            continue
        table.places = _with_absent(places, table.entries)
        table.decided, table.decided_by = True, how
        table.save(update_fields=["places", "decided", "decided_by"])


def adjudicate(game: Game, seats: Sequence[Seat]) -> list[tuple[Seat, int]]:
    """A game still running at its round's deadline: ranked by the scores everyone can see
    (the spectator's view), equal scores sharing a place, seats that resigned or were
    abandoned after all the others. The game itself goes on, outside the tournament."""
    kind = game.game_kind
    shown = kind.scores(kind.view(game_state(game), None))
    playing = [s for s in seats if not s.computer_plays]
    gone = [s for s in seats if s.computer_plays]
    out: list[tuple[Seat, int]] = []
    for s in playing:
        mine = shown.get(s.number, 0)
        out.append((s, 1 + sum(1 for o in playing if shown.get(o.number, 0) > mine)))
    out += [(s, len(playing) + 1) for s in gone]
    return out


def _after_round(tournament: Tournament, rnd: Round, now: datetime) -> None:
    if tournament.format == Format.SWISS:
        if rnd.number < tournament.rounds and len(_active(tournament)) >= 2:
            _pair_swiss(tournament, rnd.number + 1, now)
        else:
            _finish(tournament, now)
    elif tournament.format in ROBINS:
        if rnd.number < len(tournament.schedule):
            players = stage_players(tournament)
            _pair_scheduled(tournament, 0, 0, rnd.number + 1, tournament.schedule, players, now)
        else:
            _finish(tournament, now)
    elif tournament.format == Format.KNOCKOUT:
        _after_knockout_round(tournament, rnd, now)
    elif tournament.format == Format.DOUBLE_ELIMINATION:
        _after_double_elimination_round(tournament, rnd, now)
    else:
        schedule = tournament.schedule[rnd.division - 1]
        if rnd.number < len(schedule):
            players = tournament.divisions[rnd.division - 1]
            _pair_scheduled(
                tournament, rnd.season, rnd.division, rnd.number + 1, schedule, players, now
            )
        elif not Round.objects.filter(tournament=tournament, status=Round.Status.PLAYING).exists():
            _end_season(tournament, now)


def _after_knockout_round(tournament: Tournament, rnd: Round, now: datetime) -> None:
    seeds = dict(tournament.entries.values_list("pk", "seed"))
    active = _active(tournament)
    on: list[int] = []
    out: list[int] = []
    for table in rnd.tables.all():
        places = {int(p): place for p, place in table.places.items()}
        if table.bye:
            on += [p for p in table.entries if p in active]  # a bye of a player since gone
            continue
        going = knockout.goes_on(table.entries, places, seeds, tournament.advance)
        going = [p for p in going if p in active]
        on += going
        out += [p for p in table.entries if p not in going]
    entries = {e.pk: e for e in tournament.entries.select_related("user")}
    Entry.objects.filter(pk__in=out, status=Entry.Status.ACTIVE).update(status=Entry.Status.OUT)
    final = len([t for t in rnd.tables.all() if not t.bye]) <= 1 and not any(
        t.bye for t in rnd.tables.all()
    )
    if final or len(on) <= 1:
        _finish(tournament, now)
        return
    notices.tell(tournament, [entries[p].user for p in out], Notice.Kind.OUT, about=rnd.pk)
    notices.tell(tournament, [entries[p].user for p in on], Notice.Kind.ADVANCED, about=rnd.pk)
    on.sort(key=lambda p: seeds[p])
    _create_round(tournament, 0, 0, rnd.number + 1, *_knockout_deal(tournament, on), now)


def losses(tournament: Tournament) -> dict[int, int]:
    """A double elimination's losses so far by entry: one for the loser of each game."""
    seeds = dict(tournament.entries.values_list("pk", "seed"))
    found, _byes = results(tournament)
    out: dict[int, int] = defaultdict(int)
    for result in found:
        table = tuple(result.places)
        if len(table) >= 2:
            out[double_elimination.loser(table, result.places, seeds)] += 1
    return dict(out)


def _after_double_elimination_round(tournament: Tournament, rnd: Round, now: datetime) -> None:
    lost = losses(tournament)
    active = _active(tournament)
    out = [p for p in active if lost.get(p, 0) >= 2]
    entries = {e.pk: e for e in tournament.entries.select_related("user")}
    if out:
        Entry.objects.filter(pk__in=out, status=Entry.Status.ACTIVE).update(status=Entry.Status.OUT)
        notices.tell(tournament, [entries[p].user for p in out], Notice.Kind.OUT, about=rnd.pk)
    players = [p for p in stage_players(tournament) if p in active and p not in out]
    if len(players) <= 1:
        _finish(tournament, now)
        return
    tables, byes = double_elimination.deal(players, lost)
    _create_round(tournament, 0, 0, rnd.number + 1, _apart_tables(tournament, tables), byes, now)


def _end_season(tournament: Tournament, now: datetime) -> None:
    """Every division has played its round robin: up and down, the newcomers in, the next
    season (unless this was the last)."""
    season = tournament.season
    ranked = [
        [r.player for r in standings(tournament, season, d)]
        for d in range(1, len(tournament.divisions) + 1)
    ]
    gone = list(tournament.entries.exclude(status=Entry.Status.ACTIVE).values_list("pk", flat=True))
    seated = {p for d in tournament.divisions for p in d}
    newcomers = list(
        tournament.entries.filter(status=Entry.Status.ACTIVE)
        .exclude(pk__in=seated)
        .order_by("joined", "pk")
        .values_list("pk", flat=True)
    )
    if ranked and ranked[0]:
        champion = Entry.objects.select_related("user").get(pk=ranked[0][0])
        tournament.winner = champion.user
    if tournament.rounds and season >= tournament.rounds:
        _finish(tournament, now, champion_known=True)
        return
    divisions = league.next_season(ranked, left=gone, newcomers=newcomers)
    if sum(len(d) for d in divisions) < league.LEAST:
        _finish(tournament, now, champion_known=True)
        return
    tournament.season = season + 1
    tournament.divisions = divisions
    tournament.schedule = [_schedule(tournament, d) for d in divisions]
    tournament.save(update_fields=["season", "divisions", "schedule", "winner"])
    users = {e.pk: e.user for e in tournament.entries.select_related("user")}
    previous = {p: i for i, d in enumerate(ranked) for p in d}
    for i, division in enumerate(divisions):
        up = [users[p] for p in division if p in previous and previous[p] > i]
        notices.tell(tournament, up, Notice.Kind.ADVANCED, about=season)
    _start_season(tournament, now)


def _finish(tournament: Tournament, now: datetime, champion_known: bool = False) -> None:
    if not champion_known:
        ranked = standings(tournament)
        if ranked:
            winner = Entry.objects.select_related("user").get(pk=ranked[0].player)
            tournament.winner = winner.user
    tournament.status = Tournament.Status.FINISHED
    tournament.finished = now
    tournament.save()
    notices.tell(
        tournament, [e.user for e in tournament.entries.select_related("user")], Notice.Kind.ENDED
    )


# Time-outs -------------------------------------------------------------------------------------


def timeouts(tournament: Tournament) -> dict[int, int]:
    """How many times each entry's time ran out in the tournament's games: each wait the
    computer played for them (``games.play.timeouts`` marks its moves), counted once."""
    games = list(
        Table.objects.filter(round__tournament=tournament, game__isnull=False).values_list(
            "game_id", flat=True
        )
    )
    if not games:
        return {}
    marked = (
        Move.objects.filter(game_id__in=games, automatic=True, events__0__type=TIMEOUT_EVENT)
        .order_by("game_id", "number")
        .values_list("game_id", "number", "seat", "created")
    )
    last: dict[tuple[int, int], tuple[int, datetime]] = {}
    count: dict[tuple[int, int], int] = defaultdict(int)
    for game_id, number, seat, created in marked:
        key = (game_id, seat)
        before = last.get(key)
        # One time-out may make several decisions in a row (moves that follow each other,
        # made at once); a later time-out is a new wait even when no other move came
        # between (the other player ran out of time too, after it).
        same_wait = (
            before is not None and before[0] == number - 1 and created - before[1] < ONE_WAIT
        )
        if not same_wait:
            count[key] += 1
        last[key] = (number, created)
    by_user = dict(tournament.entries.values_list("user_id", "pk"))
    seats = Seat.objects.filter(game_id__in=games).values_list("game_id", "number", "user_id")
    out: dict[int, int] = defaultdict(int)
    for game_id, number, user_id in seats:
        if (game_id, number) in count and user_id in by_user:
            out[by_user[user_id]] += count[game_id, number]
    return dict(out)


def _withdraw_timed_out(tournament: Tournament) -> None:
    counts = timeouts(tournament)
    for entry in tournament.entries.select_related("user"):
        n = counts.get(entry.pk, 0)
        if n != entry.timeouts:
            entry.timeouts = n
            entry.save(update_fields=["timeouts"])
        if n >= TIMEOUTS_TO_WITHDRAW and entry.status == Entry.Status.ACTIVE:
            _take_out(tournament, entry, Entry.Status.WITHDRAWN)
            notices.tell(tournament, [entry.user], Notice.Kind.WITHDRAWN)


# The sweep -------------------------------------------------------------------------------------


def due_tournaments(now: datetime) -> list[tuple[str, int]]:
    """What the sweep has to look at: sign-ups to close, and running tournaments with a
    round past its deadline or whose games all ended (a lost hook) or a player timed out."""
    closing = Tournament.objects.filter(
        status=Tournament.Status.SIGNUP, starts_at__lte=now
    ).values_list("pk", flat=True)
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING).filter(
        Q(round_set__status=Round.Status.PLAYING, round_set__deadline__lte=now)
        | Q(
            round_set__status=Round.Status.PLAYING,
            round_set__tables__decided=False,
            round_set__tables__game__status__in=[Game.Status.FINISHED, Game.Status.CANCELLED],
        )
        | Q(
            round_set__status=Round.Status.PLAYING,
            round_set__tables__game__moves__automatic=True,
            round_set__tables__game__moves__created__gte=now - timedelta(minutes=10),
        )
    )
    return [("close", pk) for pk in closing] + [
        ("update", pk) for pk in running.values_list("pk", flat=True).distinct()
    ]


def active_entries(users: Iterable[int]) -> QuerySet[Entry]:
    return Entry.objects.filter(user_id__in=list(users), status=Entry.Status.ACTIVE)
