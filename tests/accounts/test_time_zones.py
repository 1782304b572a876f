"""The time zone: a picker grouped by region on the settings page, and lenient reading of
typed names ("Berlin", "new york") on the settings form and in the API, by one function."""

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse

from accounts.time_zones import choices, label, parse_time_zone, utc_offset
from tests.games.api_helpers import Api

SETTINGS = reverse("accounts:edit_profile")


def settings_data(**changes):
    data = {"display_name": "", "time_zone": "UTC", "language": "en", "turn_emails": "never"}
    return data | changes


def optgroup(page: str, label: str) -> str:
    match = re.search(rf'<optgroup label="{label}">(.*?)</optgroup>', page, re.DOTALL)
    assert match, f"no group {label!r}"
    return match.group(1)


def selected(page: str) -> list[str]:
    """The chosen options of the time zone's select."""
    select = re.search(r'<select name="time_zone".*?</select>', page, re.DOTALL)
    assert select, "no time zone select"
    return re.findall(r'<option value="([^"]*)" selected>', select.group(0))


class TestParse:
    @pytest.mark.parametrize(
        "typed, name",
        [
            ("Europe/Berlin", "Europe/Berlin"),
            ("  Europe/Berlin ", "Europe/Berlin"),
            ("Berlin", "Europe/Berlin"),
            ("berlin", "Europe/Berlin"),
            ("Europe/berlin", "Europe/Berlin"),
            ("EUROPE/BERLIN", "Europe/Berlin"),
            ("New York", "America/New_York"),
            ("new york", "America/New_York"),
            ("new_york", "America/New_York"),
            ("America/New York", "America/New_York"),
            ("Buenos Aires", "America/Argentina/Buenos_Aires"),
            ("Argentina / Buenos Aires", "America/Argentina/Buenos_Aires"),
            ("utc", "UTC"),
            # Exact names the machine knows stay as they are, old aliases included.
            ("US/Eastern", "US/Eastern"),
            ("America/Buenos_Aires", "America/Buenos_Aires"),
            # A place only an old alias names.
            ("Calcutta", "Asia/Calcutta"),
        ],
    )
    def test_it_takes_the_one_zone_meant(self, typed, name):
        assert parse_time_zone(typed) == name

    def test_an_ambiguous_name_names_the_candidates(self):
        with pytest.raises(ValidationError) as caught:
            parse_time_zone("Eastern")

        assert caught.value.code == "ambiguous_time_zone"
        (message,) = caught.value.messages
        assert "Canada/Eastern" in message and "US/Eastern" in message
        assert "Use the whole name of the one you mean." in message

    @pytest.mark.parametrize("typed", ["Mars/Olympus", "Atlantis", "Asia", "Europe/", "/", ""])
    def test_an_unknown_name_says_what_to_use(self, typed):
        with pytest.raises(ValidationError) as caught:
            parse_time_zone(typed)

        assert caught.value.code == "invalid_time_zone"
        assert "Use a name like Europe/Berlin or UTC." in caught.value.messages[0]


class TestLabels:
    def test_a_place_and_todays_offset(self):
        winter = datetime(2027, 1, 15, 12, tzinfo=UTC)
        summer = datetime(2027, 7, 15, 12, tzinfo=UTC)

        assert label("Europe/Berlin", winter) == "Berlin (UTC+01:00)"
        assert label("Europe/Berlin", summer) == "Berlin (UTC+02:00)"
        assert label("America/New_York", winter) == "New York (UTC-05:00)"
        assert label("America/Argentina/Buenos_Aires", winter) == (
            "Argentina / Buenos Aires (UTC-03:00)"
        )
        assert utc_offset("Asia/Kolkata", winter) == "UTC+05:30"
        assert utc_offset("Africa/Abidjan", winter) == "UTC"

    def test_regions_group_the_zones(self):
        groups = {str(group): entries for group, entries in choices()[1:]}

        assert choices()[0] == ("UTC", "UTC (Coordinated Universal Time)")
        assert {"Africa", "America", "Asia", "Europe", "Pacific Ocean"} <= set(groups)
        assert "Europe/Berlin" in dict(groups["Europe"])
        assert "America/New_York" in dict(groups["America"])
        # One entry per zone of zone.tab (Oslo is there though the tz data makes it Berlin's
        # alias), none of the old names.
        assert "Europe/Oslo" in dict(groups["Europe"])
        assert not any(name.startswith("US/") for entries in groups.values() for name, _ in entries)
        places = [label for _, label in groups["Europe"]]
        assert places == sorted(places, key=str.casefold)


class TestSettingsPage:
    def test_a_select_grouped_by_region_with_the_current_zone_chosen(self, client, alice):
        alice.time_zone = "America/New_York"
        alice.save()
        client.force_login(alice)

        page = client.get(SETTINGS).content.decode()

        assert '<select name="time_zone"' in page
        assert 'list="time-zones"' not in page  # no more free text with suggestions
        assert re.search(
            r'<option value="Europe/Berlin">Berlin \(UTC\+0[12]:00\)</option>',
            optgroup(page, "Europe"),
        )
        assert re.search(
            r'<option value="America/New_York" selected>New York \(UTC-0[45]:00\)</option>',
            optgroup(page, "America"),
        )
        assert '<option value="America/Argentina/Buenos_Aires">Argentina / Buenos Aires' in (
            optgroup(page, "America")
        )
        assert selected(page) == ["America/New_York"]

    def test_an_old_name_stays_chosen_and_is_kept_on_saving(self, client, alice):
        alice.time_zone = "US/Eastern"
        alice.save()
        client.force_login(alice)

        page = client.get(SETTINGS).content.decode()

        assert selected(page) == ["US/Eastern"]
        assert '<option value="US/Eastern" selected>' in optgroup(page, "Other")
        client.post(SETTINGS, settings_data(time_zone="US/Eastern"))
        alice.refresh_from_db()
        assert alice.time_zone == "US/Eastern"

    @pytest.mark.parametrize(
        "typed, name",
        [
            ("Berlin", "Europe/Berlin"),
            ("europe/berlin", "Europe/Berlin"),
            ("New York", "America/New_York"),
        ],
    )
    def test_a_typed_name_from_an_old_form_is_read_leniently(self, client, alice, typed, name):
        client.force_login(alice)

        response = client.post(SETTINGS, settings_data(time_zone=typed))

        assert response.status_code == 302
        alice.refresh_from_db()
        assert alice.time_zone == name

    def test_an_ambiguous_name_is_refused_with_the_candidates(self, client, alice):
        client.force_login(alice)

        response = client.post(SETTINGS, settings_data(time_zone="Eastern"))

        assert response.status_code == 200
        page = response.content.decode()
        assert "could be several time zones: Canada/Eastern, US/Eastern" in page
        alice.refresh_from_db()
        assert alice.time_zone == "UTC"

    def test_an_unknown_name_leaves_nothing_chosen_but_the_prompt(self, client, alice):
        client.force_login(alice)

        page = client.post(SETTINGS, settings_data(time_zone="Atlantis")).content.decode()

        assert "is not a time zone we know" in page
        assert selected(page) == [""]
        assert '<option value="" selected>Choose your time zone</option>' in page

    def test_it_offers_the_browsers_zone_by_script(self, client, alice):
        client.force_login(alice)

        page = client.get(SETTINGS).content.decode()

        assert re.search(
            r'<p class="time-zone-from-browser" hidden\s+data-browser-time-zone="id_time_zone">',
            page,
        )
        assert "Use my browser's time zone" in page
        script = (Path(settings.BASE_DIR) / "games/static/site/site.js").read_text()
        assert "[data-browser-time-zone]" in script
        assert "resolvedOptions().timeZone" in script


class TestApi:
    @pytest.mark.parametrize(
        "typed, name",
        [
            ("Berlin", "Europe/Berlin"),
            ("new york", "America/New_York"),
            ("Europe/berlin", "Europe/Berlin"),
        ],
    )
    def test_it_reads_the_zone_like_the_settings_page(self, alice, typed, name):
        response = Api(alice).patch("/api/v1/me/preferences/", {"time_zone": typed})

        assert response.status_code == 200
        assert response.json()["time_zone"] == name
        alice.refresh_from_db()
        assert alice.time_zone == name

    def test_an_ambiguous_name_is_refused_with_the_candidates(self, alice):
        response = Api(alice).patch("/api/v1/me/preferences/", {"time_zone": "Eastern"})

        assert response.status_code == 400
        (message,) = response.json()["fields"]["time_zone"]
        assert "could be several time zones: Canada/Eastern, US/Eastern" in message
        alice.refresh_from_db()
        assert alice.time_zone == "UTC"
