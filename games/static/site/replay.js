/* The replay's keys (games/replay.html): the arrows step back and forth, with Shift (or
   Page Up / Page Down) a turn at a time, Home and End go to the start and the end. Each key
   follows the page's own link (htmx swaps the replay), so that it does what a tap does.
   Not while typing, nor on the slider or a menu, which take the arrows themselves. */
(function () {
  "use strict";

  var KEYS = {
    ArrowLeft: 'a[rel="prev"]',
    ArrowRight: 'a[rel="next"]',
    PageUp: '[data-replay-key="turn-prev"]',
    PageDown: '[data-replay-key="turn-next"]',
    Home: 'a[rel="first"]',
    End: 'a[rel="last"]'
  };
  var SHIFTED = { ArrowLeft: KEYS.PageUp, ArrowRight: KEYS.PageDown };

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var replay = document.getElementById("replay");
    var t = event.target;
    if (!replay || (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)))) return;
    var selector = (event.shiftKey && SHIFTED[event.key]) || KEYS[event.key];
    var link = selector && replay.querySelector(selector);
    if (!link) return;
    event.preventDefault();
    link.click();
  });
})();
