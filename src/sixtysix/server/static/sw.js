// The service worker: the page's own files are kept, so that the game can be installed as
// an app and its pages open without a network; the network is always asked first, so a
// new version of the server is seen at once. Games, the API and the WebSocket are never
// cached: they need the server.
"use strict";

const CACHE = "sixtysix-pages-3";
const FILES = ["/", "/static/style.css", "/static/common.js", "/static/lobby.js", "/static/game.js",
               "/static/game.html", "/static/replay.js", "/static/replay.html", "/rules",
               "/static/rules.html", "/static/rules.js", "/static/icon.svg", "/cards/back.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

function kept(url) {
  return url.pathname === "/" || url.pathname === "/rules" || url.pathname.startsWith("/static/") ||
    url.pathname.startsWith("/cards/") || url.pathname.startsWith("/i18n/");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const page = request.mode === "navigate";
  if (!kept(url) && !page) return;  // the API: the network only
  event.respondWith(fetch(request).then((response) => {
    if (response.ok && kept(url)) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  }).catch(() => caches.match(request).then((hit) => {
    if (hit) return hit;
    // A game's or a replay's page, offline: the same file serves every game.
    if (page && url.pathname.startsWith("/game/")) return caches.match("/static/game.html");
    if (page && url.pathname.startsWith("/replay/")) return caches.match("/static/replay.html");
    return Response.error();
  })));
});
