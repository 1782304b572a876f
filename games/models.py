# The games' tables come here: a game row holding the engine's JSON state and an append-only
# action log (see docs/rules-engine.md for the engine's side).
