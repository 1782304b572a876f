from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    # Tournaments and leagues (docs/tournaments.md): an app of its own above games.play.
    name = "games.tournaments"
    label = "tournaments"
