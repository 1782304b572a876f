from tests.pushserver import listener, push_service, vapid  # noqa: F401 (fixtures)
