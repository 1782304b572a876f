/* Guildhall's service worker, built by guildhall_site/webapp.py (read its docstring).
   Static files only: every other request (pages, htmx, the API) goes to the server as if
   there were no worker. */
"use strict";

var VERSION = "{{ version }}";
var CACHE = "static-" + VERSION;
var PRECACHE = {{ precache|safe }};
var STATIC_PREFIX = {{ static_prefix|safe }};
// Hashed names never change: answer from the cache first. Otherwise ask the server first.
var CACHE_FIRST = {{ cache_first|safe }};
var ICON = {{ icon|safe }};
var RENEW_URL = {{ renew_url|safe }};

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches
      .open(CACHE)
      .then(function (cache) {
        // One file that fails must not stop the worker from installing.
        return Promise.all(
          PRECACHE.map(function (url) {
            return cache.add(url).catch(function () {});
          })
        );
      })
      .then(function () {
        return self.skipWaiting();
      })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (name) {
              return name.indexOf("static-") === 0 && name !== CACHE;
            })
            .map(function (name) {
              return caches.delete(name);
            })
        );
      })
      .then(function () {
        return self.clients.claim();
      })
  );
});

function isStatic(request) {
  if (request.method !== "GET") return false;
  var url = new URL(request.url);
  return url.origin === self.location.origin && url.pathname.indexOf(STATIC_PREFIX) === 0;
}

function fetchAndStore(cache, request) {
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") cache.put(request, response.clone());
    return response;
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (!isStatic(request)) return;
  event.respondWith(
    caches.open(CACHE).then(function (cache) {
      if (CACHE_FIRST) {
        return cache.match(request).then(function (hit) {
          return hit || fetchAndStore(cache, request);
        });
      }
      return fetchAndStore(cache, request).catch(function (error) {
        return cache.match(request).then(function (hit) {
          if (hit) return hit;
          throw error;
        });
      });
    })
  );
});

// A link of ours: its path on this site, whatever address the server thinks it has.
function ownPath(url) {
  try {
    var parsed = new URL(url, self.location.origin);
    return parsed.pathname + parsed.search + parsed.hash;
  } catch (error) {
    return "/";
  }
}

self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};
  }
  var options = {
    body: data.body || "",
    icon: ICON,
    data: { url: ownPath(data.url || "/") },
  };
  if (data.tag) {
    options.tag = data.tag;
    options.renotify = true;
  }
  // A decision with one obvious answer: a button that gives it (push_answers on the site).
  if (data.answer && data.answer.token) {
    options.actions = [{ action: "answer", title: String(data.answer.title || "") }];
    options.data.answer = { url: ownPath(data.answer.url || "/"), token: data.answer.token };
  }
  event.waitUntil(self.registration.showNotification(data.title || "Guildhall", options));
});

function openPage(target) {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (list) {
    for (var i = 0; i < list.length; i++) {
      if (list[i].url === target && "focus" in list[i]) return list[i].focus();
    }
    return self.clients.openWindow(target);
  });
}

// The answer button: post its token with this device's endpoint (the site checks both); if
// the site refuses it (the game moved on, an old notice) or cannot be reached, open the game.
function giveAnswer(answer, target) {
  return self.registration.pushManager
    .getSubscription()
    .then(function (subscription) {
      return fetch(answer.url, {
        method: "POST",
        credentials: "omit",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          token: answer.token,
          endpoint: subscription ? subscription.endpoint : "",
        }),
      });
    })
    .then(function (response) {
      if (!response.ok) return openPage(target);
    })
    .catch(function () {
      return openPage(target);
    });
}

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var data = event.notification.data || {};
  var target = new URL(data.url || "/", self.location.origin).href;
  if (event.action === "answer" && data.answer) {
    event.waitUntil(giveAnswer(data.answer, target));
    return;
  }
  event.waitUntil(openPage(target));
});

// The push service renewed or expired the subscription (Firefox says so; others may not):
// subscribe again with the same options and tell the site, which moves the device to the new
// address. Without the old subscription the site cannot know which device this is: the next
// page renews it (site/app.js).
self.addEventListener("pushsubscriptionchange", function (event) {
  var old = event.oldSubscription;
  if (!old) return;
  var renewed = event.newSubscription
    ? Promise.resolve(event.newSubscription)
    : self.registration.pushManager.subscribe(old.options);
  event.waitUntil(
    renewed
      .then(function (subscription) {
        return fetch(RENEW_URL, {
          method: "POST",
          credentials: "omit",
          headers: { "Content-Type": "application/json" },
          // The old subscription's auth secret proves that this is its browser.
          body: JSON.stringify({
            old_endpoint: old.endpoint,
            old_auth: (old.toJSON().keys || {}).auth,
            subscription: subscription.toJSON(),
          }),
        });
      })
      .catch(function () {
        // Offline: the next page renews it.
      })
  );
});
