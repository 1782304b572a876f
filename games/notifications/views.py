"""One-click unsubscribe, without logging in.

The link in every email (and its List-Unsubscribe header) names a user and a category,
signed (``preferences.unsubscribe_token``). GET shows a confirmation page whose one button
unsubscribes; it never unsubscribes by itself, because mail scanners follow links. POST
unsubscribes: from that button, or straight from a mail program honouring
``List-Unsubscribe-Post: List-Unsubscribe=One-Click`` (RFC 8058), which sends no CSRF token:
the signed token is what authorises the request.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games.notifications import preferences


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    found = preferences.read_unsubscribe_token(token)
    if found is None:
        return render(request, "notifications/unsubscribe_invalid.html", status=404)
    user, category = found
    context = {
        "person": user,
        "category": category,
        "what": preferences.DESCRIPTION[category],
        "token": token,
    }
    if request.method == "POST":
        preferences.unsubscribe(user, category)
        return render(request, "notifications/unsubscribed.html", context)
    return render(request, "notifications/unsubscribe.html", context)
