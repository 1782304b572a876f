/* Push notifications on the settings page (notifications/push_panel.html): a file, as the
   Content-Security-Policy wants; its texts are translated in the panel's data-text-*.

   The button shows only where the browser can receive push notifications (on iOS: a web app
   added to the home screen). Tapping it asks for permission (never before), registers the
   service worker, subscribes with the site's VAPID public key and posts the subscription to
   the site, which then lists this device; htmx reloads the list ("push-changed"). Removing
   this device from the list unsubscribes the browser too. */
(function () {
  "use strict";

  var panel = document.querySelector("[data-push-panel]");
  if (!panel) return;
  var offer = panel.querySelector("[data-push-enable]"); // the button's paragraph
  var button = offer.querySelector("button");
  var status = panel.querySelector("[data-push-status]");
  var texts = panel.dataset;
  var removing = null; // the endpoint of this device while its removal is under way

  function say(text) {
    status.textContent = text || "";
    status.hidden = !text;
  }

  if (!("serviceWorker" in navigator && "PushManager" in window && "Notification" in window)) {
    panel.querySelector("[data-push-unsupported]").hidden = false;
    return;
  }

  function keyBytes(base64url) {
    var base64 = (base64url + "===".slice((base64url.length + 3) % 4))
      .replace(/-/g, "+")
      .replace(/_/g, "/");
    var raw = window.atob(base64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function sameKey(subscription, key) {
    var theirs = subscription.options && subscription.options.applicationServerKey;
    if (!theirs) return true; // the browser does not say: assume it is ours
    theirs = new Uint8Array(theirs);
    if (theirs.length !== key.length) return false;
    for (var i = 0; i < key.length; i++) if (theirs[i] !== key[i]) return false;
    return true;
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (error) {
      return "";
    }
  }

  function registration() {
    return navigator.serviceWorker
      .register(panel.getAttribute("data-service-worker"), { scope: "/" })
      .then(function () {
        return navigator.serviceWorker.ready;
      });
  }

  function current() {
    return navigator.serviceWorker.getRegistration("/").then(function (found) {
      return found ? found.pushManager.getSubscription() : null;
    });
  }

  // Shows which device of the list this browser is, and the button if it is none.
  function update() {
    return current().then(function (subscription) {
      var mine = false;
      panel.querySelectorAll("[data-endpoint]").forEach(function (item) {
        var same = !!subscription && item.getAttribute("data-endpoint") === subscription.endpoint;
        item.querySelector("[data-push-this-device]").hidden = !same;
        mine = mine || same;
      });
      offer.hidden = mine;
      if (mine) {
        // This browser's device: remembered, so that a page can renew it (site/app.js).
        window.GuildhallPush.remember(subscription.endpoint, subscription.toJSON().keys.auth);
        say(texts.textOn);
      } else if (Notification.permission === "denied") say(texts.textDenied);
      else if (status.textContent === texts.textOn) say("");
    });
  }

  function subscribe() {
    var key = keyBytes(panel.getAttribute("data-vapid-key"));
    return registration().then(function (found) {
      var manager = found.pushManager;
      return manager.getSubscription().then(function (existing) {
        if (existing && sameKey(existing, key)) return existing;
        // One made with another key (the site changed its keys) cannot be reused.
        var gone = existing ? existing.unsubscribe() : Promise.resolve();
        return gone.then(function () {
          return manager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
        });
      });
    });
  }

  function send(subscription) {
    return fetch(panel.getAttribute("data-subscribe-url"), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(subscription),
    }).then(function (response) {
      return response
        .json()
        .catch(function () {
          return {};
        })
        .then(function (body) {
          if (!response.ok) throw new Error(body.error || texts.textFailed);
        });
    });
  }

  button.addEventListener("click", function () {
    button.disabled = true;
    say(texts.textWorking);
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") throw new Error(texts.textDenied);
        return subscribe();
      })
      .then(send)
      .then(function () {
        say(texts.textOn);
        offer.hidden = true;
        window.htmx.trigger(document.body, "push-changed");
      })
      .catch(function (error) {
        var known = error && error.message && error.name === "Error";
        say(known ? error.message : texts.textFailed);
      })
      .then(function () {
        button.disabled = false;
      });
  });

  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var item = event.detail.elt.closest("[data-endpoint]");
    removing = item && panel.contains(item) ? item.getAttribute("data-endpoint") : null;
  });

  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target.id !== "push-devices" && !panel.contains(event.detail.target)) return;
    var removed = removing;
    removing = null;
    current()
      .then(function (subscription) {
        if (removed && subscription && subscription.endpoint === removed) {
          window.GuildhallPush.forget();
          return subscription.unsubscribe();
        }
      })
      .then(update, update);
  });

  update().catch(function () {
    offer.hidden = false;
  });
})();
