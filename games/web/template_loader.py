"""Finds each game's templates in its own package (``GameKind.template_dir``), so that a
game brings its board with it and nothing in the site lists it."""

from __future__ import annotations

from pathlib import Path

from django.template.loaders.filesystem import Loader as FilesystemLoader

from games.core import registry


class Loader(FilesystemLoader):
    def get_dirs(self) -> list[str | Path]:
        return [game.template_dir for game in registry.all_games() if game.template_dir]
