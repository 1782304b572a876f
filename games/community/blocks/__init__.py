"""Players kept apart by a block, never told of it."""
