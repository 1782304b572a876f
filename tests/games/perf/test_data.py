"""The benchmarks' data (games/perf/data.py): the same seed builds the same games."""

from __future__ import annotations

import pytest

from games.perf import data as bench_data
from games.play import invitations


@pytest.mark.django_db
def test_the_same_seed_deals_the_same_games_and_the_services_draw_again_after():
    users = bench_data.make_users(3, "seeded")
    games = []
    for _ in range(2):
        with bench_data.seeded_games(7):
            games.append(bench_data.start_game("guildhall", users[0], users[1:]))
    first, again = games
    assert (first.seed, first.names) == (again.seed, again.names)
    with bench_data.seeded_games(8):
        other = bench_data.start_game("guildhall", users[0], users[1:])
    assert other.seed != first.seed
    # Outside, the operating system's randomness again.
    assert type(invitations.seat_random).__name__ == "SystemRandom"
    assert type(invitations.seed_random).__name__ == "SystemRandom"
