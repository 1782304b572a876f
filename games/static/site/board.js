/* The board's decision bar (games/board.html), on a phone, where it is pinned to the bottom
   of the screen:
   - it keeps to its prompt and main choices (class "compact", at most a fifth of the
     screen); "More" ([data-panel-toggle]) shows the rest until the next decision (a new
     version of the board);
   - the page scrolls with room for it (scroll-padding-bottom: its height), so that what a
     decision is about is never under it; likewise at the top where a wider screen's bar
     sticks to the top (Guildhall's);
   - when it is the viewer's decision and nothing to tap on the board is in sight, the
     first thing to tap is scrolled into view.
   Without JavaScript the bar is as the page draws it.

   Keyboard: after a new board comes in, a player who uses the keyboard finds the focus on
   the first choice of the new decision (else on the prompt), and the prompt is read out by
   the live region #board-live. Keys: 1-9 the choices in order (their digit shown once the
   keyboard is used), u Undo, e End turn ([data-key]), ? the keys' help (#board-keys).

   Card help: a card that is a choice (a submit button with data-help) opens its help
   popover on a long press or a right click instead of being played; a card that is not a
   choice opens it on a tap by itself (popovertarget). */
(function () {
  "use strict";

  var pinned = window.matchMedia("(max-width: 999px)");
  // The board scrolls to its decision itself: the browser's restoring of the last scroll
  // position, after the page loads, would take it away again.
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  var expanded = null; // the version of the board the bar was opened in full at
  var revealed = null; // the version whose decision was last brought into view
  var moved = false; // the player scrolled or tapped since
  var announced = null; // the version whose prompt the live region last read
  var keyboard = false; // the player uses the keyboard (since their last pointer)

  function board() { return document.getElementById("board"); }
  function panel() { return document.querySelector("#board .panel"); }

  function visible(elt) { return elt.getClientRects().length > 0; }

  function compact(p, on) {
    var toggle = p.querySelector("[data-panel-toggle]");
    p.classList.toggle("compact", on);
    p.classList.toggle("expanded", pinned.matches && !on);
    if (toggle) {
      toggle.setAttribute("aria-expanded", on ? "false" : "true");
      toggle.textContent = on ? toggle.dataset.more : toggle.dataset.less;
    }
  }

  // Whether "More" would show anything: a part the compact bar hides, or a cut prompt.
  function hasMore(p) {
    if (p.querySelector(".more, .undo, .act-reset")) return true;
    var prompt = p.querySelector(".prompt");
    return !!prompt && prompt.scrollHeight > prompt.clientHeight + 1;
  }

  // Where the bar sticks: "bottom" (a phone's), "top" (Guildhall's on a desktop), or ""
  // (in the flow: Renaissance Man's on a desktop).
  function stuck(p) {
    var style = getComputedStyle(p);
    if (style.position !== "sticky") return "";
    return style.top !== "auto" ? "top" : "bottom";
  }

  function roomForPanel(p) {
    var where = p ? stuck(p) : "";
    var room = where ? p.offsetHeight + 8 + "px" : "";
    var root = document.documentElement.style;
    root.scrollPaddingBottom = where === "bottom" ? room : "";
    root.scrollPaddingTop = where === "top" ? room : "";
  }

  // In sight: in the viewport, and not under the bar.
  function inSight(elt, p) {
    var r = elt.getBoundingClientRect();
    var where = stuck(p);
    var bar = p.getBoundingClientRect();
    var top = where === "top" ? bar.bottom : 0;
    var bottom = where === "bottom" ? bar.top : window.innerHeight;
    return r.width > 0 && r.top >= top - 1 && r.bottom <= bottom + 1;
  }

  // The choices of the decision outside the bar (cards, chips, a hand card's actions).
  function targets(p) {
    return Array.prototype.filter.call(
      document.querySelectorAll("#board-form button[name=action], #board-form button[name=actions]"),
      function (elt) { return !p.contains(elt) && visible(elt); }
    );
  }

  // What the decision is about ([data-subject]: Renaissance Man's own structure) comes
  // into sight whole, above a phone's bar; else the first choice outside the bar does.
  function reveal(p, version) {
    if (!p.classList.contains("mine")) return;
    // A part swapped in above the board (htmx) may push what was in sight under the bar:
    // looked at again after each swap, until the player scrolls or taps for themselves.
    if (revealed === version && moved) return;
    if (revealed !== version) moved = false;
    revealed = version;
    var subject = document.querySelector("#board [data-subject]");
    if (subject && p.contains(subject)) return; // in the bar itself (Guildhall's order)
    if (subject && visible(subject)) {
      if (!inSight(subject, p)) subject.scrollIntoView({ block: pinned.matches ? "start" : "nearest" });
      return;
    }
    var found = targets(p);
    if (!found.length || found.some(function (elt) { return inSight(elt, p); })) return;
    found[0].scrollIntoView({ block: "center" });
  }

  // The listed choices, in order: every action button but those with a key of their own
  // (Undo, End turn) and those the compact bar hides.
  function choices() {
    return Array.prototype.filter.call(
      document.querySelectorAll(
        "#board-form button[name=action]:not([data-key]), #board-form button[name=actions]"
      ),
      visible
    );
  }

  function number(list) {
    document.querySelectorAll("#board-form [data-digit]").forEach(function (elt) {
      elt.removeAttribute("data-digit");
    });
    list.slice(0, 9).forEach(function (elt, i) { elt.setAttribute("data-digit", String(i + 1)); });
  }

  function announce(p, version) {
    var live = document.getElementById("board-live");
    var prompt = p.querySelector(".prompt");
    if (!live || !prompt || announced === version) return;
    var first = announced === null;
    announced = version;
    if (first) return; // the page's own first prompt: read as the page is
    live.textContent = prompt.textContent.trim();
  }

  // After a new board: the focus, lost with the old one, goes to the next decision.
  function keepFocus(p) {
    var active = document.activeElement;
    if (!keyboard || (active && active !== document.body && document.contains(active))) return;
    var mine = p.classList.contains("mine");
    // The first listed choice, else End turn (a decision with no other choice but Undo).
    var target = mine && (choices()[0] || document.querySelector('#board-form [data-key="e"]'));
    if (!target) {
      target = p.querySelector(".prompt");
      if (!target) return;
      target.setAttribute("tabindex", "-1");
    }
    target.focus();
  }

  // A part the player opened ([data-keep-open]: Guildhall's "whole order, one card at a
  // time") stays open on the next board that has it, with the phone's bar opened in full.
  var keptOpen = false;

  function reopen(p, version) {
    var part = keptOpen && p.querySelector("details[data-keep-open]");
    keptOpen = false;
    if (!part) return;
    part.open = true;
    expanded = version;
  }

  function setUp() {
    var b = board();
    var p = panel();
    if (!b || !p) return;
    var version = b.dataset.token || b.dataset.version;
    var toggle = p.querySelector("[data-panel-toggle]");
    reopen(p, version);
    compact(p, pinned.matches && expanded !== version);
    if (toggle) {
      toggle.hidden = !pinned.matches || !hasMore(p);
      toggle.onclick = function () {
        var on = !p.classList.contains("compact");
        expanded = on ? null : version;
        compact(p, on);
        roomForPanel(p);
      };
    }
    roomForPanel(p);
    number(choices());
    announce(p, version);
    keepFocus(p);
    reveal(p, version);
  }

  // A key presses its button even where the phone's compact bar hides it (Undo).
  function press(elt, hidden) {
    if (!elt || elt.disabled || (!hidden && !visible(elt))) return false;
    elt.click();
    return true;
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Tab" || event.key === "Enter" || event.key === " ") {
      keyboard = true;
      document.documentElement.classList.add("keys");
    }
    if (event.ctrlKey || event.metaKey || event.altKey || !board()) return;
    var t = event.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var done = false;
    if (event.key === "?") {
      var help = document.getElementById("board-keys");
      if (help && help.togglePopover) { help.togglePopover(); done = true; }
    } else if (event.key === "u" || event.key === "e") {
      done = press(document.querySelector('#board-form [data-key="' + event.key + '"]'), true);
    } else if (/^[1-9]$/.test(event.key)) {
      done = press(choices()[Number(event.key) - 1]);
    }
    if (done) {
      keyboard = true;
      document.documentElement.classList.add("keys");
      event.preventDefault();
    }
  });
  document.addEventListener("pointerdown", function () { keyboard = false; }, true);

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

  // A new board never comes in under a choice being made (issue 47: a script stalled when
  // the others' "has chosen" swapped the board between a button's press and its release, or
  // while its move was on its way, whose answer then had no board to go to). While a press
  // on the board lasts and while a move is on its way, the poll asks nothing and an answer
  // it already had is dropped; once the choice is over, the poll asks again at once. The
  // move's own answer is the board as stored after it, so nothing is missed.
  var pressed = false; // a pointer is down on the board
  var move = null; // the request of this page's move on its way
  var missed = false; // a poll was held back meanwhile
  // The polls' requests: an answer's events name its target (the board), not the poll.
  var polls = new WeakSet();

  function isPoll(elt) { return !!(elt && elt.hasAttribute && elt.hasAttribute("data-poll")); }
  function isMove(elt) { return !!(elt && elt.closest && elt.closest("#board-form")); }
  // (The move's own events stop reaching the document once its answer replaced the form:
  // its request says when it is over.)
  function choosing() { return pressed || (move !== null && move.readyState !== 4); }

  function catchUp() {
    if (choosing() || !missed) return;
    missed = false;
    var poll = document.querySelector("#board [data-poll]");
    if (poll && window.htmx) window.htmx.trigger(poll, "live");
  }

  document.addEventListener("pointerdown", function (event) {
    var b = board();
    if (b && b.contains(event.target)) pressed = true;
  }, true);
  ["pointerup", "pointercancel"].forEach(function (name) {
    document.addEventListener(name, function () {
      if (!pressed) return;
      // After the click this release makes (and the move it may send) has begun.
      setTimeout(function () { pressed = false; catchUp(); }, 0);
    }, true);
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (isPoll(elt) && choosing()) {
      missed = true;
      event.preventDefault();
    } else if (isPoll(elt) && event.detail.xhr) {
      polls.add(event.detail.xhr);
    } else if (isMove(elt) && event.detail.xhr) {
      move = event.detail.xhr;
      move.addEventListener("loadend", function () { setTimeout(catchUp, 0); });
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    keptOpen = !!document.querySelector("#board details[data-keep-open][open]");
    // A poll's answer during a choice, or for a board already replaced: not shown.
    if (polls.has(event.detail.xhr) && (choosing() || !document.contains(event.detail.target))) {
      missed = missed || choosing();
      event.detail.shouldSwap = false;
    }
  });

  ["wheel", "touchstart", "pointerdown", "keydown"].forEach(function (name) {
    window.addEventListener(name, function () { moved = true; }, { passive: true, capture: true });
  });
  document.addEventListener("DOMContentLoaded", setUp);
  // The first look came before the page's fonts and late layout, which can push the subject
  // under a phone's bar afterwards: look once more when they are in.
  window.addEventListener("load", function () {
    var ready = document.fonts ? document.fonts.ready : Promise.resolve();
    ready.then(function () {
      var b = board();
      var p = panel();
      if (!b || !p) return;
      revealed = null;
      reveal(p, b.dataset.token || b.dataset.version);
    });
  });
  // After any swap: the board is swapped whole (its outerHTML), by a move or a poll.
  document.addEventListener("htmx:afterSettle", setUp);
  pinned.addEventListener("change", setUp);
  window.addEventListener("resize", function () { roomForPanel(panel()); });
})();
