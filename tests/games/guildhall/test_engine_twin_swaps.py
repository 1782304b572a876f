"""A Trader may swap a card for its identical twin (RULINGS 2): legal, but it changes
nothing, so it is offered after the swaps that do something, and the board says so."""

from games.guildhall import legal_actions
from games.guildhall.builder import build
from games.guildhall.present import Board
from games.guildhall.views import view
from tests.games.guildhall.helpers import act, find


def trader_position():
    return build(
        players=[
            {"hand": ["red trader"], "guildhall": ["blue farmer", "green weaver"]},
            {"guildhall": ["yellow assassin", "blue farmer", "purple historian"]},
        ]
    )


def picks_offered(st) -> list[int]:
    return [a["card"] for a in legal_actions(st) if a["kind"] == "pick"]


def test_the_twin_is_offered_last_and_still_legal():
    st = trader_position()
    act(st, "play", card=find(st.players[0].hand, "red trader"))
    act(st, "use", level=0)
    if any(a["kind"] == "target" for a in legal_actions(st)):
        act(st, "target", player=1)
    farmer = find(st.players[0].guildhall, "blue farmer")
    weaver = find(st.players[0].guildhall, "green weaver")
    # My blue Farmer can only go for Bob's: offered after my green Weaver.
    assert picks_offered(st) == [weaver, farmer]
    assert marked(st, 0) == {farmer}
    act(st, "pick", card=farmer)
    twin = find(st.players[1].guildhall, "blue farmer")
    assert picks_offered(st) == [twin], "swapping identical cards is legal"
    assert marked(st, 1) == {twin}
    # A real swap: none is marked.
    st = trader_position()
    act(st, "play", card=find(st.players[0].hand, "red trader"))
    act(st, "use", level=0)
    if any(a["kind"] == "target" for a in legal_actions(st)):
        act(st, "target", player=1)
    act(st, "pick", card=find(st.players[0].guildhall, "green weaver"))
    assert len(picks_offered(st)) == 2  # not my own blue Farmer's twin
    assert marked(st, 1) == set()


def marked(st, seat: int) -> set[int]:
    """The cards of ``seat``'s guildhall the board draws as a swap that changes nothing."""
    board = Board(view(st, 0)).context()
    player = board["me"] if seat == 0 else board["others"][0]
    cards = [s["card"] for ch in player["chapters"] for s in ch["slots"] if s["card"]]
    return {c["id"] for c in cards if c["twin"]}
