"""The arena's record (games.core.arena.run with ``record``): each game written as it ends,
a run taken up again plays only the games it lacks, ranges add up to the whole run, and a
record of another setup is refused."""

from __future__ import annotations

import json

import pytest

from games.core import arena
from games.renaissance.__main__ import main
from games.renaissance.arena import make_setup, play_game


def quick(games: int, **fields):
    return make_setup("easy", "normal", games=games, max_rounds=4, **fields)


def indices(record) -> list[int]:
    return [json.loads(line)["index"] for line in record.read_text().splitlines()]


FIGURES = ("games", "a_wins", "b_wins", "ties", "capped", "rounds_per_game", "actions_per_game")


class TestRecord:
    def test_a_run_taken_up_again_plays_only_the_games_it_lacks(self, tmp_path):
        record = tmp_path / "run.jsonl"
        arena.run(play_game, quick(3), record=str(record), length="rounds")
        assert indices(record) == [0, 1, 2]

        whole = arena.run(play_game, quick(5), record=str(record), length="rounds")

        assert indices(record) == [0, 1, 2, 3, 4]  # 0 to 2 read back, not played again
        fresh = arena.run(play_game, quick(5), length="rounds")
        assert {k: whole[k] for k in FIGURES} == {k: fresh[k] for k in FIGURES}

    def test_ranges_add_up_to_the_whole_run(self, tmp_path):
        record = str(tmp_path / "run.jsonl")
        arena.run(play_game, quick(2), first=2, record=record, length="rounds", jobs=2)
        arena.run(play_game, quick(2), record=record, length="rounds")

        whole = arena.run(play_game, quick(4), record=record, length="rounds")
        fresh = arena.run(play_game, quick(4), length="rounds")

        assert {k: whole[k] for k in FIGURES} == {k: fresh[k] for k in FIGURES}
        assert sorted(indices(tmp_path / "run.jsonl")) == [0, 1, 2, 3]

    def test_a_record_of_another_setup_is_refused(self, tmp_path):
        record = tmp_path / "run.jsonl"
        arena.run(play_game, quick(1), record=str(record), length="rounds")
        before = record.read_text()

        with pytest.raises(ValueError, match="another setup"):
            arena.run(play_game, quick(1, seed=2), record=str(record), length="rounds")
        record.write_text(before + "not json\n")
        with pytest.raises(ValueError, match="line 2: not a game"):
            arena.run(play_game, quick(1), record=str(record), length="rounds")

    def test_the_command(self, tmp_path, capsys):
        record = str(tmp_path / "run.jsonl")
        args = ["arena", "--a", "easy", "--games", "2", "--max-rounds", "3", "--record", record]
        main([*args, "--first", "1"])
        assert json.loads(capsys.readouterr().out)["games"] == 2
        assert indices(tmp_path / "run.jsonl") == [1, 2]

        with pytest.raises(SystemExit, match="another setup"):
            main([*args, "--seed", "9"])
        with pytest.raises(SystemExit, match="--first must be 0 or more"):
            main([*args, "--first", "-1"])
