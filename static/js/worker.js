// The service worker's address names the client's version (app/static_files.py), so a new
// client installs a new worker, which keeps the new client's files for use offline.
const version = new URL(import.meta.url).pathname.match(/^\/static\/v\/([^/]+)\//)?.[1];

// From the site's root (/sw.js), so that it serves every page and a click on a notice may
// open any table.
export const registerWorker = () =>
  navigator.serviceWorker.register(version ? `/sw.js?v=${version}` : "/sw.js", { scope: "/" });
