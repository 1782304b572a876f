"""The players among themselves: friends, blocks, messages, a game's chat, and reports to the
moderators (docs/architecture.md, "The community"; docs/moderation.md)."""
