from tests.mailserver import smtp  # noqa: F401 (fixture)
