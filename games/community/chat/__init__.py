"""A game's chat (its rows are the game's: ``games.models.ChatLine``)."""
