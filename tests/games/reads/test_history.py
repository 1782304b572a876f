"""The whole move log, a page at a time: every record once, grouped by turn, newest turn
first, no secret of another seat, and bad input refused."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Move
from games.reads import history
from games.reads.movelog import describe_move
from tests.conftest import HTMX, client_for
from tests.games.helpers import start_game
from tests.games.web.test_replay import finish


def all_pages(game: Game, seat: int | None) -> list[history.Page]:
    state = game.game_kind.from_json(game.snapshot)
    pages, before = [], None
    while True:
        page = history.page(game, state, seat, before)
        pages.append(page)
        if page.older_before is None:
            return pages
        assert before is None or page.older_before < before
        before = page.older_before


@pytest.fixture
def guildhall_game(alice, bob, charlie) -> Game:
    return finish(start_game(alice, bob, charlie))


@pytest.mark.parametrize("seat", [0, 1, None])
def test_every_record_once_in_order_and_every_line(guildhall_game, seat):
    game = guildhall_game
    kind = game.game_kind
    state = kind.from_json(game.snapshot)
    pages = all_pages(game, seat)
    assert len(pages) > 3, "a whole game spans several pages"
    # Oldest first: every line of the record, in order, each under its record's number.
    seen_lines: list[tuple[int, str]] = []
    covered: list[int] = []
    for page in reversed(pages):
        for group in reversed(page.groups):
            for entry in group.entries:
                covered.extend(range(entry.first, entry.last + 1))
                seen_lines.extend((entry.last, line) for line in entry.lines)
    expected: list[tuple[int, str]] = []
    for number, events in (
        Move.objects.filter(game=game).order_by("number").values_list("number", "events")
    ):
        headings = {kind.log_heading(state, e) for e in events} - {None}
        expected.extend(
            (number, line)
            for line in describe_move(game, state, events, seat)
            if line not in headings
        )
    assert seen_lines == expected
    # No number is skipped; a record cut at a heading shows in both groups.
    assert sorted(set(covered)) == list(range(1, game.version + 1))


@pytest.mark.parametrize("before", [None, 1, 30])
def test_records_read_newest_first_a_chunk_at_a_time(guildhall_game, monkeypatch, before):
    # The log's own SQL reads what the ORM reads, whatever the chunks.
    moves = Move.objects.filter(game=guildhall_game).order_by("-number")
    if before is not None:
        moves = moves.filter(number__lte=before)
    expected = list(moves.values_list("number", "events"))
    assert list(history._newest_first(guildhall_game.pk, before, first=500)) == expected
    monkeypatch.setattr(history, "_CHUNK", 3)
    assert list(history._newest_first(guildhall_game.pk, before, first=2)) == expected


def test_pages_start_at_a_turn_and_hold_enough_records(guildhall_game):
    pages = all_pages(guildhall_game, 0)
    for page in pages[:-1]:
        oldest = page.groups[-1]
        assert oldest.heading and oldest.heading.startswith("Turn "), oldest.heading
        assert not oldest.continued
        assert page.records >= history.PAGE_RECORDS
    first = pages[-1].groups[-1]
    assert first.heading is None and not first.continued  # the setup, before turn 1
    # Newest turn first.
    turns = [
        int(re.match(r"Turn (\d+)", g.heading).group(1))
        for p in pages
        for g in p.groups
        if g.heading
    ]
    assert turns == sorted(turns, reverse=True)
    assert turns[-1] == 1


def test_board_shows_the_newest_page_and_older_pages_load(guildhall_game, alice):
    game = guildhall_game
    client = client_for(alice)
    board = client.get(reverse("games:board", args=[game.pk])).content.decode()
    state = game.game_kind.from_json(game.snapshot)
    # The board shows the newest turns only (history.BOARD_RECORDS), the rest on demand.
    newest = history.page(game, state, 0, records_at_least=history.BOARD_RECORDS)
    log_page = history.page(game, state, 0)
    assert newest.records < log_page.records
    assert newest.records >= history.BOARD_RECORDS
    assert f"?before={newest.older_before}" in board
    assert f"?before={log_page.older_before}" not in board
    assert f">{newest.groups[0].heading}</h3>" in board
    # htmx: the next page's items alone; without: a page of its own with the same items.
    url = reverse("games:log", args=[game.pk]) + f"?before={newest.older_before}"
    part = client.get(url, headers=HTMX)
    assert part.status_code == 200
    assert "<html" not in part.content.decode()
    assert part.content.decode().lstrip().startswith('<li class="log-group">')
    whole = client.get(url)
    assert "<html" in whole.content.decode()
    assert "Back to the board" in whole.content.decode()
    # A finished game's move numbers open the replay at that step.
    assert reverse("games:replay_step", args=[game.pk, game.version]) in board


def whole_log(client, game: Game) -> str:
    """Every page of the log, as the board's "Older moves" would load them."""
    url = reverse("games:log", args=[game.pk])
    pages, before = [], None
    while True:
        page = client.get(url, {"before": before} if before else {}, headers=HTMX)
        pages.append(page.content.decode())
        found = re.search(r"\?before=(\d+)", pages[-1])
        if not found:
            return "".join(pages)
        before = found.group(1)


def test_other_hands_never_in_the_log(guildhall_game, alice, bob):
    """Bob's drawn cards are named on his log and never on Alice's or a spectator's."""
    game = guildhall_game
    page = whole_log(client_for(alice), game)
    assert re.search(r"Alice drew (?!\d)", page)
    assert re.search(r"Bob drew \d+ cards?<", page)
    assert not re.search(r"Bob drew (?!\d)", page)
    mine = whole_log(client_for(bob), game)
    assert re.search(r"Bob drew (?!\d)", mine)
    assert not re.search(r"Alice drew (?!\d)", mine)


@pytest.mark.parametrize("before", ["x", "0", "-3", "1.5", ""])
def test_bad_before_is_refused(guildhall_game, alice, before):
    response = client_for(alice).get(
        reverse("games:log", args=[guildhall_game.pk]), {"before": before}
    )
    assert response.status_code == 400
    assert "move number" in response.content.decode()


def test_log_needs_a_login_and_a_game(guildhall_game, alice):
    anonymous = Client().get(reverse("games:log", args=[guildhall_game.pk]))
    assert anonymous.status_code == 302
    assert client_for(alice).get(reverse("games:log", args=[999_999])).status_code == 404


def test_renaissance_groups_by_action_phase(alice, bob):
    game = finish(start_game(alice, bob, kind="renaissance"))
    pages = all_pages(game, 0)
    headings = [g.heading for p in pages for g in p.groups if g.heading]
    assert headings and all(re.fullmatch(r"Round \d+, action phase \d", h) for h in headings)
    assert pages[-1].groups[-1].heading is None  # the foundation, before the first phase
