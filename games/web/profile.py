"""A player's public page: their finished games, record, statistics and ratings."""

from __future__ import annotations

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import pgettext_lazy

from accounts.models import User
from games.community.blocks import reads as blocks
from games.community.friends import reads as friends
from games.play import ratings as game_ratings
from games.reads import queries as game_queries
from games.reads import stats as game_stats

PROFILE_FINISHED_GAMES = 50
PROFILE_RATING_CHANGES = 20
# A computer player's strength (User.computer_level), as its profile names it.
COMPUTER_LEVELS = {
    "easy": pgettext_lazy("strength of a computer player", "easy"),
    "normal": pgettext_lazy("strength of a computer player", "normal"),
    "strong": pgettext_lazy("strength of a computer player", "strong"),
}


def profile(request: HttpRequest, username: str) -> HttpResponse:
    # Computer players' accounts are inactive (they never log in) but have profiles.
    people_and_computers = User.objects.filter(Q(is_active=True) | ~Q(computer_level=""))
    profile_user = get_object_or_404(people_and_computers, username=username)
    context = {
        "profile_user": profile_user,
        "computer_level": COMPUTER_LEVELS.get(
            profile_user.computer_level, profile_user.computer_level
        ),
        # The finished games of this user with their results, newest first (games.reads.queries).
        "finished_games": game_queries.finished_games(profile_user, PROFILE_FINISHED_GAMES),
        "record": game_queries.record(profile_user),
        # Played and won per game and per number of players, places, time to move.
        "statistics": game_stats.player_stats(profile_user),
        # The rating at each game, and the latest rating changes (games.play.ratings).
        "ratings": game_ratings.player_ratings(profile_user),
        "rating_history": game_ratings.history(profile_user, PROFILE_RATING_CHANGES),
        # A person may add another to their friends (games.community.friends); their own page
        # lists theirs.
        "can_befriend": (
            request.user.is_authenticated
            and request.user.pk != profile_user.pk
            and not profile_user.is_computer
        ),
        "is_friend": friends.is_friend(request.user, profile_user),
        "my_friends": (
            friends.friends(profile_user) if request.user.pk == profile_user.pk else None
        ),
        # Whom the viewer blocked (games.community.blocks): never shown to the blocked player.
        "is_blocked": blocks.is_blocked(request.user, profile_user),
        "my_blocked": (
            blocks.blocked_users(profile_user) if request.user.pk == profile_user.pk else None
        ),
    }
    return render(request, "games/profile.html", context)
