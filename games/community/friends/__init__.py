"""A player's friends: one direction, nothing to accept, the friend not told."""
