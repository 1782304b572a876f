from tests.mailserver import smtp  # noqa: F401 (fixtures)
from tests.webhookserver import receiver  # noqa: F401 (fixtures)
