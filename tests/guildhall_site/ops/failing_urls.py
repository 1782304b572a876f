"""The site's URLs and views that fail holding secrets, for the error reports' scrubber."""

import logging

from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from guildhall_site.urls import handler500  # noqa: F401 (Django looks for it here)
from guildhall_site.urls import urlpatterns as site_urlpatterns

log = logging.getLogger("games.tests")

HAND = ["Hand-Card-Farmer-7", "Hand-Card-Weaver-3"]
SEED = 982451653


@csrf_exempt
def broken(request, username: str):
    state = {"hands": [HAND, []], "seed": SEED, "deck": [1, 2, 3]}  # noqa: F841 (a local)
    log.error("Could not mail %s about %s", "alice@example.org", {"hands": HAND})
    raise RuntimeError(f"a bug while mailing alice@example.org with token guild_{'x' * 40}")


urlpatterns = [path("broken/<str:username>/", broken), *site_urlpatterns]
