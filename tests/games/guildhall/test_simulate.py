"""The simulate and bench commands run and report what the issue asks for."""

import json

from games.guildhall.__main__ import main
from games.guildhall.simulate import run


def test_simulate_plays_whole_games_and_reports(capsys):
    code = main(
        [
            "simulate",
            "--players",
            "3",
            "--games",
            "3",
            "--rules",
            "classic",
            "--seed",
            "1",
            "--check-every",
            "7",
        ]
    )
    out = capsys.readouterr().out
    summary = json.loads(out[: out.rindex("}") + 1])
    assert code == 0
    assert summary["games"] == 3 and summary["violations"] == 0
    assert summary["ended"]["won"] + summary["ended"]["turn_limit"] == 3
    assert summary["decisions_per_s"] > 0 and summary["turns_per_game"]["mean"] > 0


def test_simulate_is_deterministic():
    a = run(2, 2, "yucata", 5, out=lambda *_: None)
    b = run(2, 2, "yucata", 5, out=lambda *_: None)
    assert a["turns_per_game"] == b["turns_per_game"]
    assert a["decisions_per_game"] == b["decisions_per_game"]


def test_bench_prints_the_figures(capsys):
    main(["bench", "--seconds", "0.2"])
    figures = json.loads(capsys.readouterr().out)
    for players in ("2p", "4p"):
        assert {"decisions_per_s", "games_per_s", "state_json_bytes", "clone_us"} <= set(
            figures[players]
        )
