from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    # Tournaments and leagues (docs/tournaments.md): an app of its own above games.play.
    name = "games.tournaments"
    label = "tournaments"

    def ready(self) -> None:
        # As maintenance ends, the rounds still playing are given back the time it took.
        from games.tournaments import maintenance  # noqa: F401
