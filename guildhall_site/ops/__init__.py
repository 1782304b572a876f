"""Running the site for real (docs/deploy.md): health probes, Prometheus metrics, error
reports to Sentry, JSON logs with a request id, backups, and gunicorn's configuration.

Below every app: it imports nothing of ``games`` or ``accounts`` (the ``ops-below`` contract in
pyproject.toml), so that the actions, the pages and the tasks may record their figures here
(``guildhall_site.ops.metrics``) without an arrow running back up.
"""
