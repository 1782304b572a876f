from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "games/welcome.html")
    # The games app fills the dashboard in: games waiting for this player's move first, then
    # the games waiting for others, then open invitations.
    return render(request, "games/dashboard.html", {"games_to_play": [], "games_waiting": []})
