"""Settings for the Guildhall site, all read from environment variables.

Development needs none of them: DEBUG defaults to true, the database to a SQLite file next to
manage.py and email to the console. Production sets at least DEBUG=false, SECRET_KEY,
ALLOWED_HOSTS, DATABASE_URL, REDIS_URL, SITE_URL and the EMAIL_* variables (see README.md).

The env* helpers fail loudly: a value they cannot read stops the process at start-up rather
than being taken as some default.
"""

import ipaddress
import os
import re
from email.utils import parseaddr
from pathlib import Path
from typing import overload
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from guildhall_site.ops import client_address as ops_client_address
from guildhall_site.ops import logging as ops_logging

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _env(name: str) -> str | None:
    # An empty value counts as unset, as env files and CI configurations often write NAME=.
    value = os.environ.get(name, "").strip()
    return value or None


def envstr(name: str, default: str) -> str:
    value = _env(name)
    return default if value is None else value


def envbool(name: str, default: bool) -> bool:
    value = _env(name)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean: use true or false")


@overload
def envint(name: str, default: int) -> int: ...
@overload
def envint(name: str, default: None) -> int | None: ...
def envint(name: str, default: int | None) -> int | None:
    value = _env(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from None


def envlist(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blanks around the items are ignored."""
    value = _env(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


# --- Core ---------------------------------------------------------------------------------------

DEBUG = envbool("DEBUG", True)

SECRET_KEY = _env("SECRET_KEY")
if SECRET_KEY is None:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is false")
    # Good enough for a developer's machine; check --deploy rejects it by its prefix.
    SECRET_KEY = "django-insecure-development-key-never-use-it-in-production"

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])

# The public address of the site, without a trailing slash. Emails are sent from background
# workers where no request tells the host, so links in them are built from this.
SITE_URL = envstr("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
if urlsplit(SITE_URL).scheme not in ("http", "https"):
    raise ImproperlyConfigured(f"SITE_URL={SITE_URL!r} must start with http:// or https://")

# The site's name: the header, page titles, emails, the installable app. Neutral by default:
# the site offers every game of the registry, not one.
SITE_NAME = envstr("SITE_NAME", "Card games by post")

# Origins allowed to POST besides the site itself, for example behind a proxy that rewrites
# the Host header. Full origins: https://example.com
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # Before staticfiles, so that runserver serves static files through WhiteNoise too.
    "whitenoise.runserver_nostatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # Content-Security-Policy (the "Security" section below); the app adds its system checks.
    "csp",
    "django_htmx",
    "template_partials.apps.SimpleAppConfig",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "games.notifications",
    # Tournaments and leagues (games/tournaments, docs/tournaments.md).
    "games.tournaments",
    # The players among themselves: friends, blocks, messages, the games' chat (games/community);
    # reports and moderators' actions an app of its own inside it (the queue is in the admin).
    "games.community",
    "games.community.moderation",
    # Webhooks of API tokens (games/webhooks; docs/api.md, "Webhooks").
    "games.webhooks",
    # A player's data: its download, and the account's deletion (games/privacy, docs/privacy.md).
    "games.privacy",
    # manage.py backup (guildhall_site/ops: health, metrics, error reports, logs; docs/deploy.md)
    "guildhall_site.ops",
    # Maintenance mode, announcements, bounced addresses (guildhall_site/upkeep; docs/deploy.md).
    "guildhall_site.upkeep",
]

MIDDLEWARE = [
    # A request id for every line logged (and in the answer's X-Request-ID), the requests
    # counted for /metrics, then /healthz, /readyz and /metrics answered before the rest
    # (no HTTPS redirect, session, language or host check: guildhall_site/ops/health.py).
    "guildhall_site.ops.logging.RequestIdMiddleware",
    "guildhall_site.ops.metrics.RequestMetricsMiddleware",
    "guildhall_site.ops.health.ProbesMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "guildhall_site.middleware.RejectNulCharactersMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language of a visitor: the footer's choice (cookie), else Accept-Language; a
    # logged-in player's own preference wins (accounts.middleware).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserPreferencesMiddleware",
    "accounts.middleware.GuestRestrictionsMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Maintenance mode (503 for any change) and the banners on every page (guildhall_site/upkeep).
    "guildhall_site.upkeep.middleware.UpkeepMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # The actions' "no such game or invitation" as the 404 page (games.play.errors).
    "games.web.middleware.NotFoundMiddleware",
]

ROOT_URLCONF = "guildhall_site.urls"
WSGI_APPLICATION = "guildhall_site.wsgi.application"

_template_loaders = [
    "django.template.loaders.filesystem.Loader",
    "django.template.loaders.app_directories.Loader",
    # Each registered game's own templates, in its package (games.core.registry).
    "games.web.template_loader.Loader",
]
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # contact_email: CONTACT_EMAIL, for the pages that say "contact us".
                "accounts.context_processors.contact",
                # site_name: SITE_NAME, for the header and the page titles.
                "accounts.context_processors.site",
                # unread_badge: the header's count of unread messages (no query of its own).
                "accounts.context_processors.messages_badge",
            ],
            # template_partials' loader lets a view render "page.html#section".
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [("django.template.loaders.cached.Loader", _template_loaders)],
                )
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    }
]

# --- Database -----------------------------------------------------------------------------------

# postgres://user:password@host:5432/name in production (Django uses psycopg 3 for it).
# Tests use the same server: pytest-django creates and drops a test_<name> database there.
DATABASES = {
    "default": dj_database_url.parse(
        envstr("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=envint("DATABASE_CONN_MAX_AGE", 0 if DEBUG else 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Seconds to wait for a connection to PostgreSQL: a server that does not answer fails a
    # request (and /readyz) in this time instead of hanging it.
    _database_options = DATABASES["default"].setdefault("OPTIONS", {})
    _database_options["connect_timeout"] = envint("DATABASE_CONNECT_TIMEOUT", 5)
    # Behind PgBouncer in transaction mode (docs/deploy.md): no server-side cursor, which
    # would outlive the transaction that PgBouncer's connection was lent for.
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = envbool("DATABASE_PGBOUNCER", False)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default has several writers (the web server's threads, the Celery worker):
    # - WAL lets readers go on while one writes;
    # - IMMEDIATE makes every transaction take the write lock when it begins. A deferred one
    #   starts as a reader and fails at once with "database is locked" when it tries to write
    #   after another writer committed; an immediate one waits its turn instead;
    # - the timeout (seconds) is how long a writer waits for the lock before giving up.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": envint("SQLITE_TIMEOUT", 30),
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        **DATABASES["default"].get("OPTIONS", {}),
    }
    # The tests' database is a file too, as the site's is: in memory, SQLite shares one cache
    # between the live server's threads and locks whole tables ("database table is locked",
    # at once, whatever the timeout), which the site on its file never does. (pytest-xdist
    # gives each worker its own file: the name with _gw0, _gw1... appended; each checkout has
    # its own, in test-output/.)
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-output" / "test-db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: cache and Celery --------------------------------------------------------------------

# Without REDIS_URL (development, the demo) the cache lives in the process and Celery tasks run
# inline, so that nothing but Python is needed. Production sets it.
REDIS_URL = _env("REDIS_URL")
# The test suite runs in parallel (pytest-xdist), each worker on its own test database: each
# gets its own Redis database too (REDIS_URL's, then the ones below it), so that one worker's
# cache.clear() or queued tasks never reach another's.
_test_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL and re.fullmatch(r"gw\d+", _test_worker):
    _url = urlsplit(REDIS_URL)
    _db = (int(_url.path.strip("/") or 0) - int(_test_worker[2:])) % 16
    REDIS_URL = urlunsplit(_url._replace(path=f"/{_db}"))

# "pages" holds the rendered boards and dashboards (games/page_cache.py) and the stamps of the
# game lists (games/list_stamps.py): big entries that can all be lost, bounded in a process.
PAGES_REDIS_URL = envstr("PAGES_REDIS_URL", REDIS_URL or "")
if REDIS_URL:
    CACHES = {
        "default": {
            # Redis, or this process's own cache while Redis cannot be reached: the throttles
            # and login rate limits kept there must not fail every request in an outage.
            "BACKEND": "guildhall_site.cache.RedisWithLocalFallback",
            "LOCATION": REDIS_URL,
            # Seconds: a Redis that stopped answering costs a request this much, once.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        },
        "pages": {
            "BACKEND": "guildhall_site.cache.RedisWithLocalFallback",
            "LOCATION": PAGES_REDIS_URL,
            "KEY_PREFIX": "pages",
            "OPTIONS": {
                "socket_connect_timeout": 1,
                "socket_timeout": 1,
                "FALLBACK_MAX_ENTRIES": 300,
            },
        },
    }
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "pages": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "pages",
            # About 30 KB a board: at most some 30 MB in a process.
            "OPTIONS": {"MAX_ENTRIES": 1000},
        },
    }

# The event stream (games/api/stream.py, served by the events process): a comment after this
# many seconds of quiet keeps proxies from closing it, and each stream ends after its lifetime
# (EventSource reconnects with Last-Event-ID; a deploy or a revoked token is noticed then).
EVENTS_KEEPALIVE_SECONDS = envint("EVENTS_KEEPALIVE_SECONDS", 15)
EVENTS_LIFETIME_SECONDS = envint("EVENTS_LIFETIME_SECONDS", 600)

# Rendered boards and dashboards kept in the cache (games/page_cache.py), keyed by everything
# they show: how long an entry lives (0: never cache a page), and the build's name in the keys
# (say, the deployed commit; empty: a digest of the code and templates, read at start).
PAGE_CACHE_SECONDS = envint("PAGE_CACHE_SECONDS", 600)
# A page is stored at its key's this-many-th request (games/web/page_cache.py): 2 keeps out
# the pages read only once (most boards of a quick game: read once, then a move); 1 stores
# every page at its first request.
PAGE_CACHE_ADMIT_AFTER = envint("PAGE_CACHE_ADMIT_AFTER", 2)

# How long a computer player that searches ("strong") thinks per decision, in milliseconds of
# one core, in the worker (games/computer_moves.py).
COMPUTER_BUDGET_MS = envint("COMPUTER_BUDGET_MS", 1000)
# The explanation of a finished game (games.play.analysis, docs/replays.md), on the computer
# players' lane at the lowest priority: at most this many iterations of the strong player's
# search per decision, and this many seconds for the whole game (decisions get fewer
# iterations when the time would run short; ``manage.py bench_analysis`` measures a game).
ANALYSIS_ITERATIONS = envint("ANALYSIS_ITERATIONS", 300)
ANALYSIS_SECONDS = envint("ANALYSIS_SECONDS", 100)
# What one player may start (games.services.do_create_invitation, from the lobby or the API):
# new invitations an hour; and against the computer, whose moves cost a worker's time, new
# games an hour and games under way at once.
INVITATIONS_PER_HOUR = envint("INVITATIONS_PER_HOUR", 30)
COMPUTER_GAMES_PER_HOUR = envint("COMPUTER_GAMES_PER_HOUR", 20)
COMPUTER_GAMES_ACTIVE = envint("COMPUTER_GAMES_ACTIVE", 10)
# Invitation emails (and pushes to each device) one player gets from one other in a day: the
# ones after these are not sent (the invitations stay in the lobby).
INVITATION_EMAILS_PER_DAY = envint("INVITATION_EMAILS_PER_DAY", 3)
# Conversations one player may start in a day (games.community.messages; replying starts none), and
# fewer while the account is younger than NEW_ACCOUNT_DAYS. The messages themselves are
# limited per minute (API_THROTTLE_RATES "messages" and "messages_address").
CONVERSATIONS_PER_DAY = envint("CONVERSATIONS_PER_DAY", 20)
NEW_ACCOUNT_DAYS = envint("NEW_ACCOUNT_DAYS", 7)
NEW_ACCOUNT_CONVERSATIONS_PER_DAY = envint("NEW_ACCOUNT_CONVERSATIONS_PER_DAY", 3)
PAGE_CACHE_BUILD = envstr("PAGE_CACHE_BUILD", "")

# Celery (guildhall_site/celery.py; tasks in games/tasks.py and games/notifications/tasks.py; see
# docs/notifications.md). The broker is Redis when REDIS_URL is set. Without it, tasks run
# inline in the process that queues them, after the commit (CELERY_TASK_ALWAYS_EAGER), so that
# runserver and the tests need no other process; nothing runs on a schedule then (no time-outs,
# reminders or digests) and an email the mail server refused waits for a worker's sweep.
# rundemo sets CELERY_BROKER_URL=filesystem:// instead and starts a worker with beat: kombu's
# filesystem transport keeps each message as a file in CELERY_FILESYSTEM_BROKER_DIR, which
# works for processes of one machine sharing that folder and needs no server.
CELERY_BROKER_URL = envstr("CELERY_BROKER_URL", REDIS_URL or "filesystem://")
CELERY_TASK_ALWAYS_EAGER = envbool(
    "CELERY_TASK_ALWAYS_EAGER", not REDIS_URL and not _env("CELERY_BROKER_URL")
)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# The filesystem transport's folder (and beat's schedule file under rundemo).
FILESYSTEM_BROKER_DIR = Path(envstr("CELERY_FILESYSTEM_BROKER_DIR", str(BASE_DIR / ".celery")))
FILESYSTEM_BROKER_OPTIONS = {
    # One folder both ways: every process of the machine puts and takes messages there.
    "data_folder_in": str(FILESYSTEM_BROKER_DIR / "messages"),
    "data_folder_out": str(FILESYSTEM_BROKER_DIR / "messages"),
    "control_folder": str(FILESYSTEM_BROKER_DIR / "control"),
}
# kombu's transport options: strings for the filesystem's, numbers for Redis's.
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = dict(FILESYSTEM_BROKER_OPTIONS)
    # kombu's transport, writing each message whole (guildhall_site/filesystem_broker.py).
    CELERY_BROKER_TRANSPORT = "guildhall_site.filesystem_broker:Transport"
    if not CELERY_TASK_ALWAYS_EAGER:
        for _folder in ("data_folder_in", "control_folder"):
            Path(FILESYSTEM_BROKER_OPTIONS[_folder]).mkdir(parents=True, exist_ok=True)
# A task's message is acknowledged when the task has finished, not when it starts: a worker
# that dies mid-task leaves it to be delivered again. Every task is safe to run twice.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task still running after this is killed. Shorter than the lease of an email being sent
# (games.notifications.delivery.LEASE), so no other worker takes over an email still being sent.
CELERY_TASK_TIME_LIMIT = envint("CELERY_TASK_TIME_LIMIT", 300)
CELERY_TASK_SOFT_TIME_LIMIT = envint("CELERY_TASK_SOFT_TIME_LIMIT", 240)
# How long a worker holds an email or push it is sending (games.notifications.delivery.LEASE):
# a worker killed while sending leaves it to be sent again after this. Longer than the task
# time limit, so that no other worker takes over one still being sent.
NOTIFICATION_LEASE_SECONDS = envint("NOTIFICATION_LEASE_SECONDS", 600)
# How often the sweep sends emails and pushes whose retry is due, and those a killed worker
# held (once their lease has run out).
NOTIFICATION_SWEEP_SECONDS = envint("NOTIFICATION_SWEEP_SECONDS", 60)
# A queued email or push this long past its time (or since it was recorded) had its task lost
# (a broker restart, a task killed at its time limit): the sweep sends it. Long enough for the
# task's own retry to come first.
NOTIFICATION_STALLED_SECONDS = envint("NOTIFICATION_STALLED_SECONDS", 300)
if NOTIFICATION_SWEEP_SECONDS < 1:
    raise ImproperlyConfigured("NOTIFICATION_SWEEP_SECONDS must be at least 1")
if NOTIFICATION_STALLED_SECONDS < 1:
    raise ImproperlyConfigured("NOTIFICATION_STALLED_SECONDS must be at least 1")
if NOTIFICATION_LEASE_SECONDS <= CELERY_TASK_TIME_LIMIT:
    raise ImproperlyConfigured("NOTIFICATION_LEASE_SECONDS must exceed CELERY_TASK_TIME_LIMIT")
CELERY_TASK_IGNORE_RESULT = True
# Redis hands a message a worker took and never acknowledged (it was killed) to another worker
# after this many seconds. Longer than any countdown of a retry (an hour and 10% at most,
# games.notifications.delivery.MAX_DELAY), or a retry waiting for its time would be run twice.
CELERY_VISIBILITY_TIMEOUT = envint("CELERY_VISIBILITY_TIMEOUT", 4200)
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
        # kombu looks for such messages every 10 s but scans Redis only every 10th time
        # (100 s); one scan per look costs one ZRANGE per worker every 10 s, and the message
        # comes back within 10 s of its timeout (sooner still with a short timeout).
        "unacked_restore_interval": max(1, min(10, CELERY_VISIBILITY_TIMEOUT // 10)),
        "unacked_restore_throttle": 1,
    }
# Task modules besides each app's tasks.py (which the worker finds by itself).
CELERY_IMPORTS = (
    "games.play.timeouts",
    "games.play.computer_moves",
    "games.play.analysis",
    "games.notifications.events",
    "games.tournaments.tasks",
    "games.notifications.message_events",
    # (an app's tasks.py, found by the worker by itself; named here for the processes that
    # queue its tasks by name without ever loading the app's views: games.play.events)
    "games.webhooks.tasks",
)
# Lanes: each kind of task has a queue of its own, served by workers of their own (docs/Procfile,
# compose.yaml and rundemo start one per lane), so that a flood of one kind (a crowd of games
# against the strong computer, a receiver of webhooks that answers slowly, a digest hour)
# never delays another's work (docs/deploy.md, "Lanes"). The queue of each, and what it does:
CELERY_TASK_DEFAULT_QUEUE = "celery"
NOTICES_QUEUE = "notices"
WEBHOOKS_QUEUE = "webhooks"
COMPUTER_QUEUE = "computer"
TASK_LANES = {
    CELERY_TASK_DEFAULT_QUEUE: "time-outs, reminders, digests, the sweeps, tournaments",
    NOTICES_QUEUE: "emails and pushes",
    WEBHOOKS_QUEUE: "webhook deliveries",
    COMPUTER_QUEUE: "the computer players' moves; analyses of finished games (lowest priority)",
}
CELERY_TASK_ROUTES = {
    "games.play_computer_turn": {"queue": COMPUTER_QUEUE},
    "games.analyse_game": {"queue": COMPUTER_QUEUE},
    "games.tasks.notify_*": {"queue": NOTICES_QUEUE},
    "games.notifications.tasks.send_notification": {"queue": NOTICES_QUEUE},
    "games.moderation.email_notice": {"queue": NOTICES_QUEUE},
    "tournaments.send_notices": {"queue": NOTICES_QUEUE},
    "games.webhooks.game_event": {"queue": WEBHOOKS_QUEUE},
    "games.webhooks.invitation_event": {"queue": WEBHOOKS_QUEUE},
    "games.webhooks.deliver": {"queue": WEBHOOKS_QUEUE},
}


def _sweep(task: str, every: int) -> dict[str, object]:
    """A periodic sweep, dropped if it waited most of its period: the next does the same work."""
    return {"task": task, "schedule": float(every), "options": {"expires": every * 11 / 12}}


# One beat process schedules these: a second one (an orphaned embedded beat, a beat started
# twice) waits for the lock the first one holds (guildhall_site/beat.py).
CELERY_BEAT_SCHEDULER = "guildhall_site.beat:Scheduler"
CELERY_BEAT_SCHEDULE = {
    # Tournaments: sign-ups that close, round deadlines, withdrawals, notices to retry.
    "tournaments": _sweep("tournaments.sweep", every=60),
    "computer-turns-left-behind": _sweep("games.sweep_computer_turns", every=60),
    "time-out-expired-turns": _sweep("games.tasks.sweep_timeouts", every=60),
    "reminders-and-deadline-warnings": _sweep("games.tasks.sweep_reminders", every=300),
    "daily-digests": _sweep("games.tasks.send_daily_digests", every=900),
    "retry-and-deferred-emails": _sweep(
        "games.notifications.tasks.sweep_notifications", every=NOTIFICATION_SWEEP_SECONDS
    ),
    "idle-guests": _sweep("accounts.tasks.remove_idle_guests", every=3600),
    # Accounts whose deletion is due (games.privacy, after ACCOUNT_DELETION_GRACE_DAYS).
    "account-deletions": _sweep("games.privacy.erase_due", every=3600),
    # Suspensions that have run out (games.community.moderation.actions).
    "lift-expired-suspensions": _sweep("games.moderation.lift_expired", every=300),
    # Webhook deliveries due again, and those of events whose task was lost.
    "webhooks": _sweep("games.webhooks.sweep", every=60),
    # Notifications whose task could not be queued (the broker was down at the commit).
    "unqueued-emails": _sweep("games.tasks.sweep_unqueued_notifications", every=120),
    # Notices of messages between players whose task could not be queued, likewise.
    "unqueued-message-notices": _sweep("games.tasks.sweep_unqueued_message_notices", every=120),
}

# --- Proxies ------------------------------------------------------------------------------------

# How many proxies in front of the site append to X-Forwarded-For. The API's throttles and
# allauth's login rate limits count per client address, which a client could forge if
# X-Forwarded-For were trusted blindly; and behind a proxy, REMOTE_ADDR is the proxy's for every
# client, so that ten failed logins a minute from anyone would lock everyone out.
NUM_PROXIES = envint("API_NUM_PROXIES", 0)
ALLAUTH_TRUSTED_PROXY_COUNT = NUM_PROXIES
# Failed logins per account, whatever the address (accounts.login_limits): the login page
# and the API's token endpoint alike, then every attempt refused until the window ends.
LOGIN_FAILURES_PER_ACCOUNT = envint("LOGIN_FAILURES_PER_ACCOUNT", 10)
LOGIN_FAILURES_WINDOW = envint("LOGIN_FAILURES_WINDOW_SECONDS", 15 * 60)

# --- Accounts -----------------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"

# Django's and allauth's, reading a session's user in plain SQL (accounts/backends.py).
AUTHENTICATION_BACKENDS = [
    "accounts.backends.ModelBackend",
    "accounts.backends.AuthenticationBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"

ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# The login form's labels in the site's words ("Username or email", not "Login").
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm"}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
# One address per account; changing it keeps the old one until the new one is confirmed.
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_USERNAME_MIN_LENGTH = 3
# Names that would look official. Names starting with "guest-" are kept for guests by
# accounts.adapter.AccountAdapter.
ACCOUNT_USERNAME_BLACKLIST = [
    "admin",
    "administrator",
    "guest",
    "guildhall",
    "root",
    "staff",
    "support",
    "system",
]
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# A player who asks for their account to be deleted may change their mind for this many
# days (accounts.deletion; logging in again cancels it); then the beat's sweep deletes it
# (games.privacy, docs/privacy.md).
ACCOUNT_DELETION_GRACE_DAYS = envint("ACCOUNT_DELETION_GRACE_DAYS", 14)
# allauth's rate limits, and ours: new guest accounts per client address (accounts.views).
ACCOUNT_RATE_LIMITS = {"guest": envstr("GUEST_RATE_LIMIT", "10/h/ip")}
ACCOUNT_EMAIL_SUBJECT_PREFIX = f"[{SITE_NAME}] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = urlsplit(SITE_URL).scheme

# --- Email --------------------------------------------------------------------------------------

EMAIL_HOST = envstr("EMAIL_HOST", "localhost")
EMAIL_PORT = envint("EMAIL_PORT", 587 if _env("EMAIL_HOST") else 25)
EMAIL_HOST_USER = envstr("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = envstr("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", bool(_env("EMAIL_HOST")))
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", 30)
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", f"{SITE_NAME} <noreply@localhost>")
SERVER_EMAIL = envstr("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
# Where the pages that say "contact us" link to (a mailto: link; accounts.context_processors):
# an address people may write to. Without it, the address of DEFAULT_FROM_EMAIL, unless that
# one reads nothing (a no-reply address, or one at localhost): then no page offers an address.
_SENDER = parseaddr(DEFAULT_FROM_EMAIL)[1]
_NO_REPLY = re.compile(r"^(no-?reply|do-?not-?reply)\b|@localhost$", re.IGNORECASE)
CONTACT_EMAIL = parseaddr(envstr("CONTACT_EMAIL", "" if _NO_REPLY.search(_SENDER) else _SENDER))[1]
if CONTACT_EMAIL and "@" not in CONTACT_EMAIL:
    raise ImproperlyConfigured("CONTACT_EMAIL must be an email address, e.g. help@example.com")
# Seconds before a notification the mail server refused is tried again; doubled at each try
# up to an hour (games.notifications.delivery).
NOTIFICATION_RETRY_SECONDS = envint("NOTIFICATION_RETRY_SECONDS", 60)
# A developer without EMAIL_HOST reads the mails (sign-up links, turn notices) in the console.
EMAIL_BACKEND = envstr(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG and not _env("EMAIL_HOST")
    # Django's SMTP backend, with the envelope sender below and no email to a bounced address.
    else "guildhall_site.upkeep.mail.EmailBackend",
)
# The envelope sender (SMTP MAIL FROM, the Return-Path of what arrives) of every email: where
# receiving servers send bounces, e.g. bounces@example.com or the address your mail provider
# gives for them. Empty: the From address (DEFAULT_FROM_EMAIL). docs/deploy.md, "Email
# deliverability".
EMAIL_BOUNCE_ADDRESS = parseaddr(envstr("EMAIL_BOUNCE_ADDRESS", ""))[1]
if _env("EMAIL_BOUNCE_ADDRESS") and "@" not in EMAIL_BOUNCE_ADDRESS:
    raise ImproperlyConfigured("EMAIL_BOUNCE_ADDRESS must be an email address")
# The secret the mail provider's webhook of bounces sends (Authorization: Bearer <token>, to
# POST /emails/bounces/); empty: no webhook (manage.py email_bounced records them instead).
EMAIL_BOUNCE_WEBHOOK_TOKEN = envstr("EMAIL_BOUNCE_WEBHOOK_TOKEN", "")

# --- Push notifications -------------------------------------------------------------------------

# Web Push (games/notifications/push.py): the site's VAPID key pair, base64url, as printed by
# `manage.py generate_vapid_keys`. Without both, push is off: the settings page offers none.
# Changing the pair invalidates every device's subscription (players enable push again).
VAPID_PUBLIC_KEY = envstr("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = envstr("VAPID_PRIVATE_KEY", "")
# Whom push services may contact about our messages: a mailto: or https: URL.
VAPID_SUBJECT = envstr("VAPID_SUBJECT", f"mailto:{CONTACT_EMAIL or _SENDER}")
if bool(VAPID_PUBLIC_KEY) != bool(VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured("Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither")
if not VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured("VAPID_SUBJECT must be a mailto: or https:// URL")
# The hosts a subscription's endpoint may name, and pushes go to (games/notifications/
# push_network.py): the browsers' push services. "*.example.com" is any subdomain of
# example.com; "*" any host name (the addresses are still checked).
PUSH_SERVICE_HOSTS = envlist(
    "PUSH_SERVICE_HOSTS",
    [
        "fcm.googleapis.com",
        "updates.push.services.mozilla.com",
        "*.notify.windows.com",
        "web.push.apple.com",
        "*.push.apple.com",
    ],
)
# Pushes go to public addresses only: a host that resolves to a loopback, private, link-local,
# reserved or multicast address is refused when connecting. Networks named here (CIDR, e.g.
# 10.8.0.0/16 for a push relay inside your network) are let through; none by default.
PUSH_ALLOWED_NETWORKS = envlist("PUSH_ALLOWED_NETWORKS", [])
for _network in PUSH_ALLOWED_NETWORKS:
    try:
        ipaddress.ip_network(_network, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"PUSH_ALLOWED_NETWORKS: {_network!r} is not a network, e.g. 10.8.0.0/16"
        ) from None

# --- API ----------------------------------------------------------------------------------------

# The JSON API under /api/v1/ (docs/api.md). Clients send "Authorization: Token <token>"; the
# site's own pages (and the docs page's "Try it out") use the session, with CSRF enforced.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.tokens.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["games.api.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["guildhall_site.parsers.BoundedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "games.api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.common.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "NUM_PROXIES": NUM_PROXIES,
}
# Tokens are django-rest-knox tokens stored as accounts.ApiToken (hashed, named, last use).
KNOX_TOKEN_MODEL = "accounts.ApiToken"
# knox's migrations create its own token table even when KNOX_TOKEN_MODEL replaces it (they
# do not mark it swappable), and that table's key to the users stops `flush` (tests on
# PostgreSQL). Without migrations, Django creates no table for a swapped-out model.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {
    # A token lives until its owner revokes it: a bot or a phone is not logged out by a clock.
    "TOKEN_TTL": None,
    # Makes a leaked token recognisable in logs, pastes and secret scanners.
    "TOKEN_PREFIX": "guild_",
    "AUTH_HEADER_PREFIX": "Token",
}
# A request body larger than this is refused with 413 before it is read. Actions are tiny.
API_MAX_BODY_BYTES = envint("API_MAX_BODY_BYTES", 16 * 1024)


def _envrate(name: str, default: str) -> str:
    """A DRF throttle rate such as 120/minute."""
    value = envstr(name, default)
    number, _, period = value.partition("/")
    if not number.isdigit() or period not in {"second", "minute", "hour", "day"}:
        raise ImproperlyConfigured(f"{name}={value!r} is not a rate: use e.g. 120/minute")
    return value


# Throttles (games.api.common), counted in the cache: per user, or per IP address without one.
API_THROTTLE_RATES = {
    # Every API request.
    "api": _envrate("API_THROTTLE_REQUESTS", "600/minute"),
    # Moves: a person makes a few a minute; a bot must not monopolise the database.
    "actions": _envrate("API_THROTTLE_ACTIONS", "120/minute"),
    # Saves of a private note, per user: the board saves as its player types.
    "notes": _envrate("API_THROTTLE_NOTES", "60/minute"),
    # Friends added or removed, per user, and per client address (several accounts).
    "friends": _envrate("API_THROTTLE_FRIENDS", "30/hour"),
    "friends_address": _envrate("API_THROTTLE_FRIENDS_ADDRESS", "90/hour"),
    # Lines written in games' chats, per user and per client address.
    "chat": _envrate("API_THROTTLE_CHAT", "20/minute"),
    "chat_address": _envrate("API_THROTTLE_CHAT_ADDRESS", "60/minute"),
    # Messages sent to other players, per user and per client address (a new account may
    # also start only a few conversations a day: games.community.messages).
    "messages": _envrate("API_THROTTLE_MESSAGES", "20/minute"),
    "messages_address": _envrate("API_THROTTLE_MESSAGES_ADDRESS", "60/minute"),
    # Reports of chat lines, messages and profiles, per user and per client address.
    "reports": _envrate("API_THROTTLE_REPORTS", "20/hour"),
    "reports_address": _envrate("API_THROTTLE_REPORTS_ADDRESS", "60/hour"),
    # Password attempts for a token, per IP address.
    "login": _envrate("API_THROTTLE_LOGIN", "10/minute"),
    # New tokens per user, from the API or the settings page.
    "tokens": _envrate("API_THROTTLE_TOKENS", "20/hour"),
    # Renewals of a push subscription (/push/renew/, no login), per client address: a browser
    # asks when its push service replaced the subscription, a few times a year.
    "push_renew": _envrate("PUSH_RENEW_THROTTLE", "30/hour"),
    # Downloads of everything the site holds about a player (games.privacy), per user, from
    # the API or the settings page: each reads all their games.
    "data_export": _envrate("API_THROTTLE_DATA_EXPORT", "5/hour"),
    # Deletions asked for and cancelled, per user, from the API or the settings page.
    "deletion": _envrate("API_THROTTLE_DELETION", "10/hour"),
}

# Webhooks (games/webhooks): seconds to connect, and to wait for each part of the answer.
WEBHOOK_TIMEOUT_SECONDS = envint("WEBHOOK_TIMEOUT_SECONDS", 5)
# Allow webhooks to http://127.0.0.1, http://localhost and http://[::1] (a receiver on the
# developer's machine): never in production, where a hook must be https on the internet.
WEBHOOK_ALLOW_LOOPBACK = envbool("WEBHOOK_ALLOW_LOOPBACK", DEBUG)

SPECTACULAR_SETTINGS = {
    "TITLE": "Guildhall API",
    "DESCRIPTION": (
        "Play the site's games (the catalog lists them) through JSON: list your games, read "
        "a game as your seat sees it, submit actions with the version you saw, read the move "
        "log and chat, answer invitations, join tournaments, and keep your account, friends "
        "and messages. Authenticate with `Authorization: Bearer <token>` (or `Token <token>`; "
        "create one on your settings page, or with POST /api/v1/auth/token/). Errors are "
        "`Error` objects; a method an endpoint does not take is a 405 whose `Allow` header "
        "lists those it takes. Lists are paginated (`count`, `next`, `previous`, `results`) "
        "unless their schema is an array: the catalog, your tokens and the announcements, all "
        "short. While the site is read-only for maintenance, every change is answered 503 "
        "(`maintenance`, with Retry-After) and reads go on."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # The documentation page loads Swagger UI from our static files, not from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No validatorUrl: Swagger UI would show a badge from validator.swagger.io (the CSP
    # blocks it, and the schema's address is nobody else's business).
    "SWAGGER_UI_SETTINGS": {
        "persistAuthorization": True,
        "displayOperationId": False,
        "validatorUrl": None,
    },
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.models.Game.Status",
        "InvitationStatusEnum": "games.models.Invitation.Status",
        "TournamentStatusEnum": "games.tournaments.models.Tournament.Status",
        "EntryStatusEnum": "games.tournaments.models.Entry.Status",
        "ErrorCodeEnum": "games.api.schema.ERROR_CODE_CHOICES",
        "ReportKindEnum": "games.community.moderation.models.Report.Kind",
        "ReportReasonEnum": "games.community.moderation.models.Report.Reason",
    },
    # Ids in paths are digits only (games.converters.IdConverter).
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 1}},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        # The engine's view and action objects, written by hand.
        "games.api.schema.add_components",
        # The event stream, a plain async view (games/api/stream.py).
        "games.api.stream.add_schema",
        # 500 (server_error) on every operation, the stream's too.
        "games.api.schema.add_server_errors",
        # 503 (maintenance) on every operation that changes something (guildhall_site/upkeep).
        "guildhall_site.upkeep.schema.add_maintenance",
        # X-RateLimit-* on every answer (guildhall_site.rest.ApiView; the stream's too).
        "guildhall_site.rest.rate_limit_headers",
    ],
}

# --- Internationalisation -----------------------------------------------------------------------

LANGUAGE_CODE = "en"
# Each language's name in itself, as the footer's switch shows it. French returns once the
# whole site is translated into it (tests/test_translations.py checks every language here).
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
USE_I18N = True
# The one catalogue of the site and of its game engines (django-admin makemessages -l de).
LOCALE_PATHS = [BASE_DIR / "locale"]
# Stored in UTC; each request shows times in the user's own zone (accounts.middleware).
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files -------------------------------------------------------------------------------

STATIC_URL = "static/"
# Where collectstatic puts the files WhiteNoise serves (the image: at build).
STATIC_ROOT = Path(envstr("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Production serves hashed, compressed files (run collectstatic first); development and
        # the tests serve the files as they are in each app's static/ folder.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage",
    },
}

# WhiteNoise looks up files in the apps' static/ folders on each request while developing; in
# production it serves STATIC_ROOT, filled by collectstatic. Spelled out because the tests run
# with DEBUG forced to false, and they must see the apps' files too.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Security -----------------------------------------------------------------------------------

# Behind a TLS-terminating proxy that sets X-Forwarded-Proto, set TRUST_X_FORWARDED_PROTO=true.
if envbool("TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", not DEBUG)
# Exempt a health check that the load balancer calls over plain HTTP, for example "^healthz$".
SECURE_REDIRECT_EXEMPT = envlist("SECURE_REDIRECT_EXEMPT", [])
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", not DEBUG)
# Django's database sessions, read in plain SQL (every logged-in request reads one).
SESSION_ENGINE = "accounts.sessions"
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", not DEBUG)
# One year of HSTS once live. A first deployment may want SECURE_HSTS_SECONDS=3600 until HTTPS
# is known to work, and SECURE_HSTS_PRELOAD=false unless the domain is submitted to the list.
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0 if DEBUG else 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy on every page (django-csp): scripts, styles, fonts, images and
# requests come from the site itself, never inline and never through eval. htmx runs with
# allowEval and its injected indicator style turned off (templates/base.html); Swagger UI's
# page loads its script from a URL (guildhall_site/urls.py) and its style sheet draws icons
# as data: images. How to add a script: docs/site.md.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        # The web app manifest and the service worker (/manifest.webmanifest, /sw.js).
        "manifest-src": ["'self'"],
        "worker-src": ["'self'"],
        # Nobody may frame the site (X_FRAME_OPTIONS says the same to older browsers).
        "frame-ancestors": ["'none'"],
    }
}
# Players stay logged in for weeks: games run for days and they come back from an email.
SESSION_COOKIE_AGE = envint("SESSION_COOKIE_AGE", 60 * 24 * 3600)

# --- Logging, metrics, error reports (guildhall_site/ops, docs/deploy.md) -------------------------

# plain: one line of text per record; json: one JSON object per line (time, level, logger,
# message, request_id), for a log collector.
LOG_FORMAT = envstr("LOG_FORMAT", "plain")
if LOG_FORMAT not in ("plain", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT={LOG_FORMAT!r}: use plain or json")
LOGGING = ops_logging.logging_config(LOG_FORMAT, envstr("LOG_LEVEL", "INFO"))
# A Celery worker logs through the settings above (with the task's id as request_id) rather
# than its own format, when the logs are JSON.
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT != "json"
# The proxies whose X-Forwarded-For names the client in the access logs of gunicorn and uvicorn
# (guildhall_site/ops/access_log.py): networks, comma-separated; loopback by default. A request
# from anyone else is logged with the address that connected, whatever header it sent.
TRUSTED_PROXIES = envlist("TRUSTED_PROXIES", ops_client_address.DEFAULT.split(","))
try:
    ops_client_address.networks(",".join(TRUSTED_PROXIES))
except ValueError:
    raise ImproperlyConfigured(
        f"TRUSTED_PROXIES={TRUSTED_PROXIES!r}: networks such as 127.0.0.1/32 or 10.0.0.0/8"
    ) from None

# /metrics for Prometheus (guildhall_site/ops/metrics.py): off unless METRICS_ENABLED, and then
# answered only to a bearer METRICS_TOKEN or to a client in METRICS_ALLOWED_NETWORKS (CIDR,
# comma-separated) that came directly (a request through a proxy needs the token).
METRICS_ENABLED = envbool("METRICS_ENABLED", False)
METRICS_TOKEN = envstr("METRICS_TOKEN", "")
METRICS_ALLOWED_NETWORKS = envlist("METRICS_ALLOWED_NETWORKS", [])
for _network in METRICS_ALLOWED_NETWORKS:
    try:
        ipaddress.ip_network(_network, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"METRICS_ALLOWED_NETWORKS: {_network!r} is not a network, e.g. 10.0.0.0/8"
        ) from None
if METRICS_ENABLED and not (METRICS_TOKEN or METRICS_ALLOWED_NETWORKS):
    raise ImproperlyConfigured(
        "METRICS_ENABLED needs METRICS_TOKEN or METRICS_ALLOWED_NETWORKS: who may read them"
    )
# A Celery worker's own /metrics (its tasks, emails, time-outs, computer moves): the port
# and address it listens on; none without METRICS_PORT.
METRICS_PORT = envint("METRICS_PORT", None)
METRICS_ADDRESS = envstr("METRICS_ADDRESS", "0.0.0.0")

# --- Watching the processes (guildhall_site/ops/heartbeat.py, docs/deploy.md "Health") -------

# Each worker lane, beat and the events process write a heartbeat to Redis every
# HEARTBEAT_SECONDS; one none of whose processes beat for HEARTBEAT_STALE_SECONDS is named by
# /readyz?deep=1, /metrics and compose's healthchecks.
HEARTBEAT_SECONDS = envint("HEARTBEAT_SECONDS", 10)
HEARTBEAT_STALE_SECONDS = envint("HEARTBEAT_STALE_SECONDS", 60)
if not 0 < HEARTBEAT_SECONDS < HEARTBEAT_STALE_SECONDS:
    raise ImproperlyConfigured("HEARTBEAT_SECONDS must be above 0, below HEARTBEAT_STALE_SECONDS")

# Error reports to Sentry (or a server speaking its protocol) when SENTRY_DSN is set, scrubbed
# of personal data and game secrets (guildhall_site/ops/sentry.py).
SENTRY_DSN = envstr("SENTRY_DSN", "")
SENTRY_ENVIRONMENT = envstr("SENTRY_ENVIRONMENT", "production")
# The share of requests and tasks traced for performance (0 to 1; 0: errors only).
try:
    SENTRY_TRACES_SAMPLE_RATE = float(envstr("SENTRY_TRACES_SAMPLE_RATE", "0"))
except ValueError:
    raise ImproperlyConfigured("SENTRY_TRACES_SAMPLE_RATE is a number from 0 to 1") from None
if SENTRY_DSN:
    from guildhall_site.ops import sentry as ops_sentry

    ops_sentry.init(
        SENTRY_DSN,
        environment=SENTRY_ENVIRONMENT,
        release=PAGE_CACHE_BUILD or None,
        traces_sample_rate=SENTRY_TRACES_SAMPLE_RATE,
    )
