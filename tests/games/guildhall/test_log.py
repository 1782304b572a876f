"""The move log: a line per event, per viewer, with secrets only for their owner."""

from games.guildhall import Options, apply
from games.guildhall.builder import build
from games.guildhall.log import describe, describe_all

from .helpers import find


def test_draws_are_named_only_for_the_drawer():
    st = build(players=[{"hand": []}, {}], deck_top=["red weaver", "blue farmer"])
    events = apply(st, {"kind": "discard_draw"})
    events += apply(st, {"kind": "done"})
    ann = describe_all(st, events, 0)
    bob = describe_all(st, events, 1)
    watcher = describe_all(st, events, None)
    assert "Ann drew red Weaver, blue Farmer, " in ann[-1] + ", "
    assert bob[-1] == "Ann drew 6 cards" and watcher[-1] == "Ann drew 6 cards"


def test_fantasy_names_in_the_log():
    st = build(options=Options(names="fantasy"), players=[{"hand": ["red dancer"]}, {}])
    events = apply(st, {"kind": "play", "card": find(st.players[0].hand, "red dancer")})
    assert describe_all(st, events, 1) == ["Ann played red Cleric"]


def test_classic_hides_the_profession_of_a_completed_chapter_from_others():
    for rules, expected in (
        ("classic", "Ann completed a chapter"),
        ("yucata", "Ann completed a Weaver chapter"),
    ):
        st = build(
            options=Options(rules=rules),
            players=[
                {
                    "hand": ["red historian"],
                    "guildhall": ["red weaver", "blue weaver", "yellow weaver", "green weaver"],
                },
                {},
            ],
            discard=["purple weaver"],
        )
        events = apply(st, {"kind": "play", "card": st.players[0].hand[0]})
        events += apply(st, {"kind": "use", "level": 0})
        assert expected in describe_all(st, events, 1)
        assert "Ann completed a Weaver chapter" in describe_all(st, events, 0)


def test_articles_and_plurals():
    """ "an Assassin chapter", "an 8-..." and "a 5-point VP card"; one card, two cards."""
    from games.guildhall.log import _a

    st = build(players=[{}, {}])
    assert _a("Assassin") == "an Assassin"
    assert _a("Weaver") == "a Weaver"
    assert _a("5-point VP card") == "a 5-point VP card"
    one = describe(st, {"type": "draw", "player": 1, "cards": [4]}, 0)
    two = describe(st, {"type": "draw", "player": 1, "cards": [4, 8]}, 0)
    assert (one, two) == ("Bob drew 1 card", "Bob drew 2 cards")
    assert (
        describe(st, {"type": "tokens", "player": 0, "count": 1}, None) == "Ann gained 1 VP token"
    )
    line = describe(st, {"type": "chapter_completed", "player": 0, "profession": 0}, 0)
    assert line == "Ann completed an Assassin chapter"
