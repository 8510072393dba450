// The service worker's push part: show a notice the server pushed, open its table on a click.
// Loaded by /sw.js with importScripts.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(data.title || "Campground", {
    body: data.body || "",
    tag: data.tag,
    icon: "/static/icons/camp.svg",
    data: { url: data.url || "/" },
  }));
});

// The table's page: the tab already on it, else a tab of the site taken there, else a new one.
async function openTable(path) {
  const url = new URL(path || "/", self.location.origin).href;
  const tabs = await self.clients.matchAll({ type: "window" });
  const there = tabs.find((tab) => tab.url === url) || tabs[0];
  if (!there) return self.clients.openWindow(url);
  const moved = there.url === url ? there : await there.navigate(url);
  return moved && moved.focus().catch(() => moved);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openTable(event.notification.data && event.notification.data.url));
});

// Pages open when the worker arrives are its own at once, so a click can take them to a table.
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
