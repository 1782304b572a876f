"""Renaissance Man, the platform's second game: a pure-Python rules engine (no Django).

Everyone acts at once: each player orders a foundation of five workers in secret, then in
every round secretly chooses one action per called phase (HIRE, BARTER, TEACH, RECRUIT,
or none, after free removals), the Recruit board is resolved, and everyone discards in
secret. The first Master (the 15th worker of a pyramid) ends the game.

The game object is ``kind.RENAISSANCE`` (docs/renaissance.md describes everything).
"""
