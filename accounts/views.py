from allauth.core import ratelimit
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import backends, services
from accounts.forms import GuestConversionForm, ProfileForm
from accounts.http import AuthenticatedHttpRequest


@login_required
def edit_profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your settings are saved."))
        return redirect("accounts:edit_profile")
    return render(request, "accounts/edit_profile.html", {"form": form})


@require_POST
def play_as_guest(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    # Per client address (ACCOUNT_RATE_LIMITS["guest"]): one client once made 400 in seconds.
    if limited := ratelimit.consume_or_429(request, action="guest"):
        return limited
    guest = services.do_create_guest()
    login(request, guest, backend=backends.MODEL)
    # Only a greeting: the dashboard says once, under its heading, what saving the account is
    # for (games/templates/games/dashboard.html).
    messages.success(request, _("Welcome, %(name)s!") % {"name": guest.name})
    return redirect("home")


@login_required
def convert_guest(request: AuthenticatedHttpRequest) -> HttpResponse:
    user = request.user
    if not user.is_guest:
        return redirect("accounts:edit_profile")
    form = GuestConversionForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        user = services.do_convert_guest(
            request,
            user,
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
        )
        # The password changed: keep this session logged in.
        update_session_auth_hash(request, user)
        messages.success(
            request,
            _(
                "Your account is saved as %(username)s. We sent a link to %(email)s: "
                "open it to confirm the address."
            )
            % {"username": user.username, "email": user.email},
        )
        return redirect("home")
    return render(request, "accounts/convert_guest.html", {"form": form})
