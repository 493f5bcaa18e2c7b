/* The table phone's service worker (served by scoring.views.table_service_worker at {{ worker_path }};
 * its scope is {{ scope }}). It lets a table's entry page open without a network: the page
 * (/t/<token>/), its live fragment (/t/<token>/live/) and the static files are fetched from the
 * network first and a copy of each is kept; when the network fails (or, for a page or a file,
 * says nothing for a few seconds while a copy exists), the copy answers. A page or fragment answered from the copy says
 * so (data-copy="cache"), so the page knows its score may be behind. The API is never kept:
 * hands saved offline wait in the page's own queue (static/js/offline_queue.js). */
"use strict";

var CACHE = "table-entry-v1";
var SCOPE = "{{ scope|escapejs }}";
var STATIC = "{{ static_url|escapejs }}";
var WAIT = 8000;       // ms a page or file may keep the network silent before its copy answers
var MAX_PAGES = 40;    // table pages kept (a phone may open many tables in an evening)

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("table-entry-") === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

/* A table page (/t/<token>/ or /t/<token>/live/) or a static file of this site. */
function kind(url) {
  if (url.origin !== self.location.origin) { return null; }
  if (url.pathname.indexOf(STATIC) === 0) { return "static"; }
  if (url.pathname.indexOf(SCOPE) === 0 &&
      /^[A-Za-z0-9_-]+\/(live\/)?$/.test(url.pathname.slice(SCOPE.length))) { return "page"; }
  return null;
}

/* Pages are kept by path (a ?saved=N on the address is the same page). */
function keyOf(url) {
  return kind(url) === "page" ? url.origin + url.pathname : url.href;
}

function trim(cache) {
  return cache.keys().then(function (keys) {
    var pages = keys.filter(function (request) { return kind(new URL(request.url)) === "page"; });
    return Promise.all(pages.slice(0, Math.max(0, pages.length - MAX_PAGES)).map(function (request) {
      return cache.delete(request);
    }));
  });
}

function keep(key, response) {
  if (!response || !response.ok || response.type !== "basic") { return Promise.resolve(); }
  return caches.open(CACHE).then(function (cache) {
    return cache.put(key, response).then(function () { return trim(cache); });
  });
}

/* A kept copy; an HTML one marked as such. */
function copyOf(key) {
  return caches.open(CACHE).then(function (cache) { return cache.match(key); }).then(function (copy) {
    if (!copy) { return null; }
    var type = copy.headers.get("Content-Type") || "";
    if (type.indexOf("text/html") !== 0) { return copy; }
    return copy.text().then(function (html) {
      return new Response(html.replace('data-copy="network"', 'data-copy="cache"'), {
        status: copy.status, statusText: copy.statusText, headers: copy.headers
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (!kind(url)) { return; }  // the API and everything else: straight to the network
  var key = keyOf(url);
  var network = fetch(request);
  event.waitUntil(network.then(function (response) {
    return keep(key, response.clone());
  }).catch(function () { /* no network: nothing to keep */ }));
  event.respondWith(new Promise(function (resolve, reject) {
    var answered = false;
    function answer(response) { if (!answered && response) { answered = true; resolve(response); } }
    // A Wi-Fi that is joined but dead can hold a request for a minute: after WAIT the copy
    // answers a page or a file. The live fragment waits for the network (the page asks it in
    // the background, and an old copy of it is no help once the page is on screen).
    var timer = /\/live\/$/.test(url.pathname) ? null
      : setTimeout(function () { copyOf(key).then(answer); }, WAIT);
    network.then(function (response) {
      if (timer) { clearTimeout(timer); }
      answer(response);
    }, function (error) {
      if (timer) { clearTimeout(timer); }
      copyOf(key).then(function (copy) {
        if (copy) { answer(copy); } else if (!answered) { answered = true; reject(error); }
      });
    });
  }));
});

/* The page's first visit happened before this worker ran: it sends the addresses to keep. */
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "cache" || !Array.isArray(data.urls)) { return; }
  var urls = data.urls.map(function (u) { return new URL(u, self.location.href); })
    .filter(function (url) { return kind(url); });
  event.waitUntil(Promise.all(urls.map(function (url) {
    return fetch(url.href, { credentials: "same-origin" }).then(function (response) {
      return keep(keyOf(url), response);
    }).catch(function () { /* kept on a later visit */ });
  })).then(function () {
    if (event.source) { event.source.postMessage({ type: "cached" }); }
  }));
});
