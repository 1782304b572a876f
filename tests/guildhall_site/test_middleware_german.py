"""The site's own refusals in German (guildhall_site/middleware.py): before LocaleMiddleware,
the middleware picks the reader's language from the cookie or the browser itself."""

from django.conf import settings

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}


class TestNulCharacters:
    def test_a_page_refuses_them_in_the_browsers_language(self, client, db):
        response = client.get("/u/al%00ice/", **GERMAN)

        assert response.status_code == 400
        page = response.content.decode()
        assert "NUL-Zeichen" in page and "NUL character" not in page

    def test_the_footers_choice_counts_too(self, client, db):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"

        response = client.get("/api/v1/auth/tokens/a%00b/")

        assert response.status_code == 400
        assert "NUL-Zeichen" in response.json()["message"]

    def test_english_stays_english(self, client, db):
        response = client.get("/u/al%00ice/", HTTP_ACCEPT_LANGUAGE="en")

        assert "NUL character" in response.content.decode()
