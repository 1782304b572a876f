"""The JSON API under /api/v1/ (docs/api.md): Django REST framework views over
``games.services``, with the engine's per-player view as the only way a game leaves."""
