# The site's image (docs/deploy.md): one image for every process (web, worker, computer, beat,
# release); compose.yaml picks the command. Built from the same uv.lock as development and CI.
#
#   docker build -t guildhall .
FROM python:3.11-slim-bookworm

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PROJECT_ENVIRONMENT=/app/.venv

# pg_dump and pg_restore for manage.py backup; nothing else from Debian.
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir uv==0.13.9

WORKDIR /app
# The dependencies first (their layer is kept while only the code changes), exactly as locked,
# without the development tools.
COPY pyproject.toml uv.lock ./
RUN uv sync --locked --no-dev --no-install-project
COPY . .
RUN uv sync --locked --no-dev

ENV PATH=/app/.venv/bin:$PATH \
    DEBUG=false \
    STATIC_ROOT=/app/staticfiles \
    PROMETHEUS_MULTIPROC_DIR=/run/guildhall/metrics \
    BEAT_SCHEDULE=/var/lib/guildhall/celerybeat-schedule

# The static files, hashed and compressed, into the image (settings need some secret to load;
# this one serves nothing and is never used at run time).
RUN SECRET_KEY=collectstatic-at-build-only python manage.py collectstatic --noinput

# Not root: the code and static files are root's, read-only to the site's user.
RUN useradd --system --uid 10001 --user-group --home-dir /var/lib/guildhall guildhall \
    && mkdir -p /var/lib/guildhall/backups /run/guildhall/metrics \
    && chown -R guildhall:guildhall /var/lib/guildhall /run/guildhall
USER guildhall

EXPOSE 8000
# docs/Procfile's web
CMD ["gunicorn", "-c", "python:guildhall_site.ops.gunicorn", "guildhall_site.wsgi"]
