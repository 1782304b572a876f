/* The installable web app (templates/base.html): registers the service worker /sw.js, whose
   address is this script's data-service-worker, on every page. The worker caches static
   files only (pages stay fresh from the server) and shows push notifications
   (guildhall_site/webapp.py). */
(function () {
  "use strict";

  var script = document.currentScript;
  var url = script && script.getAttribute("data-service-worker");
  if (!url || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
      // No worker (a private window that refuses it...): the site works the same without.
    });
  });
})();
