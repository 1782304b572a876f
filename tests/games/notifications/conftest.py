from tests.mailserver import smtp, smtp_down  # noqa: F401 (fixtures)
from tests.pushserver import listener, push_down, push_service, vapid  # noqa: F401 (fixtures)
