// The service worker: the pages and their files are kept, so that the game can be
// installed as an app and every page opens without a network: the real page, whose
// banner then says that the server cannot be reached and which tries again (common.js,
// keepTrying). The network is always asked first, so a new version of the server is seen
// at once. Games, the API and the WebSocket are never cached: they need the server.
"use strict";

const CACHE = "sixtysix-pages-4";
// Each page by its file (a page of one game, player or tournament is the same file for all).
const PAGES = { "/": "/static/index.html", "/rules": "/static/rules.html", "/learn": "/static/lesson.html",
                "/tournaments": "/static/tournaments.html", "/account": "/static/account.html" };
const PAGES_UNDER = { "/game/": "/static/game.html", "/replay/": "/static/replay.html",
                      "/player/": "/static/player.html", "/tournament/": "/static/tournament.html" };
const SCRIPTS = ["/static/common.js", "/static/lobby.js", "/static/game.js", "/static/replay.js", "/static/rules.js",
                 "/static/lesson.js", "/static/player.js", "/static/tournaments.js", "/static/tournament.js",
                 "/static/account.js"];
const FILES = [...Object.keys(PAGES), ...Object.values(PAGES), ...Object.values(PAGES_UNDER), ...SCRIPTS,
               "/static/style.css", "/static/icon.svg", "/cards/back.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

function kept(url) {
  return url.pathname in PAGES || url.pathname.startsWith("/static/") || url.pathname.startsWith("/cards/") ||
    url.pathname.startsWith("/i18n/");
}

// The kept file that serves a page's address offline.
function pageFile(url) {
  if (url.pathname in PAGES) return PAGES[url.pathname];
  const prefix = Object.keys(PAGES_UNDER).find((p) => url.pathname.startsWith(p));
  return prefix ? PAGES_UNDER[prefix] : null;
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
  }).catch(() => caches.match(request, { ignoreSearch: page }).then((hit) => {
    if (hit) return hit;
    const file = page ? pageFile(url) : null;
    return file ? caches.match(file).then((found) => found || Response.error()) : Response.error();
  })));
});
