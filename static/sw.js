// webcalc's service worker. The app serves it at /sw.js (webcalc/web/assets.py), writing in
// the lists below (fingerprinted URLs) and the version; this file at /static/sw.js is only
// that template. Hand-written and small on purpose: docs/decisions.md, "Offline, install and
// caching".
//
// Where: under a script root (SCRIPT_NAME=/calc, docs/SERVING.md) the app serves it at
// /calc/sw.js and static/js/app.js registers it with the scope /calc/. Every path below (the
// lists, the routes, /t/<token>, /offline) is the app's own, as at the root: a URL's path is
// read relative to the worker's scope (appPath) and a path made a URL by ROOT + path, so the
// same bytes work at / and under any prefix.
//
// What it does:
// - install: keeps the shell (CSS, JS, htmx, icons, the offline page, the empty calculator,
//   the rules index, 我的牌桌) in the cache "webcalc-shell-<version>"; a fingerprinted file an older
//   worker already kept is copied over, not fetched again;
// - pages (navigations): the network first; a page that is the same for everyone (the empty
//   calculator, the rules pages, the offline page) is kept each time it arrives and shown
//   from the cache without a network; any other page (a computed hand) is answered with the
//   offline page, which says it needs the network;
// - the first rules page read online also fetches every other rules page (a few at a time),
//   so the rules can be read offline;
// - /static/ files: from the cache, else the network (fingerprinted names never change);
// - a table page (/t/<token>): the network first; the last copy of each table page this
//   phone opened (with no room state in its URL) is kept in the cache "webcalc-tables"
//   (ledger.js keeps the last answer of its poll, /t/<token>/live, there too) (an update keeps it; "forget this
//   table" on 我的牌桌 drops them), and the copy is shown without a network, marked with the
//   time it was kept (data-offline-copy on <html>: static/js/ledger.js says "offline since");
//   when the network answers 404 or 410 for the page or its poll (a revoked or replaced
//   link), every copy of that table page (each language, its poll's) is dropped at once: the
//   edit link inside a copy must not outlive the link itself (docs/LEDGER.md "Tokens");
// - 记入 without a network (a POST of the entry to /t/<edit>/hands that does not reach the
//   server): the posted fields and the action are kept in IndexedDB ("webcalc", store
//   "queue"), and the answer is the table page again (303), whose ledger.js sends the queue
//   in order once the network is back (docs/decisions.md, "Offline, install and caching");
// - every other table URL and API call (/api/…) goes to the network untouched.
"use strict";

const VERSION = "__VERSION__";
const SHELL = /*SHELL*/[];
const RULES = /*RULES*/[];
const SHELL_CACHE = "webcalc-shell-" + VERSION;
const SHELL_PREFIX = "webcalc-shell-";   // the only caches an update deletes
const HASHED = /\.[0-9a-f]{10}\.[A-Za-z0-9]+$/;
// the app's script root: "" when the scope is "/", "/calc" when it is "/calc/"
const ROOT = new URL(self.registration.scope).pathname.replace(/\/$/, "");

// the app's path of ``url`` ("/t/mine" for /calc/t/mine under /calc), or null: not the
// app's (another origin, or outside the scope)
function appPath(url) {
  if (url.origin !== self.location.origin) return null;
  if (ROOT === "") return url.pathname;
  return url.pathname.startsWith(ROOT + "/") ? url.pathname.slice(ROOT.length) : null;
}

const TABLES_CACHE = "webcalc-tables";  // not SHELL_PREFIX: an update keeps it
// /t/<token> (the other /t/ pages are not a table's); its poll's answers, /t/<token>/live,
// are kept in the same cache by the page itself (static/js/ledger.js)
const TABLE_PAGE = /^\/t\/([A-Za-z0-9_-]{16,64})$/;
const TABLE_POLL = /^\/t\/([A-Za-z0-9_-]{16,64})\/live$/;
// the answers that say a link no longer opens its table
const GONE = [404, 410];
// a table page's URL that is "the table", with no room state: its copy is kept (a free
// table's URL always names its entry's idempotency_key: webcalc/web/ledger_table.py)
const BARE_TABLE = /^(\?((lang|done|new|again|idempotency_key)=[A-Za-z0-9_-]*&?)*)?$/;

// Routes, first match wins (``path``: the app's path, appPath); a route without a handler
// leaves the request to the network.
const ROUTES = [
  { name: "mine", test: (path, request) => path === "/t/mine" && request.mode === "navigate",
    handler: page },
  { name: "tables", test: (path, request) => TABLE_PAGE.test(path) && request.mode === "navigate",
    handler: tablePage },
  { name: "poll", test: (path) => TABLE_POLL.test(path), handler: tablePoll },
  { name: "api", test: (path) => path.startsWith("/api/"), handler: null },
  { name: "static", test: (path) => path.startsWith("/static/"), handler: staticFile },
  { name: "pages", test: (path, request) => request.mode === "navigate", handler: page },
];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    await Promise.all(SHELL.map(async (path) => {
      const url = ROOT + path;
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
  const url = new URL(request.url);
  const path = appPath(url);
  if (path === null) return;
  if (request.method === "POST" && request.mode === "navigate" && /^\/t\/[A-Za-z0-9_-]{16,64}\/hands$/.test(path)) {
    event.respondWith(recordOrQueue(request, url));
    return;
  }
  if (request.method !== "GET") return;
  const route = ROUTES.find((r) => r.test(path, request));
  if (route && route.handler) event.respondWith(route.handler(request, url, event, path));
});

async function staticFile(request) {
  return (await caches.match(request, { ignoreVary: true })) || fetch(request);
}

// the same for everyone: the empty calculator, the rules pages, the offline page, each with
// at most ?lang=zh|en
function kept(url, path) {
  const bare = url.search === "" || /^\?lang=(zh|en)$/.test(url.search);
  return bare && (path === "/" || path === "/rules" || path === "/t/mine" ||
                  path === "/offline" || /^\/rules\/[^/]+$/.test(path));
}

async function page(request, url, event, path) {
  const key = url.origin + url.pathname + url.search;
  try {
    const response = await fetch(request);
    if (kept(url, path) && response.ok && response.type === "basic") {
      const copy = response.clone();
      event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.put(key, copy)));
      if (path.startsWith("/rules")) event.waitUntil(keepRules(url.searchParams.get("lang")));
    }
    return response;
  } catch (error) {
    const copy = kept(url, path) && await caches.match(key, { ignoreVary: true });
    if (copy) return copy;
    return offlinePage(url);
  }
}

// the offline page in the page's language: ?lang= when the URL has one, else the one the
// browser asked for when the shell was kept
async function offlinePage(url) {
  const lang = url.searchParams.get("lang");
  const key = ROOT + (lang === "zh" || lang === "en" ? "/offline?lang=" + lang : "/offline");
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
  const todo = RULES.map((path) => ROOT + path + tail);
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

// -- tables ---------------------------------------------------------------------------------

// the key of a table page's copy: its path and its language, nothing else of the URL
function tableKey(url) {
  const lang = url.searchParams.get("lang");
  return url.origin + url.pathname + (lang === "zh" || lang === "en" ? "?lang=" + lang : "");
}

// the table page: the network first; a 200 with no room state in the URL is kept; without a
// network the copy (the page marked as one)
async function tablePage(request, url, event) {
  try {
    const response = await fetch(request);
    if (GONE.includes(response.status)) event.waitUntil(forgetTable(url.pathname));
    if (response.status === 200 && response.type === "basic" && BARE_TABLE.test(url.search)) {
      const copy = response.clone();
      event.waitUntil((async () => {
        const headers = keptHeaders(copy.headers);
        headers.set("X-Webcalc-Kept", new Date().toISOString());
        const body = await copy.blob();
        const cache = await caches.open(TABLES_CACHE);
        await cache.put(tableKey(url), new Response(body, { status: 200, headers }));
      })());
    }
    return response;
  } catch (error) {
    const copy = await caches.match(tableKey(url), { ignoreVary: true }) ||
                 await caches.match(url.origin + url.pathname, { ignoreVary: true });
    if (!copy) return offlinePage(url);
    const kept = copy.headers.get("X-Webcalc-Kept") || "";
    const html = (await copy.text()).replace("<html ", '<html data-offline-copy="' + kept + '" ');
    return new Response(html, { status: 200, headers: keptHeaders(copy.headers) });
  }
}

// the table page's poll: to the network, as ever; an answer that says the link is gone drops
// the table's copies (the page keeps the poll's own answers itself, static/js/ledger.js)
async function tablePoll(request, url, event) {
  const response = await fetch(request);
  if (GONE.includes(response.status)) {
    event.waitUntil(forgetTable(url.pathname.slice(0, -"/live".length)));
  }
  return response;
}

// every copy of the table page at ``path`` (/t/<token>): each language, and its poll's
async function forgetTable(path) {
  const cache = await caches.open(TABLES_CACHE);
  for (const key of await cache.keys()) {
    const p = new URL(key.url).pathname;
    if (p === path || p.startsWith(path + "/")) await cache.delete(key);
  }
}

// a kept answer's headers: its body is stored decoded, and a Vary would keep it out of the
// cache (the copy is this phone's own, one per table and language)
function keptHeaders(from) {
  const headers = new Headers(from);
  for (const name of ["Content-Encoding", "Content-Length", "Vary", "ETag"]) headers.delete(name);
  return headers;
}

// 记入 (or the 荒庄 confirm) posted: to the network; when it does not get there, the entry is
// queued (once per idempotency_key and body: a double tap or a resend is the same entry) and the
// answer is the table page, as after a 记入 that was recorded
async function recordOrQueue(request, url) {
  const body = await request.clone().text();
  try {
    return await fetch(request);
  } catch (error) {
    const params = new URLSearchParams(url.search);
    params.delete("shown");          // computed from its fields when sent (no result was shown)
    const table = url.pathname.slice(0, -"/hands".length);
    const entry = { table: table, url: url.pathname + "?" + params.toString(), body: body,
                    key: params.get("idempotency_key") || "", created: Date.now() };
    await queueAdd(entry);
    const lang = params.get("lang");
    return Response.redirect(url.origin + table + (lang ? "?lang=" + lang : ""), 303);
  }
}

// the queue: IndexedDB "webcalc", store "queue" (the same in static/js/ledger.js)
function queueDb() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("webcalc", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("queue", { keyPath: "id", autoIncrement: true });
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

async function queueAdd(entry) {
  const db = await queueDb();
  await new Promise((resolve, reject) => {
    const tx = db.transaction("queue", "readwrite");
    const store = tx.objectStore("queue");
    const all = store.getAll();
    all.onsuccess = () => {
      // the same entry again (a double tap, a resend): once; another under a key already
      // queued (two tabs on one entry's page) is queued too, for the server to refuse
      if (!all.result.some((e) => e.key && e.key === entry.key && e.body === entry.body)) store.add(entry);
    };
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}
