/* Guildhall's own script, on every page (templates/base.html). A file, not an inline script:
   the Content-Security-Policy allows no other. Its texts are translated in base.html and read
   from the data-error-* attributes of #request-error.

   Polls (elements with data-poll) ask nothing while the page is hidden, and "pagevisible"
   (hx-trigger="pagevisible from:document") fires when it is shown again: htmx's [filter]
   expressions would need eval, which the policy forbids.

   An htmx request that fails without an answer htmx swaps (a 4xx or 5xx, no network, a
   time-out) says so: in the element with data-request-error inside the closest
   [data-error-scope] (the board's decision panel), or else in #request-error at the top of
   the screen. A failing poll shows one quiet notice, not an alert every few seconds; its next
   answer takes the notice away. The form stays usable: htmx ends the request (and its
   hx-sync lock) on every error. */
(function () {
  "use strict";

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      document.dispatchEvent(new Event("pagevisible"));
    }
  });

  function isPoll(elt) {
    return elt.hasAttribute("data-poll");
  }

  function boxFor(elt) {
    var scope = elt.closest("[data-error-scope]");
    var box = scope && scope.querySelector("[data-request-error]");
    return box || document.getElementById("request-error");
  }

  function hide(box) {
    box.hidden = true;
    box.textContent = "";
    delete box.dataset.quiet;
  }

  function show(elt, kind) {
    var box = boxFor(elt);
    var texts = document.getElementById("request-error").dataset;
    if (isPoll(elt)) {
      // Never over the message of something the person did, and only once.
      if (!box.hidden) return;
      kind = "Poll";
      box.dataset.quiet = "";
      box.setAttribute("role", "status");
    } else {
      box.removeAttribute("data-quiet");
      box.setAttribute("role", "alert");
    }
    box.textContent = texts["error" + kind];
    box.hidden = false;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (isPoll(elt)) {
      if (document.visibilityState !== "visible") event.preventDefault();
    } else {
      // A new try: an old message would read as this one's answer.
      hide(boxFor(elt));
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    var box = boxFor(elt);
    if (event.detail.successful && isPoll(elt) && box.hasAttribute("data-quiet")) hide(box);
  });

  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    // Maintenance (guildhall_site/upkeep): read-only for a while, not a fault.
    if (xhr.status === 503 && xhr.getResponseHeader("X-Maintenance")) {
      show(event.detail.elt, "Maintenance");
      return;
    }
    show(event.detail.elt, xhr.status >= 500 ? "Server" : "Refused");
  });
  document.addEventListener("htmx:sendError", function (event) {
    show(event.detail.elt, "Network");
  });
  document.addEventListener("htmx:timeout", function (event) {
    show(event.detail.elt, "Timeout");
  });
})();

/* The settings page (accounts/edit_profile.html): "Use my browser's time zone", in the element
   [data-browser-time-zone] (hidden until here), selects the zone the browser reports in the
   select whose id the attribute names. A zone the select lacks (an old name such as
   Asia/Calcutta, which the server knows too) is added to it. */
(function () {
  "use strict";

  var box = document.querySelector("[data-browser-time-zone]");
  var select = box && document.getElementById(box.getAttribute("data-browser-time-zone"));
  var zone = null;
  if (!select) return;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  if (!zone) return;
  box.hidden = false;
  box.querySelector("button").addEventListener("click", function () {
    var listed = Array.prototype.some.call(select.options, function (option) {
      return option.value === zone;
    });
    if (!listed) select.add(new Option(zone.replace(/_/g, " "), zone));
    select.value = zone;
    select.focus();
  });
})();
