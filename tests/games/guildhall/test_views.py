"""What each player may know (RULINGS 6): the view is the only door out of the engine."""

import json

from games.guildhall import Options, legal_actions
from games.guildhall.builder import build
from games.guildhall.simulate import leaks
from games.guildhall.views import view

from .helpers import act, find, play

YUCATA = Options(rules="yucata")
CLASSIC = Options(rules="classic")


def position(options=YUCATA, **kw):
    return build(
        options=options,
        players=[
            {
                "hand": ["red weaver", "blue farmer", "green dancer"],
                "guildhall": ["blue weaver", "green weaver"],
                "completed": ["trader"],
                "vp_cards": ["vp5"],
                "tokens": 2,
            },
            {
                "hand": ["purple assassin", "yellow historian"],
                "known": [1],
                "guildhall": ["red farmer"],
                "completed": ["dancer"],
            },
        ],
        discard=["yellow farmer", "purple farmer"],
        **kw,
    )


def test_public_information_is_in_every_view():
    st = position()
    for viewer in (0, 1, None):
        v = view(st, viewer)
        ann, bob = v["players"]
        assert [c["name"] for ch in ann["guildhall"] for c in ch["cards"]] == ["Weaver"] * 2
        assert ann["hand_size"] == 3 and bob["hand_size"] == 2
        assert ann["completed_chapters"] == 1
        assert ann["vp"] == 7 and ann["vp_tokens"] == 2
        assert v["discard_top"]["color"] == "purple"
        assert v["deck_size"] == len(st.deck) and v["vp_deck_size"] == len(st.vp_deck)
        assert len(v["center_row"]) == 5
        json.dumps(v)  # plain JSON data


def test_own_hand_only_for_its_owner():
    st = position()
    assert [c["profession"] for c in view(st, 0)["players"][0]["hand"]] == [
        "weaver",
        "farmer",
        "dancer",
    ]
    assert "hand" not in view(st, 1)["players"][0]
    assert "hand" not in view(st, None)["players"][0]
    assert "hand" not in view(st, None)["players"][1]


def test_no_secret_in_any_view():
    st = position()
    for viewer in (0, 1, None):
        v = view(st, viewer)
        assert leaks(st, v, viewer) == []
        text = json.dumps(v)
        assert str(st.rng) not in text
        assert '"deck"' not in text and '"vp_deck"' not in text


def test_yucata_public_information():
    st = position(YUCATA)
    v = view(st, 0)
    bob = v["players"][1]
    assert bob["completed_professions"] == ["dancer"]
    assert [c["profession"] for c in bob["known_hand"]] == ["historian"]
    assert [c["color"] for c in v["discard_pile"]] == ["purple", "yellow"]  # top first
    # Unseen: the deck plus Bob's one unknown hand card, by identity, never in order.
    assert v["unseen_count"] == len(st.deck) + 1
    assert all(set(u) == {"profession", "color", "name", "count"} for u in v["unseen"])


def test_classic_hides_what_only_yucata_shows():
    st = position(CLASSIC)
    v = view(st, 0)
    bob = v["players"][1]
    assert "completed_professions" not in bob
    assert "known_hand" not in bob
    assert "discard_pile" not in v and "unseen" not in v
    assert v["players"][0]["completed_professions"] == ["trader"]  # one's own


def test_advanced_hides_the_discard_pile_below_the_top():
    st = position(Options(rules="yucata", advanced=True))
    v = view(st, 1)
    assert "discard_pile" not in v
    assert v["discard_top"]["color"] == "purple"
    # The hidden part counts as unseen.
    assert v["unseen_count"] == len(st.deck) + 3 + 1


def test_a_historian_looking_through_sees_the_pile_and_only_they_do():
    st = build(
        options=Options(rules="classic", advanced=True),
        players=[
            {"hand": ["red historian"], "guildhall": ["blue historian", "green historian"]},
            {"guildhall": ["red trader"]},
        ],
        discard=["yellow farmer", "purple farmer"],
    )
    play(st, "red historian")
    act(st, "use", level=2)
    assert [c["color"] for c in view(st, 0)["discard_pile"]] == ["purple", "yellow"]
    assert "discard_pile" not in view(st, 1)


def test_only_the_decider_gets_legal_actions_and_picks_stay_private():
    st = position()
    play(st, "red weaver")
    act(st, "use", level=2)
    act(st, "pick", card=st.players[0].guildhall[0])
    mine, theirs = view(st, 0), view(st, 1)
    assert mine["legal_actions"] == legal_actions(st)
    assert mine["decision"]["picks"]
    assert theirs["legal_actions"] == []
    assert "picks" not in theirs["decision"] and theirs["decision"]["picked"] == 1


def test_fantasy_names():
    st = position(Options(names="fantasy"))
    v = view(st, 0)
    assert [c["name"] for c in v["players"][0]["hand"]] == ["Monk", "Marshal", "Cleric"]
    assert v["players"][0]["guildhall"][0]["name"] == "Monk"


def test_can_undo_only_for_the_player_who_may():
    st = position()
    play(st, "blue farmer")  # Yucata Farmer: automatic, nothing hidden revealed
    assert view(st, 0)["can_undo"] is True
    assert view(st, 1)["can_undo"] is False
    assert find(st.players[0].action_area, "blue farmer")


def test_a_known_hand_card_stops_being_known_when_it_leaves_the_hand():
    st = position()
    bob = st.players[1]
    known = bob.known[0]
    assert [c["id"] for c in view(st, 0)["players"][1]["known_hand"]] == [known]
    act(st, "discard_draw")
    act(st, "done")
    act(st, "discard_draw")
    act(st, "done")
    act(st, "end_turn")
    act(st, "play", card=known)
    assert bob.known == []
    assert view(st, 0)["players"][1]["known_hand"] == []
