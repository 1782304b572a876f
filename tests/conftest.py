"""Shared fixtures: the people of the tests, and the check that CI has its services.

alice and bob play, charlie is an outsider. Each has a verified email address and the
password PASSWORD.

The database is the one DATABASE_URL names: SQLite by default (a file in test-output/, with the
site's settings: WAL, transactions that take the write lock at once), PostgreSQL when it is
a postgres:// URL (pytest-django creates and drops a test_<name> database on that server).
Under CI=true a missing PostgreSQL or Redis stops the run with an error, never a skip.

Besides the site's games, the tests offer a proof game of simultaneous hidden choices,
Goofspiel (``tests/goofspiel``): registered here, so only in the tests.
"""

import os
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.cache import cache, caches
from django.test import Client

import tests.goofspiel.game  # noqa: F401 (the proof game: offered only to the tests)
from accounts.models import User
from guildhall_site.upkeep import memo

PASSWORD = "correct horse battery staple"

IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}

# The tests' PostgreSQL sessions (this process's, and the servers and workers the tests
# start, which inherit it) commit without waiting for the disk: a commit is as visible, as
# locked and as atomic as before, only a crash of the database server could lose the last
# ones, and no test crashes it. Most of the suite's time on a slow disk is commits (a
# whole game through the API: 45 s, 29 s without). libpq reads PGOPTIONS when it connects.
os.environ.setdefault("PGOPTIONS", "-c synchronous_commit=off")


def _service_problems() -> list[str]:
    problems = []
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.postgresql":
        problems.append(
            "CI runs the tests on PostgreSQL: set DATABASE_URL=postgres://... "
            f"(the tests would run on {database['ENGINE']})"
        )
    else:
        import psycopg

        try:
            psycopg.connect(
                host=database["HOST"] or None,
                port=database["PORT"] or None,
                user=database["USER"] or None,
                password=database["PASSWORD"] or None,
                dbname="postgres",
                connect_timeout=5,
            ).close()
        except psycopg.OperationalError as error:
            problems.append(f"PostgreSQL does not answer: {error}")
    if not settings.REDIS_URL:
        problems.append("CI runs the tests with Redis: set REDIS_URL=redis://...")
    else:
        import redis

        try:
            redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=5).ping()
        except redis.RedisError as error:
            problems.append(f"Redis does not answer at {settings.REDIS_URL}: {error}")
    return problems


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "no_schema_check: the test breaks the site on purpose; its API answers are not "
        "checked against the OpenAPI schema",
    )
    # The production hasher takes a noticeable fraction of a second per password on purpose;
    # tests create many users and only need passwords to work.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Tasks run inline, as queued after each commit, whatever broker REDIS_URL names: a test
    # sees their effects at once. The tests that start a real worker turn this off
    # (tests/guildhall_site/test_celery_worker.py).
    from guildhall_site.celery import app as celery_app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    celery_app.conf.task_always_eager = True
    # On SQLite the tests' database is a file in test-output/ (settings.py), with the site's
    # own settings.
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        Path(settings.DATABASES["default"]["TEST"]["NAME"]).parent.mkdir(exist_ok=True)


def pytest_sessionstart(session: pytest.Session) -> None:
    if IN_CI and (problems := _service_problems()):
        raise pytest.UsageError("CI=true but the services are missing:\n" + "\n".join(problems))


@pytest.fixture(autouse=True)
def _empty_cache():
    # allauth keeps its rate limits in the cache; one test's attempts must not limit the next.
    cache.clear()
    caches["pages"].clear()  # boards and dashboards (games.web.page_cache)
    memo.clear_all()  # what each process remembers of maintenance, announcements, bounces
    yield


@pytest.fixture(autouse=True)
def _broker_not_taken_for_away():
    """A test that made the broker fail leaves the process's outage pause behind
    (games.play.events.broker: nothing is queued for a few seconds): the next test starts
    with a broker that is there."""
    from games.play import events

    events.broker.reset()
    yield
    events.broker.reset()


@pytest.fixture(autouse=True)
def _api_answers_fit_the_schema(request, monkeypatch):
    """Every answer of the API to a test client (Django's, and so DRF's APIClient) is
    checked against the OpenAPI schema by a strict validator (tests/games/api_validation.py)."""
    if request.node.get_closest_marker("no_schema_check"):
        return
    from tests.games.api_validation import check_answer

    send = Client.request

    def checked(self, **kwargs):
        response = send(self, **kwargs)
        check_answer(response)
        return response

    monkeypatch.setattr(Client, "request", checked)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def make_person(username: str, **fields) -> User:
    email = f"{username}@example.org"
    user = User.objects.create_user(username=username, email=email, password=PASSWORD, **fields)
    EmailAddress.objects.create(user=user, email=email, primary=True, verified=True)
    return user


@pytest.fixture
def alice(db) -> User:
    return make_person("alice", display_name="Alice")


@pytest.fixture
def bob(db) -> User:
    return make_person("bob", display_name="Bob")


@pytest.fixture
def charlie(db) -> User:
    return make_person("charlie")


@pytest.fixture
def dave(db) -> User:
    return make_person("dave", display_name="Dave")


# The header htmx sends with every request it makes (django-htmx reads it as request.htmx).
HTMX = {"HX-Request": "true"}


@pytest.fixture
def seats_in_order(monkeypatch):
    """Seats in the order the people were created (alice, bob, charlie): under a frozen clock
    the answers to an invitation have equal times, and their order is the database's whim.
    A module asks for it with ``pytestmark = pytest.mark.usefixtures("seats_in_order")``."""
    from games.play import invitations
    from tests.games.notifications.helpers import InOrder

    monkeypatch.setattr(invitations, "seat_random", InOrder())


@pytest.fixture
def moves_at_machine_speed(settings):
    """Moves as fast as a test makes them: the board's form and the API share a limit on
    moves per user (API_THROTTLE_RATES["actions"], 120 a minute), which no person meets and
    a test playing a whole game through the board would."""
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "actions": "100000/minute"}


@pytest.fixture
def run_hooks(django_capture_on_commit_callbacks):
    """Run the on-commit hooks (the notifications, and so the tasks, inline) as each service
    commits: ``run_hooks(services.submit, ...)``."""

    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return run
