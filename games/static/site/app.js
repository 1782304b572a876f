/* The installable web app (templates/base.html): registers the service worker /sw.js, whose
   address is this script's data-service-worker, on every page. The worker caches static
   files only (pages stay fresh from the server) and shows push notifications
   (guildhall_site/webapp.py).

   Push: this browser remembers the endpoint of the subscription it gave the site, and its
   auth secret (site/push.js calls GuildhallPush.remember). Browsers replace subscriptions
   now and then; if a page finds another one than it gave, it tells the site
   (data-push-renew), proving with the old secret that it is that browser, and the site moves
   the device to the new address. The worker does the same at once where the browser says so
   (pushsubscriptionchange). */
(function () {
  "use strict";

  var KEY = "guildhall-push-endpoint";
  var AUTH = "guildhall-push-auth"; // the old subscription's secret: the proof of a renewal

  function store(action) {
    try {
      return action(window.localStorage);
    } catch (error) {
      return null; // storage refused (a private window): nothing is remembered
    }
  }

  window.GuildhallPush = {
    remember: function (endpoint, auth) {
      store(function (s) {
        s.setItem(KEY, endpoint);
        s.setItem(AUTH, auth || "");
      });
    },
    forget: function () {
      store(function (s) {
        s.removeItem(KEY);
        s.removeItem(AUTH);
      });
    },
  };

  var script = document.currentScript;
  var url = script && script.getAttribute("data-service-worker");
  var renewUrl = script && script.getAttribute("data-push-renew");
  if (!url || !("serviceWorker" in navigator)) return;

  function renewPush(registration) {
    var known = store(function (s) {
      return s.getItem(KEY);
    });
    var secret = store(function (s) {
      return s.getItem(AUTH);
    });
    if (!known || !renewUrl || !registration.pushManager) return;
    return registration.pushManager.getSubscription().then(function (subscription) {
      // None: push was turned off in the browser; the site drops the device when its push
      // service says it is gone.
      if (!subscription || subscription.endpoint === known) return;
      return fetch(renewUrl, {
        method: "POST",
        credentials: "omit",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          old_endpoint: known,
          old_auth: secret,
          subscription: subscription.toJSON(),
        }),
      }).then(function (response) {
        // Accepted (the site says no more, whether it knew the device or not): this is the
        // address to renew from next time.
        if (response.ok) {
          window.GuildhallPush.remember(subscription.endpoint, subscription.toJSON().keys.auth);
        }
        // Push is off on the site: nothing to renew.
        else if (response.status === 404) window.GuildhallPush.forget();
      });
    });
  }

  window.addEventListener("load", function () {
    navigator.serviceWorker
      .register(url, { scope: "/" })
      .then(function () {
        return navigator.serviceWorker.ready;
      })
      .then(renewPush)
      .catch(function () {
        // No worker (a private window that refuses it...): the site works the same without.
      });
  });
})();
