"""The shortcuts that list choices quickly agree with the plain search they replace."""

import random

from games.guildhall import Options, apply, new_game
from games.guildhall.cards import ASSASSIN, HISTORIAN, TRADER, WEAVER
from games.guildhall.professions import PLANS
from games.guildhall.random_player import choose
from games.guildhall.vp_abilities import PLANS as VP_PLANS

SHORTCUT_PLANS = [
    PLANS[(prof, lv)] for prof in (ASSASSIN, HISTORIAN, TRADER, WEAVER) for lv in (0, 2, 4)
] + list(VP_PLANS.values())


def test_quick_and_exact_agree_with_the_search_over_random_positions():
    rand = random.Random(7)
    compared = 0
    for options in (Options(players=3), Options(players=3, advanced=True)):
        for _ in range(6):
            st = new_game(options, ["A", "B", "C"], rand.getrandbits(64))
            while st.phase != "over":
                apply(st, choose(st, rand))
                if st.phase != "play" or rand.random() > 0.3:
                    continue
                for plan in SHORTCUT_PLANS:
                    for q in [1, 2] if plan.target else [None]:
                        if plan.quick:
                            assert plan.quick(st, 0, q) == plan.searched(st, 0, q, [])
                            compared += 1
                        if plan.exact and plan.slots:
                            picks = []
                            for _ in range(rand.randint(0, 2)):
                                slot_i, _ = plan.position(picks)
                                if slot_i is None:
                                    break
                                cands = plan.slots[slot_i].source(st, 0, q, picks)
                                if not cands:
                                    break
                                picks.append(rand.choice(cands))
                            assert plan.exact(st, 0, q, picks) == plan.searched(st, 0, q, picks)
                            compared += 1
    assert compared > 1000
