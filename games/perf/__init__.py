"""The parts of ``manage.py bench_pages`` (docs/performance.md): HTTP load generators
(``load``), the benchmark's data built through the services (``data``) and the gunicorn
server it measures (``server``). Not a game: the registry finds no ``game`` module here."""
