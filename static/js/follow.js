/* The follow page's "Notify me": with a tap (never before: browsers refuse, and people dislike,
 * a permission asked for unprompted) it asks for notification permission, registers the
 * service worker (/sw.js, scope "/"), subscribes with the server's VAPID public key
 * (data-vapid-key) and posts the subscription to data-subscribe-url. Where the browser cannot
 * (no service worker or push, a page not served over HTTPS or from this machine), the button
 * stays hidden and the note says the page updates by itself while open (seating_board.js).
 * A push the worker receives while this page is open makes it check its seat at once.
 * On iOS outside a Home Screen app (where Safari offers no push) it shows how to install it. */
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalog, /jsi18n/, loaded before this script);
  // English when the catalog is absent (the table page kept offline).
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = window.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };
  var box = document.querySelector("[data-follow]");
  if (!box) { return; }
  var button = document.getElementById("follow-notify-me");
  var note = document.getElementById("follow-push-note");
  var key = box.getAttribute("data-vapid-key");
  var supported = window.isSecureContext && "serviceWorker" in navigator &&
    "PushManager" in window && "Notification" in window;

  function say(text) { note.textContent = text; }

  function keyBytes(text) {
    var base64 = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(base64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }

  function csrf() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function post(subscription) {
    return fetch(box.getAttribute("data-subscribe-url"), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify({ subscription: subscription.toJSON ? subscription.toJSON() : subscription })
    }).then(function (response) {
      if (!response.ok) { throw new Error("HTTP " + response.status); }
    });
  }

  function notifyMe() {
    button.disabled = true;
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        say(gettext("Notifications are blocked for this site: allow them in the browser's settings, or keep this page open."));
        return null;
      }
      return navigator.serviceWorker.register("/sw.js", { scope: "/" })
        .then(function () { return navigator.serviceWorker.ready; })
        .then(function (registration) {
          return registration.pushManager.getSubscription().then(function (existing) {
            return existing || registration.pushManager.subscribe(
              { userVisibleOnly: true, applicationServerKey: keyBytes(key) });
          });
        })
        .then(post)
        .then(function () {
          box.setAttribute("data-push", "on");
          say(gettext("Notifications on: this phone is told where you sit as soon as a round is seated."));
        });
    }).catch(function (error) {
      box.setAttribute("data-push", "failed");
      box.setAttribute("data-push-error", (error && (error.name + ": " + error.message)) || "");
      say(gettext("This phone could not be subscribed. Keep this page open: it updates by itself."));
    }).then(function () { button.disabled = false; });
  }

  // iOS and iPadOS (16.4 and later) let only a page opened from the Home Screen receive pushes:
  // in Safari itself, say how to get there. (An iPad asks as a Mac, with a touch screen.)
  var ios = /iPhone|iPad|iPod/.test(navigator.userAgent) ||
    (/Macintosh/.test(navigator.userAgent) && navigator.maxTouchPoints > 1);
  var standalone = navigator.standalone === true ||
    (window.matchMedia && window.matchMedia("(display-mode: standalone)").matches);
  var install = document.getElementById("follow-ios-install");
  if (install && ios && !standalone && box.getAttribute("data-push") !== "on") {
    install.hidden = false;
  }

  if (supported && button && key) {
    button.hidden = false;
    button.addEventListener("click", notifyMe);
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "follow:push") {
        var live = document.querySelector("[data-live-wall]");
        if (live) { live.dispatchEvent(new CustomEvent("follow:push")); }
      }
    });
  } else if (box.getAttribute("data-push") !== "on") {
    say(gettext("This browser cannot be notified from this page; it updates by itself while it is open."));
  }
})();
