"""The games' tables: invitations, and games stored as a snapshot plus an append-only record.

A game row holds the engine's full state as JSON (``snapshot``, secrets included) for fast
reads, and ``Move`` rows hold the record it was built from; ``manage.py verify_games`` replays
the record and compares. Rows change only through ``games.services``.

Secrets: ``Game.seed``, ``Game.snapshot`` and ``Move.events`` must never reach a page, an API
response, an email or a log line; what a person sees comes from ``games.guildhall.views.view``.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q

from games.guildhall import Options

# Time per move, in days; None is no limit.
MOVE_DAYS_CHOICES = [(None, "No limit")] + [
    (d, f"{d} day" if d == 1 else f"{d} days") for d in (1, 2, 3, 5, 7, 14)
]


class RuleSet(models.TextChoices):
    YUCATA = "yucata", "Yucata"
    CLASSIC = "classic", "Classic"


class Invitation(models.Model):
    """A game looking for players. The creator takes a seat; the game starts when the last
    seat is taken (``services.do_accept_invitation``)."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        STARTED = "started", "Started"
        WITHDRAWN = "withdrawn", "Withdrawn"

    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_created"
    )
    players = models.PositiveSmallIntegerField(
        default=2, validators=[MinValueValidator(2), MaxValueValidator(4)]
    )
    rules = models.CharField(max_length=8, choices=RuleSet.choices, default=RuleSet.YUCATA)
    advanced = models.BooleanField(default=False)
    fantasy_names = models.BooleanField(default=False)
    move_days = models.PositiveSmallIntegerField(
        "time per move", null=True, blank=True, choices=MOVE_DAYS_CHOICES
    )
    # Open to anyone, or only to the named users in ``invitees``.
    open_to_all = models.BooleanField(default=True)
    invitees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="invitations_received"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    game = models.OneToOneField(
        "Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="invitation"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["status", "created"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(players__gte=2, players__lte=4), name="invitation_players_2_to_4"
            )
        ]

    def __str__(self) -> str:
        return f"Invitation {self.pk} by {self.creator} ({self.players} players, {self.status})"

    def options(self) -> Options:
        return Options(
            players=self.players,
            rules=self.rules,
            advanced=self.advanced,
            names="fantasy" if self.fantasy_names else "classic",
        )


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
        SETUP = "setup", "Setting up"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    ACTIVE = (Status.SETUP, Status.PLAYING)

    options = models.JSONField()  # Options.to_json()
    names = models.JSONField()  # the players' names in seat order, as the engine knows them
    seed = models.BigIntegerField(editable=False)  # secret: never shown, never logged
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    # The number of records in the game's record (Move rows); a move is posted against it.
    version = models.PositiveIntegerField(default=0)
    # The seat that decides now (engine.decision_player); None once the game is over.
    to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    # Since when ``to_move`` has been waiting: the dashboard shows the longest-waiting first.
    to_move_since = models.DateTimeField(null=True, blank=True)
    # When ``to_move`` runs out of time (None: no time limit, or the game is over). Pushed back
    # by the player's vacations (games.clocks.deadline_for).
    deadline = models.DateTimeField(null=True, blank=True)
    # The version at which the turn came to ``to_move`` (set with ``to_move_since``): one
    # number per wait of one player, which keys the turn emails and reminders of that wait.
    turn_version = models.PositiveIntegerField(default=0)
    move_days = models.PositiveSmallIntegerField(
        "time per move", null=True, blank=True, choices=MOVE_DAYS_CHOICES
    )
    snapshot = models.JSONField(editable=False)  # secret: the full state, hidden parts included
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)  # finished or cancelled

    class Meta:
        indexes = [
            # For the sweeps of games whose player ran out of time.
            models.Index(fields=["status", "deadline"]),
            models.Index(fields=["status", "finished"]),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.status}, version {self.version})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE

    def engine_options(self) -> Options:
        return Options.from_json(self.options)


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
    consecutive_timeouts = models.PositiveSmallIntegerField(default=0)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    # Filled when the game finishes, from the engine's result, for profiles and dashboards.
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    vp = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_user_per_seat"),
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
        ]
        ordering = ["game", "number"]

    def __str__(self) -> str:
        return f"Seat {self.number} of game {self.game_id}: {self.user}"

    @property
    def computer_plays(self) -> bool:
        return self.resigned or self.abandoned


class Move(models.Model):
    """One record of a game's record: append-only, never changed once written."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()  # the game's version after this record, from 1
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    events = models.JSONField(editable=False)  # secret: drawn cards; render with guildhall.log
    # Played by the computer for a resigned or abandoned seat.
    automatic = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_move_per_number")
        ]
        ordering = ["game", "number"]

    def __str__(self) -> str:
        return f"Move {self.number} of game {self.game_id}: seat {self.seat} {self.action}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ValueError("moves are append-only: a saved move cannot change")
        super().save(*args, **kwargs)

    def record(self) -> dict:
        """The entry of the engine's record (``Match.moves``)."""
        return {"player": self.seat, "action": self.action}


class Vacation(models.Model):
    """A time when a player's clocks stand still (games.clocks): up to 21 days a calendar year.

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
