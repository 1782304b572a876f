"""The games' tables: invitations, and games stored as a snapshot plus an append-only record.

A game row holds the engine's full state as JSON (``snapshot``, secrets included) for fast
reads, and ``Move`` rows hold the record it was built from; ``manage.py verify_games`` replays
the record and compares. Rows change only through ``games.services``.

Every game of every kind is stored the same way: ``kind`` names the game in the registry
(``games.core.registry``), which is asked everything about it; the rows never name a game.
Who must decide is per seat (``Seat.deciding``), with its own clock, deadline and version:
several seats may decide at once.

Secrets: ``Game.seed``, ``Game.snapshot``, ``Move.events`` and ``Move.action`` (in a game of
simultaneous choices it holds a choice not yet revealed) must never reach a page, an API
response, an email or a log line; what a person sees comes from the game's ``view``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.core import GameKind, registry
from games.core.protocol import Options


def _days(n: int) -> str:
    return ngettext("%(n)d day", "%(n)d days", n) % {"n": n}


# Time per move, in days; None is no limit. The labels are in the language of the moment they
# are shown.
MOVE_DAYS = (1, 2, 3, 5, 7, 14)
MOVE_DAYS_CHOICES = [(None, _("No limit"))] + [(d, lazy(_days, str)(d)) for d in MOVE_DAYS]


# A game's id in the registry: the first game the site had, for rows from before there were
# several, and for API clients that do not name one.
DEFAULT_KIND = "guildhall"
MAX_PLAYERS = 8  # the most any game may seat (each game checks its own range)


class Invitation(models.Model):
    """A game looking for players. The creator takes a seat; the game starts when the last
    seat is taken (``services.do_accept_invitation``)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        STARTED = "started", _("Started")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_created"
    )
    kind = models.CharField("game", max_length=32, default=DEFAULT_KIND, db_index=True)
    players = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(1), MaxValueValidator(MAX_PLAYERS)]
    )
    # The game's options as its option descriptions name them, checked by the game.
    options = models.JSONField(default=dict, blank=True)
    move_days = models.PositiveSmallIntegerField(
        "time per move", null=True, blank=True, choices=MOVE_DAYS_CHOICES
    )
    # The strengths of the computer players taking seats, one per seat (they accept at once).
    computers = models.JSONField(default=list, blank=True)
    # Open to anyone, or only to the named users in ``invitees``.
    open_to_all = models.BooleanField(default=True)
    invitees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="invitations_received"
    )
    # Counts for the players' ratings (games.play.ratings). Never with computer seats: the
    # services force it off.
    rated = models.BooleanField(default=True)
    # The game's chat for its players alone (spectators do not read it): copied to the game.
    chat_players_only = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    game = models.OneToOneField(
        "Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="invitation"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["status", "created"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(players__gte=1, players__lte=MAX_PLAYERS),
                name="invitation_players_1_to_8",
            )
        ]

    def __str__(self) -> str:
        return f"Invitation {self.pk} by {self.creator} ({self.players} players, {self.status})"

    @property
    def game_kind(self) -> GameKind:
        return registry.get(self.kind)

    def engine_options(self) -> Options:
        """The game's parsed options for a game of ``players``."""
        return self.game_kind.parse_options(self.options, self.players)


class InvitationResponse(models.Model):
    """A user's answer to an invitation. The creator's own seat is an accepted response."""

    invitation = models.ForeignKey(Invitation, on_delete=models.CASCADE, related_name="responses")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitation_responses"
    )
    accepted = models.BooleanField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["invitation", "user"], name="one_response_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} {'accepted' if self.accepted else 'declined'} {self.invitation_id}"


class Game(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", _("Setting up")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    ACTIVE = (Status.SETUP, Status.PLAYING)

    kind = models.CharField("game", max_length=32, default=DEFAULT_KIND, db_index=True)
    options = models.JSONField()  # the game's options_json()
    names = models.JSONField()  # the players' names in seat order, as the engine knows them
    seed = models.BigIntegerField(editable=False)  # secret: never shown, never logged
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    # The number of records in the game's record (Move rows); a move is posted against it.
    version = models.PositiveIntegerField(default=0)
    move_days = models.PositiveSmallIntegerField(
        "time per move", null=True, blank=True, choices=MOVE_DAYS_CHOICES
    )
    snapshot = models.JSONField(editable=False)  # secret: the full state, hidden parts included
    # The version of its game's rules it began with (GameKind.rules_version then): its
    # record is replayed under it, and it is played to its end under it (a Move may say the
    # rules changed from then on). Games from before versions were kept get the version
    # their snapshot was written under (migration 0013). A default in the database too: the
    # code of the release before creates games without it while the new one is released.
    rules = models.PositiveSmallIntegerField(default=1, db_default=1, editable=False)
    # Secret: the private records since the last public one ({"player", "action", "events",
    # "automatic", "waited"}, in order): parts of pending choices
    # (``GameKind.private_record``), which become Move rows, before the next public record,
    # so that no version or record number counts them meanwhile. The snapshot includes them.
    drafts = models.JSONField(default=list, editable=False)
    # Changes when what every viewer sees changes without a new version (a seat submits or
    # reopens its choice through a private record): part of the board's cache key and poll.
    stamp = models.PositiveIntegerField(default=0)
    # The parts of the game (turns, phases: the log's headings) its records have begun:
    # each new Move's ``turn``. Games from before it count from their next record.
    headings = models.PositiveIntegerField(default=0, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)  # finished or cancelled
    # Counts for the players' ratings once finished (games.play.ratings): copied from the
    # invitation, and turned off when the game ends during its setup. Games from before
    # ratings existed were played unrated (the migration leaves them False).
    rated = models.BooleanField(default=False)
    # Its chat (ChatLine) is for its players alone: spectators do not read it.
    chat_players_only = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["status", "finished"])]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.kind}, {self.status}, version {self.version})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def game_kind(self) -> GameKind:
        return registry.get(self.kind)

    def engine_options(self) -> Options:
        return self.game_kind.load_options(self.options)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    number = models.PositiveSmallIntegerField()  # the engine's seat, 0 plays first
    # Resigned (conceded) and abandoned (timed out too often) seats are played by the computer.
    resigned = models.BooleanField(default=False)
    abandoned = models.BooleanField(default=False)
    cancel_vote = models.BooleanField(default=False)
    # The strength a computer player's account plays this seat at (its user's
    # computer_level, kept here for the sweep and the moves); empty for a person.
    computer_level = models.CharField(max_length=16, blank=True, default="")
    consecutive_timeouts = models.PositiveSmallIntegerField(default=0)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    # The seat's own decision (games.core.waits): whether the game waits for it now...
    deciding = models.BooleanField(default=False)
    # ...since when (the dashboard shows the longest-waiting first; the clock runs from it)...
    deciding_since = models.DateTimeField(null=True, blank=True)
    # ...until when (None: no time limit, or not deciding). Pushed back by the player's
    # vacations (games.reads.clocks.deadline_for).
    deadline = models.DateTimeField(null=True, blank=True)
    # The game's version when this wait began: one number per wait of this seat, which keys
    # its turn emails and reminders.
    wait_version = models.PositiveIntegerField(default=0)
    # The game's version when this seat's decision last changed: a choice the seat made on
    # an older version is stale, whatever the other seats did meanwhile.
    decision_version = models.PositiveIntegerField(default=0)
    # Names this seat's own private records (Game.drafts) as they are now, so that its board
    # follows them; empty when it has none. Shown only to its player.
    draft_stamp = models.CharField(max_length=16, blank=True, default="")
    # Since you last looked (games.reads.since): the game's version, the scores as this
    # seat's player saw them, and when, the last time they opened the board.
    looked_version = models.PositiveIntegerField(default=0)
    looked_scores = models.JSONField(default=dict, blank=True)
    looked_at = models.DateTimeField(null=True, blank=True)
    # A computer stand-in by consent (games.play.stand_ins): the strength the computer plays
    # this person's seat at until they take it back (or until ``stand_in_until``); "" for none.
    stand_in = models.CharField(max_length=16, blank=True, default="")
    stand_in_until = models.DateTimeField(null=True, blank=True)
    # The computer stood in for this seat's player in a rated game: their rating does not
    # move with its result (games.play.ratings).
    unrated = models.BooleanField(default=False)
    # Filled when the game finishes, from the game's result, for profiles and dashboards.
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_user_per_seat"),
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
        ]
        indexes = [
            # For the sweep of seats that ran out of time.
            models.Index(
                fields=["deadline"], name="seat_deadline", condition=Q(deadline__isnull=False)
            ),
        ]
        ordering = ["game", "number"]

    def __str__(self) -> str:
        return f"Seat {self.number} of game {self.game_id}: {self.user}"

    @property
    def computer_plays(self) -> bool:
        """A person's seat the computer took over: resigned or abandoned."""
        return self.resigned or self.abandoned

    def stood_in(self, now: datetime) -> bool:
        """The computer plays this person's seat for them now, by their consent."""
        return bool(self.stand_in) and (self.stand_in_until is None or self.stand_in_until > now)

    @property
    def is_person(self) -> bool:
        """A person plays it: not a computer player's seat, nor taken over by the computer.
        Only people vote to cancel and get emails."""
        return not (self.computer_level or self.computer_plays)


class Move(models.Model):
    """One record of a game's record: append-only, never changed once written."""

    # The fields ``record`` reads (``.only(*Move.RECORD)``: no query per row).
    RECORD = ("seat", "action", "rules", "joined")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()  # the game's version after this record, from 1
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()  # secret until the game reveals it (simultaneous choices)
    events = models.JSONField(editable=False)  # secret: drawn cards; words via games.reads.movelog
    # Played by the computer for a resigned or abandoned seat.
    automatic = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    # The part of the game it was made in (``Game.headings`` before it): a turn, a phase.
    turn = models.PositiveIntegerField(null=True, editable=False)
    # How long the game had waited for its seat when the player made it (a private record
    # becomes a Move later: ``created`` is then the time it became public). None for the
    # computer's records, undos, concessions and actions out of a wait. The profile's "time
    # to move" reads the first of each seat's in each turn (games.reads.stats).
    waited = models.DurationField(null=True, editable=False)
    # The version of the game's rules from this record on, where it changed during the game
    # (None: as before). Only ``manage.py upgrade_games`` sets it, for a game begun under
    # old rules and played on by the code of new ones before versions were kept.
    rules = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    # Made in one choice with its seat's record before it (a board's one tap of several
    # steps: Guildhall's "this card on top"): an undo takes the choice back whole.
    joined = models.BooleanField(default=False, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_move_per_number")
        ]
        ordering = ["game", "number"]

    def __str__(self) -> str:
        return f"Move {self.number} of game {self.game_id}: seat {self.seat} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("moves are append-only: a saved move cannot change")
        super().save(*args, **kwargs)

    def record(self) -> dict[str, Any]:
        """The entry of the engine's record (``Match.record``). (Read with ``RECORD``.)"""
        entry: dict[str, Any] = {"player": self.seat, "action": self.action}
        if self.rules is not None:
            entry["rules"] = self.rules
        if self.joined:
            entry["joined"] = True
        return entry


class Rating(models.Model):
    """A player's rating at one game (``kind``): openskill's mu and sigma after ``games``
    rated games, and the number shown (``rating``, kept for ordering the leaderboard).
    Written only by ``games.play.ratings``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    kind = models.CharField("game", max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    rating = models.IntegerField()  # games.play.ratings.shown(mu, sigma)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_rating_per_game")]
        indexes = [models.Index(fields=["kind", "-rating"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user} at {self.kind}: {self.rating} ({self.games} games)"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: their history, and what
    ``manage.py recompute_ratings`` rebuilds. Written only by ``games.play.ratings``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    kind = models.CharField("game", max_length=32)
    rank = models.PositiveSmallIntegerField()  # the player's place in that game
    # The game's finishing time: ratings are applied in this order (then the game's id).
    finished = models.DateTimeField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rating_before = models.IntegerField()
    rating_after = models.IntegerField()
    # Not a column: the game's name, set by games.play.ratings.history for the profile page.
    game_name: str

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_rating_change_per_seat")
        ]
        indexes = [models.Index(fields=["user", "-finished"], name="rating_history")]

    def __str__(self) -> str:
        return f"{self.user} in game {self.game_id}: {self.rating_before} -> {self.rating_after}"


class Vacation(models.Model):
    """A time when a player's clocks stand still (games.reads.clocks): up to 21 days a
    calendar year.

    ``end`` is the planned end, moved to the moment the player stopped it if they came back
    early. Periods of one user never overlap.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    start = models.DateTimeField()
    end = models.DateTimeField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "end"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(end__gt=F("start")), name="vacation_ends_after_start"
            )
        ]
        ordering = ["user", "start"]

    def __str__(self) -> str:
        return f"Vacation of {self.user} from {self.start:%Y-%m-%d} to {self.end:%Y-%m-%d}"


class Note(models.Model):
    """A player's private note on one of their games (games.play.notes): shown to its author
    alone, on the board while the game goes on and in its replay after the end; nobody
    else ever reads it, on a page, in the API or in an email."""

    MAX_LENGTH = 5000

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notes"
    )
    text = models.TextField(max_length=MAX_LENGTH)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_note_per_player")]

    def __str__(self) -> str:
        return f"Note of {self.user} on game {self.game_id}"  # never its text


class ChatLine(models.Model):
    """A line of a game's chat (games.community.chat), written by one of its players: plain text,
    shown to the table (and to spectators unless the game's chat is for players only), in
    the board, the game's history, its replay at the version it was written, and the API.
    Only people write it: the site never says anything in a game's chat on its own."""

    MAX_LENGTH = 500

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_lines")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_lines"
    )
    text = models.TextField(max_length=MAX_LENGTH)
    created = models.DateTimeField(auto_now_add=True)
    # The game's version when it was written: the replay shows it from that position on.
    version = models.PositiveIntegerField()
    # Hidden for everyone by a moderator (games.community.moderation); its author is told.
    hidden = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["game", "id"])]

    def __str__(self) -> str:
        return f"Chat line {self.pk} by {self.author} in game {self.game_id}"  # never its text


class Analysis(models.Model):
    """The explanation of a finished game (games.play.analysis, docs/replays.md): each
    seat's decisions judged by the strong computer player from what that seat knew, asked
    for by one of its players, computed once on the computer players' lane and kept. Shown
    to the game's players alone, like every hand of its replay."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for the computer")
        RUNNING = "running", _("Being analysed")
        READY = "ready", _("Ready")

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    # The budget it was computed with: iterations of search a decision at most, seconds.
    iterations = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0)
    # games.core.analysis.Analysis.to_json(): each judged decision's record number, seat,
    # the action played and the strong player's (secrets of that seat's hand: shown to the
    # game's players only), and the seat's chance before and after; empty until ready.
    result = models.JSONField(default=dict, editable=False)

    def __str__(self) -> str:
        return f"Analysis of game {self.game_id} ({self.status})"
