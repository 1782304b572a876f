"""A game's stored state formats (games.core.formats): the chain of upgraders, run in one
place, and the projections back that verify_games compares with."""

import pytest

from games.core.formats import Formats, FormatStep


def _up(n: int):
    return lambda data: {**data, "format": n + 1, f"added_in_{n + 1}": True}


def _down(n: int):
    return lambda data: {k: v for k, v in {**data, "format": n}.items() if k != f"added_in_{n + 1}"}


FORMATS = Formats(current=3, steps={n: FormatStep(_up(n), _down(n)) for n in (1, 2)})


def test_an_old_state_is_upgraded_one_step_after_another():
    assert FORMATS.upgrade({"format": 1, "x": 0}) == {
        "format": 3,
        "x": 0,
        "added_in_2": True,
        "added_in_3": True,
    }
    assert FORMATS.upgrade({"format": 3}) == {"format": 3}


def test_a_state_is_projected_back_to_an_older_format():
    current = FORMATS.upgrade({"format": 1, "x": 0})
    assert FORMATS.project(current, 1) == {"format": 1, "x": 0}
    assert FORMATS.project(current, 3) == current


@pytest.mark.parametrize("fmt", [0, 4, "1", None])
def test_an_unknown_format_is_refused(fmt):
    with pytest.raises(ValueError, match="unknown state format"):
        FORMATS.upgrade({"format": fmt})


def test_an_upgrader_must_write_the_next_format():
    broken = Formats(current=2, steps={1: FormatStep(lambda d: d, lambda d: d)})
    with pytest.raises(ValueError, match="wrote no format 2"):
        broken.upgrade({"format": 1})


def test_every_step_up_to_the_current_format_is_given():
    with pytest.raises(ValueError, match="a step from every format"):
        Formats(current=3, steps={1: FormatStep(_up(1), _down(1))})
