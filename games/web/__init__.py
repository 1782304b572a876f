"""The site's pages and htmx partials: thin views that turn requests into calls of
``games.play`` and ``games.reads`` and their answers into templates (games/templates/)."""
