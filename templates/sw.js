{% autoescape off %}// Cardroom's service worker: keeps the static files and the offline page, never a page of the
// site (pages show players, tables and hands: they always come from the server), and shows
// the push notifications the server sends (games/live/push.py).
"use strict";
var CACHE = "{{ cache_name }}";
var OFFLINE = {{ offline_url }};
var STATIC = {{ static_prefix }};

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) {
      return cache.addAll({{ precache }});
    }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("cardroom-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // A page: from the server only; the offline page when the server cannot be reached.
    event.respondWith(fetch(request).catch(function () {
      return caches.match(OFFLINE);
    }));
    return;
  }
  if (url.pathname.indexOf(STATIC) === 0) {
    // A static file: the kept copy at once, refreshed from the server for next time.
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (kept) {
        var fresh = fetch(request).then(function (response) {
          if (response.ok) cache.put(request, response.clone());
          return response;
        });
        if (kept) {
          fresh.catch(function () {});
          return kept;
        }
        return fresh;
      });
    }));
  }
});

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {}; }
  event.waitUntil(self.registration.showNotification(data.title || "Cardroom", {
    body: data.body || "",
    tag: data.tag || "",
    renotify: Boolean(data.tag),
    icon: "{{ icon }}",
    data: {url: data.url || "/"}
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL(event.notification.data.url || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({type: "window", includeUncontrolled: true}).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === url && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(url);
  }));
});
{% endautoescape %}
