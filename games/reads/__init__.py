"""What the pages, the API and the emails read: lists and their stamps, a game as one viewer
sees it, its log and history, statistics and replays. Nothing here changes a game."""
