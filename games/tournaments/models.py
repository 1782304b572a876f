"""The tournaments' tables: a tournament (or a league), its entries, its rounds and the
tables of each round (each with its game, or a bye).

Rows change only through ``games.tournaments.services``, under the tournament's row lock.
A round is unique by (tournament, season, division, number): pairing the same round twice
fails at the database even if two workers got past the lock's checks. A table's game is
unique: a game belongs to one table. Places at a table are stored by entry id once the
table is decided (its game over, adjudicated at the round's deadline, or forfeited).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.core import GameKind, registry
from games.models import MOVE_DAYS_CHOICES


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round robin")
        DOUBLE_ROUND_ROBIN = "double_robin", _("Double round robin")
        KNOCKOUT = "knockout", _("Knockout")
        DOUBLE_ELIMINATION = "double_elim", _("Double elimination")
        LEAGUE = "league", _("League")

    class Access(models.TextChoices):
        ANYONE = "anyone", _("Anyone")
        FRIENDS = "friends", _("Friends of the organiser")
        CODE = "code", _("Anyone with the invitation code")

    class Status(models.TextChoices):
        SIGNUP = "signup", _("Sign-up open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(max_length=80)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournaments_created"
    )
    kind = models.CharField("game", max_length=32)
    options = models.JSONField(default=dict, blank=True)  # every option, defaults filled in
    format = models.CharField(max_length=12, choices=Format.choices)
    table_size = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(2), MaxValueValidator(4)]
    )
    # Knockout: how many go on from each table.
    advance = models.PositiveSmallIntegerField(default=1)
    # Swiss: the number of rounds, chosen; round robin and knockout: set at the start.
    rounds = models.PositiveSmallIntegerField(default=0)
    move_days = models.PositiveSmallIntegerField(
        "time per move", null=True, blank=True, choices=MOVE_DAYS_CHOICES
    )
    # Each round's deadline, in days from its start: unfinished games are adjudicated then.
    round_days = models.PositiveSmallIntegerField(
        default=14, validators=[MinValueValidator(1), MaxValueValidator(90)]
    )
    rated = models.BooleanField(default=True)
    starts_at = models.DateTimeField()  # the first round starts (sign-up closes, at the latest)
    # Sign-up closes earlier than the start, when set.
    signup_until = models.DateTimeField(null=True, blank=True)
    # Seeds set by the organiser before the start: entry ids, best first (the others after
    # them, by rating).
    hand_seeds = models.JSONField(default=list, blank=True)
    min_players = models.PositiveSmallIntegerField(default=4)
    max_players = models.PositiveSmallIntegerField(default=32)
    access = models.CharField(max_length=8, choices=Access.choices, default=Access.ANYONE)
    code = models.CharField(max_length=32, blank=True)  # secret: shown to the organiser only
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SIGNUP)
    # Leagues: the season under way (1, 2...) and its divisions, top first (entry ids).
    season = models.PositiveIntegerField(default=0)
    divisions = models.JSONField(default=list, blank=True)
    # Round robin: every round's tables of entry ids, fixed at the start.
    schedule = models.JSONField(default=list, blank=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments_won",
    )
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "starts_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(table_size__gte=2, table_size__lte=4), name="tournament_tables_2_to_4"
            ),
            models.CheckConstraint(
                condition=Q(min_players__lte=models.F("max_players")),
                name="tournament_min_below_max",
            ),
        ]

    def __str__(self) -> str:
        return f"Tournament {self.pk} {self.name!r} ({self.format}, {self.status})"

    @property
    def game_kind(self) -> GameKind:
        return registry.get(self.kind)

    @property
    def is_league(self) -> bool:
        return self.format == self.Format.LEAGUE


class Entry(models.Model):
    """A player in a tournament, from sign-up on."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Playing")
        LEFT = "left", _("Left")
        WITHDRAWN = "withdrawn", _("Withdrawn")  # timed out twice: never paired again
        OUT = "out", _("Knocked out")
        REMOVED = "removed", _("Removed by the organiser")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    # 1 is the best: by rating at the game when the tournament started (then sign-up order).
    seed = models.PositiveIntegerField(default=0)
    rating = models.IntegerField(null=True, blank=True)  # the rating the seed came from
    timeouts = models.PositiveSmallIntegerField(default=0)
    joined = models.DateTimeField(auto_now_add=True)
    # Leagues: the season the player joins in (they wait for the next season to start).
    since_season = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")
        ]
        ordering = ["tournament", "seed", "joined", "pk"]

    def __str__(self) -> str:
        return f"{self.user} in tournament {self.tournament_id} ({self.status})"


class Round(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        DONE = "done", _("Done")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    # Leagues: the season and the division (1 is the top); 0 and 0 for the other formats.
    season = models.PositiveIntegerField(default=0)
    division = models.PositiveSmallIntegerField(default=0)
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    started = models.DateTimeField()
    deadline = models.DateTimeField()
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # Each round is paired exactly once, whatever two workers may try.
            models.UniqueConstraint(
                fields=["tournament", "season", "division", "number"], name="one_round_per_number"
            )
        ]
        indexes = [models.Index(fields=["status", "deadline"])]
        ordering = ["tournament", "season", "division", "number"]

    def __str__(self) -> str:
        return f"Round {self.number} of tournament {self.tournament_id} ({self.status})"


class Table(models.Model):
    """One table of a round: its players (entry ids), its game (none for a bye or a
    forfeit), and once decided each player's place."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    entries = models.JSONField()  # entry ids, best-placed first at pairing
    game = models.OneToOneField(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_table",
    )
    bye = models.BooleanField(default=False)
    # {entry id (as a string, JSON's keys): place}, once decided.
    places = models.JSONField(default=dict, blank=True)
    decided = models.BooleanField(default=False)
    # How: "game" (it ended), "deadline" (adjudicated), "forfeit" (no game could be played),
    # "organiser" (entered or corrected by them).
    decided_by = models.CharField(max_length=10, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")
        ]
        ordering = ["round", "number"]

    def __str__(self) -> str:
        return f"Table {self.number} of round {self.round_id}"


class Notice(models.Model):
    """A tournament notice to one player, by email or to one device: recorded once (unique),
    claimed, sent, marked (``games.tournaments.notices``)."""

    class Kind(models.TextChoices):
        ROUND = "round", _("Round paired")
        ADVANCED = "advanced", _("Advanced")
        OUT = "out", _("Knocked out")
        ENDED = "ended", _("Tournament ended")
        CANCELLED = "cancelled", _("Tournament cancelled")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        REMOVED = "removed", _("Removed by the organiser")
        MESSAGE = "message", _("Message from the organiser")

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        SKIPPED = "skipped", "Skipped"
        FAILED = "failed", "Failed"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="notices")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_notices"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # Which round (its id) a round notice is about, the log's row of a message; 0 otherwise.
    about = models.PositiveIntegerField(default=0)
    # A push to this device; null for an email (and for a push whose device has gone since).
    subscription = models.ForeignKey(
        "notifications.PushSubscription",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    push = models.BooleanField(default=False)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    lease_until = models.DateTimeField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "kind", "about"],
                condition=Q(push=False),
                name="one_tournament_email",
            ),
            models.UniqueConstraint(
                fields=["tournament", "subscription", "kind", "about"],
                condition=Q(push=True, subscription__isnull=False),
                name="one_tournament_push",
            ),
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"{self.kind} notice of tournament {self.tournament_id} to {self.user_id}"


class Action(models.Model):
    """What the organiser did, with their reason: the event's page lists them (a result
    entered or corrected, a round extended, a player removed, a message, an edit, the
    tournament cancelled)."""

    class Kind(models.TextChoices):
        CANCEL = "cancel", _("Cancelled")
        EDIT = "edit", _("Edited")
        REMOVE = "remove", _("Player removed")
        RESULT = "result", _("Result entered")
        EXTEND = "extend", _("Round extended")
        MESSAGE = "message", _("Message")
        SEED = "seed", _("Seeds set")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="actions")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    # The reason, or a message's text.
    text = models.TextField(max_length=2000)
    # What changed, in words for people ("Round 2, table 1: alice 1, bob 2 (was 2, 1)").
    what = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "-created", "-pk"]
        indexes = [models.Index(fields=["tournament", "kind", "created"])]

    def __str__(self) -> str:
        return f"{self.kind} in tournament {self.tournament_id}"
