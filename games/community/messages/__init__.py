"""Conversations between two players, and the unread count on each user's row."""
