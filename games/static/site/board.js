/* The board's decision bar (games/board.html), on a phone, where it is pinned to the bottom
   of the screen:
   - it can be folded to its first line ([data-panel-toggle]); folded, it opens again with
     the next decision (a new version of the board);
   - the page scrolls with room for it (scroll-padding-bottom: its height), so that what a
     decision is about is never under it;
   - when it is the viewer's decision and nothing tappable on the board is in sight, the
     first thing to tap is scrolled into view.
   Without JavaScript the bar is as the page draws it.

   Card help: a card that is a choice (a submit button with data-help) opens its help
   popover on a long press or a right click instead of being played; a card that is not a
   choice opens it on a tap by itself (popovertarget). */
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

  // The help opens when the press ends (a popover opened during it would be closed at once
  // by its own release, as a tap outside it), and the click that ends it is not a move.
  var HOLD_MS = 450;
  var pressing = false;
  var pending = null; // the card whose help opens when the press ends
  var held = null; // the card whose click is not a move

  function openHelp(elt) {
    var help = document.getElementById(elt.dataset.help);
    if (!help || !help.showPopover) return false;
    if (!help.matches(":popover-open")) help.showPopover();
    return true;
  }

  function helpCard(event) {
    return event.target.closest ? event.target.closest("[data-help]") : null;
  }

  document.addEventListener("contextmenu", function (event) {
    var elt = helpCard(event);
    if (!elt || !document.getElementById(elt.dataset.help)) return;
    event.preventDefault();
    if (pressing) pending = elt;
    else openHelp(elt); // the keyboard's context-menu key
  });

  document.addEventListener("pointerdown", function (event) {
    pressing = true;
    var elt = helpCard(event);
    if (!elt || event.button !== 0) return;
    var x = event.clientX;
    var y = event.clientY;
    var timer = setTimeout(function () { pending = elt; }, HOLD_MS);
    function stop(e) {
      if (e.type === "pointermove" && Math.abs(e.clientX - x) + Math.abs(e.clientY - y) < 10) return;
      clearTimeout(timer);
      ["pointerup", "pointercancel", "pointermove"].forEach(function (name) {
        document.removeEventListener(name, stop, true);
      });
    }
    ["pointerup", "pointercancel", "pointermove"].forEach(function (name) {
      document.addEventListener(name, stop, true);
    });
  }, true);

  document.addEventListener("pointerup", function () {
    pressing = false;
    if (!pending) return;
    var elt = pending;
    pending = null;
    held = elt;
    setTimeout(function () { openHelp(elt); held = null; }, 0);
  }, true);
  document.addEventListener("pointercancel", function () { pressing = false; pending = null; }, true);

  document.addEventListener("click", function (event) {
    if (held && helpCard(event) === held) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  document.addEventListener("DOMContentLoaded", setUp);
  // After any swap: the board is swapped whole (its outerHTML), by a move or a poll.
  document.addEventListener("htmx:afterSettle", setUp);
  pinned.addEventListener("change", setUp);
  window.addEventListener("resize", function () { roomForPanel(panel()); });
})();
