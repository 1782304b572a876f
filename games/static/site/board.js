/* The board's decision bar (games/board.html), on a phone, where it is pinned to the bottom
   of the screen:
   - it can be folded to its first line ([data-panel-toggle]); folded, it opens again with
     the next decision (a new version of the board);
   - the page scrolls with room for it (scroll-padding-bottom: its height), so that what a
     decision is about is never under it;
   - when it is the viewer's decision and nothing tappable on the board is in sight, the
     first thing to tap is scrolled into view.
   Without JavaScript the bar is as the page draws it. */
(function () {
  "use strict";

  var pinned = window.matchMedia("(max-width: 999px)");
  var folded = null; // the version of the board the bar was folded at
  var revealed = null; // the version whose decision was last brought into view

  function board() { return document.getElementById("board"); }
  function panel() { return document.querySelector("#board .panel"); }

  function fold(p, on) {
    var toggle = p.querySelector("[data-panel-toggle]");
    p.classList.toggle("folded", on);
    if (toggle) {
      toggle.setAttribute("aria-expanded", on ? "false" : "true");
      toggle.textContent = on ? toggle.dataset.show : toggle.dataset.hide;
    }
  }

  function roomForPanel(p) {
    var height = pinned.matches && p ? p.offsetHeight : 0;
    document.documentElement.style.scrollPaddingBottom = height ? height + 8 + "px" : "";
  }

  function inSight(elt, p) {
    var r = elt.getBoundingClientRect();
    var bottom = pinned.matches ? p.getBoundingClientRect().top : window.innerHeight;
    return r.width > 0 && r.top >= 0 && r.bottom <= bottom;
  }

  function reveal(p, version) {
    if (revealed === version || !p.classList.contains("mine")) return;
    revealed = version;
    var targets = Array.prototype.filter.call(
      document.querySelectorAll("#board-form .tap"),
      function (elt) { return !p.contains(elt) && elt.getClientRects().length; }
    );
    if (!targets.length || targets.some(function (elt) { return inSight(elt, p); })) return;
    targets[0].scrollIntoView({ block: "center" });
  }

  function setUp() {
    var b = board();
    var p = panel();
    if (!b || !p) return;
    var version = b.dataset.version;
    var toggle = p.querySelector("[data-panel-toggle]");
    if (toggle) {
      toggle.hidden = !pinned.matches;
      toggle.onclick = function () {
        var on = !p.classList.contains("folded");
        folded = on ? version : null;
        fold(p, on);
        roomForPanel(p);
      };
    }
    fold(p, pinned.matches && folded === version);
    roomForPanel(p);
    reveal(p, version);
  }

  document.addEventListener("DOMContentLoaded", setUp);
  // After any swap: the board is swapped whole (its outerHTML), by a move or a poll.
  document.addEventListener("htmx:afterSettle", setUp);
  pinned.addEventListener("change", setUp);
  window.addEventListener("resize", function () { roomForPanel(panel()); });
})();
