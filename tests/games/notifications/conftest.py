from tests.mailserver import smtp, smtp_down  # noqa: F401 (fixtures)
