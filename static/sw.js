// webcalc's service worker. The app serves it at /sw.js (webcalc/web/assets.py), writing in
// the lists below (fingerprinted URLs) and the version; this file at /static/sw.js is only
// that template. Hand-written and small on purpose: docs/decisions.md, "Offline, install and
// caching".
//
// What it does:
// - install: keeps the shell (CSS, JS, htmx, icons, the offline page, the empty calculator,
//   the rules index) in the cache "webcalc-shell-<version>"; a fingerprinted file an older
//   worker already kept is copied over, not fetched again;
// - pages (navigations): the network first; a page that is the same for everyone (the empty
//   calculator, the rules pages, the offline page) is kept each time it arrives and shown
//   from the cache without a network; any other page (a computed hand) is answered with the
//   offline page, which says it needs the network;
// - the first rules page read online also fetches every other rules page (a few at a time),
//   so the rules can be read offline;
// - /static/ files: from the cache, else the network (fingerprinted names never change);
// - everything else, and every table page (/t/…) and API call (/api/…), goes to the network
//   untouched: this worker keeps nothing of a table.
"use strict";

const VERSION = "__VERSION__";
const SHELL = /*SHELL*/[];
const RULES = /*RULES*/[];
const SHELL_CACHE = "webcalc-shell-" + VERSION;
const SHELL_PREFIX = "webcalc-shell-";   // the only caches an update deletes
const HASHED = /\.[0-9a-f]{10}\.[A-Za-z0-9]+$/;

// Routes, first match wins; a route without a handler leaves the request to the network.
// TABLES: the table pages' offline copy goes here, before "pages": its own cache (say
// "webcalc-tables", not starting with SHELL_PREFIX, so an update keeps it), dropped by
// "forget this table"; the ledger API's queued entries likewise.
const ROUTES = [
  { name: "tables", test: (url) => url.pathname === "/t" || url.pathname.startsWith("/t/"),
    handler: null },
  { name: "api", test: (url) => url.pathname.startsWith("/api/"), handler: null },
  { name: "static", test: (url) => url.pathname.startsWith("/static/"), handler: staticFile },
  { name: "pages", test: (url, request) => request.mode === "navigate", handler: page },
];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    await Promise.all(SHELL.map(async (url) => {
      if (HASHED.test(url)) {
        const old = await caches.match(url);
        if (old) { await cache.put(url, old); return; }
      }
      // pages revalidated: an HTTP-cached copy could name files of the last version
      const response = await fetch(url, { cache: HASHED.test(url) ? "default" : "no-cache" });
      if (!response.ok) throw new Error(url + ": " + response.status);
      await cache.put(url, response);
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(SHELL_PREFIX) && name !== SHELL_CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const route = ROUTES.find((r) => r.test(url, request));
  if (route && route.handler) event.respondWith(route.handler(request, url, event));
});

async function staticFile(request) {
  return (await caches.match(request, { ignoreVary: true })) || fetch(request);
}

// the same for everyone: the empty calculator, the rules pages, the offline page, each with
// at most ?lang=zh|en
function kept(url) {
  const bare = url.search === "" || /^\?lang=(zh|en)$/.test(url.search);
  return bare && (url.pathname === "/" || url.pathname === "/rules" ||
                  url.pathname === "/offline" || /^\/rules\/[^/]+$/.test(url.pathname));
}

async function page(request, url, event) {
  const key = url.origin + url.pathname + url.search;
  try {
    const response = await fetch(request);
    if (kept(url) && response.ok && response.type === "basic") {
      const copy = response.clone();
      event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.put(key, copy)));
      if (url.pathname.startsWith("/rules")) event.waitUntil(keepRules(url.searchParams.get("lang")));
    }
    return response;
  } catch (error) {
    const copy = kept(url) && await caches.match(key, { ignoreVary: true });
    if (copy) return copy;
    return offlinePage(url);
  }
}

// the offline page in the page's language: ?lang= when the URL has one, else the one the
// browser asked for when the shell was kept
async function offlinePage(url) {
  const lang = url.searchParams.get("lang");
  const key = lang === "zh" || lang === "en" ? "/offline?lang=" + lang : "/offline";
  const copy = await caches.match(key, { ignoreVary: true });
  if (!copy) return Response.error();
  return new Response(copy.body, { status: 503, statusText: "Offline", headers: copy.headers });
}

// every rules page in the language just read, once per worker and language, four at a time
const rulesKept = new Set();
async function keepRules(lang) {
  const tail = lang === "zh" || lang === "en" ? "?lang=" + lang : "";
  if (rulesKept.has(tail)) return;
  rulesKept.add(tail);
  const cache = await caches.open(SHELL_CACHE);
  const todo = RULES.map((u) => u + tail);
  async function next() {
    for (let url = todo.shift(); url; url = todo.shift()) {
      if (await cache.match(url, { ignoreVary: true })) continue;
      try {
        const response = await fetch(url);
        if (response.ok) await cache.put(url, response);
      } catch (error) {
        rulesKept.delete(tail);   // try again with the next rules page read online
        return;
      }
    }
  }
  await Promise.all([next(), next(), next(), next()]);
}
