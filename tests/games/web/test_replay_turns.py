"""A replay steps by turn as well as by record (issue 26.4): the turns the move log heads, a
turn picker, the previous and next turn, which step of its turn this is, a link to the step,
and no live prompt (the decision bar is not shown: replay.css)."""

import html
import re

import pytest

from games.models import Move
from games.reads import replay
from tests.games.helpers import start_game
from tests.games.web.test_replay import finish, page, step_url

OPTION = re.compile(r'<option value="(\d+)"( selected)?>([^<]*)</option>')


@pytest.fixture
def game(alice, bob):
    return finish(start_game(alice, bob))


def headed_records(game) -> list[int]:
    """The records whose events begin a turn, read here from the log's own headings."""
    kind, state = game.game_kind, replay.step_at(game, 0).state
    return [
        m.number
        for m in Move.objects.filter(game=game).order_by("number")
        if any(kind.log_heading(state, e) is not None for e in m.events)
    ]


def test_the_turns_are_the_logs_headings(game):
    turns = replay.turns(game, replay.step_at(game, 0).state)

    assert [t.step for t in turns] == headed_records(game)
    assert len(turns) > 5
    assert all(t.heading for t in turns)
    assert game.version > 3 * len(turns) / 2  # fewer turns than records: that is the point


def test_a_step_in_a_turn_links_the_turns_around_it(game, alice):
    turns = replay.turns(game, replay.step_at(game, 0).state)
    third, fourth, fifth = turns[2], turns[3], turns[4]
    step = third.step + 1 if fourth.step > third.step + 1 else third.step

    content = page(alice, game, step)

    options = OPTION.findall(content)
    assert [int(v) for v, _, _ in options] == [t.step for t in turns]
    assert [html.unescape(label) for v, s, label in options if s] == [third.heading]
    assert f'href="{step_url(game, third.step)}"' in content  # the previous turn: its start
    assert f'href="{step_url(game, fourth.step)}" hx-get' in content  # the next turn
    n, count = step - third.step + 1, fourth.step - third.step
    assert f"Step {n} of {count} in this turn" in content
    assert f'http://testserver{step_url(game, step)}" class="replay-link"' in content
    # At a turn's start, the previous turn is the one before.
    content = page(alice, game, fifth.step)
    before = step_url(game, fourth.step)
    assert f'href="{before}" hx-get="{before}" data-replay-key="turn-prev"' in content


def test_the_picker_goes_to_a_turn_with_htmx_and_without(game, alice):
    from django.urls import reverse

    from tests.conftest import client_for

    turns = replay.turns(game, replay.step_at(game, 0).state)
    url = f"{reverse('games:replay', args=[game.pk])}?step={turns[5].step}"

    plain = client_for(alice).get(url)
    assert plain.status_code == 302 and plain["Location"] == step_url(game, turns[5].step)
    swapped = client_for(alice).get(url, headers={"HX-Request": "true"})
    assert swapped["HX-Push-Url"] == step_url(game, turns[5].step)
    assert f'<option value="{turns[5].step}" selected>' in swapped.content.decode()
