"""Ratings: one per player and game, from the finishing order of every rated game.

The model is openskill's Plackett-Luce (Weng-Lin), with its defaults: every player starts at
mu 25, sigma 25/3, and each rated game, whatever its number of players, moves every player's
mu and sigma by the ranks of the game's result (equal ranks are a tie). The number shown is
the conservative estimate mu - 3 sigma, scaled to the familiar range of Elo: a new player
shows ``shown(25, 25/3) == 1000``, and it grows as the player wins and as sigma shrinks.
A rating is provisional for its first ``PROVISIONAL_GAMES`` games.

A game counts when it is rated (``Game.rated``: the invitation said so, it had no computer
seat from the start, and it did not end during its setup), finished (a game cancelled by vote
has no result), has two seats or more, and every seat has a rank. A resigned or abandoned
seat ranks as the game's result says (last). A seat the computer stood in for by its
player's consent (``Seat.unrated``, ``games.play.stand_ins``) counts for the others' ratings
as it ranked, but its own player's rating does not move.

Ratings are applied once per game, in the transaction that finishes it
(``rate_finished_game``, called by ``services._Change.save``), so in the order games finish:
``Game.finished``, then the game's id. ``recompute`` applies the same function to every game
in that order, from scratch, and must find the same numbers (``manage.py recompute_ratings``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Case, IntegerField, QuerySet, Value, When
from django.utils import timezone
from openskill.models import PlackettLuce

from accounts.models import User
from games.core import registry
from games.models import Game, Rating, RatingChange, Seat

# openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): no tuning to explain.
MODEL = PlackettLuce()

# The number shown: (mu - 3 sigma) * SCALE + OFFSET, rounded. A new player shows 1000; the
# few best of a busy site reach about 2000.
SCALE = 40
OFFSET = 1000

# A rating says little before this many rated games: marked provisional, and listed after
# the others on the leaderboard.
PROVISIONAL_GAMES = 10

# Two computations of the same rating agree to this (they should agree exactly).
TOLERANCE = 1e-9


def shown(mu: float, sigma: float) -> int:
    """The one number a rating is shown as."""
    return round((mu - 3 * sigma) * SCALE + OFFSET)


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


@dataclass
class Skill:
    """A player's rating at one game, as the computation carries it."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def rating(self) -> int:
        return shown(self.mu, self.sigma)


def counts(game: Game, seats: Sequence[Seat]) -> bool:
    """Whether the finished ``game`` with these ``seats`` changes ratings."""
    return (
        game.rated
        and game.status == Game.Status.FINISHED
        and len(seats) >= 2
        and all(s.rank is not None for s in seats)
        # Computer seats are refused when a rated game is created; this keeps it so.
        and not any(s.computer_level for s in seats)
    )


def update(before: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Every seat's rating after a game where they finished at ``ranks`` (1 is first; equal
    ranks tie), in the same order."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [
        Skill(team[0].mu, team[0].sigma, s.games + 1) for team, s in zip(after, before, strict=True)
    ]


def _changes(game: Game, seats: Sequence[Seat], skills: dict[int, Skill]) -> list[RatingChange]:
    """Apply ``game`` to ``skills`` (by user id, changed in place) and return its changes."""
    # A game that counts (``counts``): finished, every seat with its rank.
    assert game.finished is not None
    ranks: list[int] = []
    for s in seats:
        assert s.rank is not None
        ranks.append(s.rank)
    before = [skills.get(s.user_id) or Skill() for s in seats]
    after = update(before, ranks)
    changes = []
    for seat, rank, old, new in zip(seats, ranks, before, after, strict=True):
        if seat.unrated:
            continue  # the computer stood in for this player: their rating stays
        skills[seat.user_id] = new
        changes.append(
            RatingChange(
                user_id=seat.user_id,
                game=game,
                kind=game.kind,
                rank=rank,
                finished=game.finished,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                rating_before=old.rating,
                rating_after=new.rating,
            )
        )
    return changes


def rate_finished_game(game: Game) -> list[RatingChange]:
    """Update the ratings of the players of ``game``, which has just finished, once its
    seats' ranks are saved. Runs inside the transaction that finishes it; does nothing for a
    game that does not count. Returns the changes stored."""
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    if not counts(game, seats):
        return []
    user_ids = sorted(s.user_id for s in seats)
    # Games sharing a player are rated one after the other (the lock on their users), and
    # each takes its finishing time once it holds the lock: so the order they were rated in
    # is the order of Game.finished, which recompute follows.
    list(User.objects.select_for_update().filter(pk__in=user_ids).order_by("pk").values("pk"))
    game.finished = timezone.now()
    Game.objects.filter(pk=game.pk).update(finished=game.finished)
    rows = {r.user_id: r for r in Rating.objects.filter(kind=game.kind, user_id__in=user_ids)}
    skills = {uid: Skill(r.mu, r.sigma, r.games) for uid, r in rows.items()}
    changes = _changes(game, seats, skills)
    for uid in user_ids:
        if uid not in skills:
            continue  # an unrated seat's player who had no rating yet
        skill = skills[uid]
        row = rows.get(uid) or Rating(user_id=uid, kind=game.kind)
        row.mu, row.sigma, row.games, row.rating = skill.mu, skill.sigma, skill.games, skill.rating
        row.save()
    RatingChange.objects.bulk_create(changes)
    return changes


# Recomputing --------------------------------------------------------------------------------


def rated_games() -> QuerySet[Game]:
    """The games that may count, in the order they are applied."""
    return (
        Game.objects.filter(rated=True, status=Game.Status.FINISHED)
        .only("id", "kind", "rated", "status", "finished")
        .order_by("finished", "id")
    )


def recompute() -> tuple[dict[tuple[int, str], Skill], list[RatingChange]]:
    """Every rating, from scratch, from the finished rated games in finishing order: the
    ratings by (user id, game) and every change (unsaved)."""
    skills: dict[str, dict[int, Skill]] = {}
    changes: list[RatingChange] = []
    games = list(rated_games().prefetch_related("seats"))
    for game in games:
        seats = sorted(game.seats.all(), key=lambda s: s.number)
        if counts(game, seats):
            changes += _changes(game, seats, skills.setdefault(game.kind, {}))
    ratings = {(uid, kind): s for kind, by_user in skills.items() for uid, s in by_user.items()}
    return ratings, changes


def differences(computed: dict[tuple[int, str], Skill]) -> list[tuple[int, str]]:
    """The (user id, game) whose stored rating is not ``computed``'s (or is missing, or
    should not be there), sorted."""
    stored = {(r.user_id, r.kind): r for r in Rating.objects.all()}
    out = []
    for key in computed.keys() | stored.keys():
        want, have = computed.get(key), stored.get(key)
        if want is None or have is None or not _same(want, have):
            out.append(key)
    return sorted(out, key=lambda k: (k[1], k[0]))


def _same(want: Skill, have: Rating) -> bool:
    return (
        abs(want.mu - have.mu) <= TOLERANCE
        and abs(want.sigma - have.sigma) <= TOLERANCE
        and want.games == have.games
        and want.rating == have.rating
    )


def store(computed: dict[tuple[int, str], Skill], changes: Iterable[RatingChange]) -> None:
    """Replace every rating and change by these."""
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        Rating.objects.bulk_create(
            Rating(user_id=uid, kind=kind, mu=s.mu, sigma=s.sigma, games=s.games, rating=s.rating)
            for (uid, kind), s in computed.items()
        )
        RatingChange.objects.bulk_create(changes, batch_size=1000)


# Reading --------------------------------------------------------------------------------------


def leaderboard(kind: str) -> QuerySet[Rating]:
    """The ratings at game ``kind``: established ones first, best first, then provisional."""
    return (
        # (A deleted account's ratings stay, for the others' were computed with them.)
        Rating.objects.filter(kind=kind, user__deleted_at__isnull=True)
        .select_related("user")
        .alias(
            provisional=Case(
                When(games__lt=PROVISIONAL_GAMES, then=Value(1)),
                default=Value(0),
                output_field=IntegerField(),
            )
        )
        .order_by("provisional", "-rating", "-mu", "user__username")
    )


def history(user: User, limit: int = 20) -> list[RatingChange]:
    """``user``'s latest rating changes, the latest first; each with ``game_name``."""
    changes = list(RatingChange.objects.filter(user=user).order_by("-finished", "-game_id")[:limit])
    names = {g.id: g.name for g in registry.all_games()}
    for change in changes:
        change.game_name = names.get(change.kind, change.kind)
    return changes


@dataclass(frozen=True)
class PlayerRating:
    """One of a player's ratings, as their profile shows it."""

    kind: str
    game_name: str
    rating: int
    games: int
    provisional: bool


def player_ratings(user: User) -> list[PlayerRating]:
    """``user``'s rating at each game they have one, in the registry's order of games."""
    rows = {r.kind: r for r in Rating.objects.filter(user=user)}
    return [
        PlayerRating(g.id, g.name, r.rating, r.games, is_provisional(r.games))
        for g in registry.all_games()
        if (r := rows.get(g.id)) is not None
    ]
