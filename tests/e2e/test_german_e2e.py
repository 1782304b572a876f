"""German on a phone: German words are longer than English ones ("Push-Benachrichtigungen",
"Gildenhalle"), and none of them may push a page wider than a 375 px phone. Every page a
German player opens is loaded in chromium at 375x812 and must not scroll sideways; a failure
names the elements that stick out."""

from django.utils import translation

from accounts.models import User
from games.guildhall.cards import profession_name
from tests.e2e.conftest import PHONE, log_in
from tests.games.helpers import start_game
from tests.guildhall_site.test_german_site import pages_of

# What sticks out past the right edge: the innermost elements, each with its text's start.
STICKING_OUT = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 1) continue;
    if ([...el.children].some((c) => c.getBoundingClientRect().right > width + 1)) continue;
    const style = getComputedStyle(el);
    if (style.position === "fixed" && style.visibility === "hidden") continue;
    let scroller = el.parentElement;
    let clipped = false;
    while (scroller && scroller !== document.body) {
      const overflow = getComputedStyle(scroller).overflowX;
      if (overflow !== "visible") { clipped = true; break; }
      scroller = scroller.parentElement;
    }
    if (clipped) continue;  // inside a box that scrolls or clips on its own
    const text = (el.textContent || "").trim().slice(0, 40);
    out.push(el.tagName.toLowerCase() + "." + el.className + ": " + text);
  }
  return {scrollWidth: document.documentElement.scrollWidth, width, out};
}"""


def test_every_page_fits_a_phone(live_server, phone, alice, bob, screenshots):
    User.objects.filter(pk=alice.pk).update(language="de")
    page = phone()
    log_in(page, live_server.url, "/")
    wide = {}
    for path in pages_of(alice, bob):
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        assert page.locator("html").get_attribute("lang") == "de", path
        found = page.evaluate(STICKING_OUT)
        if found["scrollWidth"] > PHONE["width"] or found["out"]:
            wide[path] = found
            name = path.strip("/").replace("/", "-").replace("?", "-") or "dashboard"
            page.screenshot(path=str(screenshots / f"de-phone-{name}.png"), full_page=True)
    assert not wide, wide


def test_the_check_sees_what_sticks_out(live_server, phone, db):
    page = phone()
    page.goto(live_server.url + "/accounts/login/")
    assert page.evaluate(STICKING_OUT)["out"] == []

    page.evaluate(
        """() => {
          const word = document.createElement("span");
          word.className = "long";
          word.textContent = "Donaudampfschifffahrtsgesellschaftskapitänsmütze".repeat(2);
          document.querySelector("main").append(word);
        }"""
    )

    found = page.evaluate(STICKING_OUT)
    assert found["scrollWidth"] > PHONE["width"]
    assert [text.split(":")[0] for text in found["out"]] == ["span.long"]


def test_every_card_name_fits_a_hand_card_on_a_phone(live_server, phone, alice, bob):
    """A hand card on a phone is a quarter of its width: each profession's name, usual and
    Fantasy, must fit whole in German, the longer language, rather than end in "…"."""
    User.objects.filter(pk=alice.pk).update(language="de")
    game = start_game(alice, bob)
    with translation.override("de"):
        names = [str(profession_name(p, f)) for f in (False, True) for p in range(6)]
    page = phone()
    log_in(page, live_server.url, f"/games/{game.pk}/")

    cut = page.evaluate(
        """(names) => {
          const name = document.querySelector(".hand .card .card-name");
          const cut = [];
          for (const n of names) {
            name.lastChild.textContent = n;
            if (name.scrollWidth > name.clientWidth) cut.push(n);
          }
          return cut;
        }""",
        names,
    )

    assert "Historiker" in names and cut == []
