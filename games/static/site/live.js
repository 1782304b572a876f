/* The board follows its game's event stream (GET /api/v1/events/?game=<id>, Server-Sent
   Events: games/api/stream.py) where the site offers one (the poll's data-events): each
   event triggers the board's poll at once ("live" in its hx-trigger) instead of at its next
   tick. The poll stays as it was: it is the fallback where the stream is missing or broken.
   <html data-live="on"> while the stream is open (the browser tests wait for it). */
(function () {
  "use strict";

  var source = null;

  function poll() {
    return document.querySelector("[data-poll][data-events]");
  }

  function bringForward() {
    var elt = poll();
    if (elt && window.htmx && document.visibilityState === "visible") {
      window.htmx.trigger(elt, "live");
    }
  }

  function connect() {
    var elt = poll();
    if (!elt || source || typeof window.EventSource !== "function") return;
    source = new window.EventSource(elt.dataset.events);
    source.addEventListener("open", function () {
      document.documentElement.dataset.live = "on";
    });
    source.addEventListener("error", function () {
      delete document.documentElement.dataset.live;  // EventSource tries again by itself
    });
    source.addEventListener("game", bringForward);
    source.addEventListener("chat", bringForward);
  }

  document.addEventListener("DOMContentLoaded", connect);
  // A game that ends takes its poll away: nothing more to follow.
  document.addEventListener("htmx:afterSettle", function () {
    if (source && !poll()) {
      source.close();
      source = null;
      delete document.documentElement.dataset.live;
    }
  });
})();
