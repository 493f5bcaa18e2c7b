/* The service worker of the follow pages (served at /sw.js, scope "/").
 * A push from the server (following.services, JSON: title, body, url, stop, stop_label, tag)
 * shows a notification with a "Stop notifications" button (stop_label: its words in the
 * club's language, for a worker has no catalog); tapping the notification opens (or
 * focuses) the follow page, tapping Stop posts the signed stop link: no more pushes or mails.
 * Open follow pages are told of each push, so they redraw at once. */
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var data = {};
  if (event.data) {
    try { data = event.data.json(); } catch (e) { data = { body: event.data.text() }; }
  }
  var options = {
    body: data.body || "",
    tag: data.tag || "follow",
    renotify: true,
    data: { url: data.url || "/", stop: data.stop || "" },
    actions: data.stop ? [{ action: "stop", title: data.stop_label || "Stop notifications" }]
                       : []
  };
  event.waitUntil(
    self.registration.showNotification(data.title || "Pinochle scoring", options).then(function () {
      return self.clients.matchAll({ type: "window" });
    }).then(function (windows) {
      windows.forEach(function (client) { client.postMessage({ type: "follow:push" }); });
    })
  );
});

self.addEventListener("notificationclick", function (event) {
  var data = event.notification.data || {};
  event.notification.close();
  if (event.action === "stop" && data.stop) {
    event.waitUntil(fetch(data.stop, { method: "POST", credentials: "same-origin",
                                       headers: { Accept: "application/json" } }));
    return;
  }
  var target = new URL(data.url || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url.split("?")[0] === target && "focus" in windows[i]) {
          return windows[i].focus();
        }
      }
      return self.clients.openWindow(target);
    }));
});
