// Palaver's service worker (scope: the whole site). It shows the notification a push carries
// for an ask, closes it when the ask ends elsewhere, and handles a tap: a button answers the
// ask through POST /push/answer with the single-use capability the push carried (no cookie is
// sent: the capability alone decides); the body opens or focuses the conversation.
//
// A push's JSON (palaver_wire::push::PushMessage):
//   {"ask": {"tag", "title", "body", "url", "actions": [{"action", "title", "token"}], "expiresAt"}}
//   {"closed": {"tag"}}
//   {"summary": {"tag", "title", "body", "url"}}   (what waits, after quiet hours)

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    console.warn("Palaver: a push that is not JSON was ignored", error);
  }
  event.waitUntil(handlePush(message));
});

async function handlePush(message) {
  if (message.closed) {
    const shown = await self.registration.getNotifications({ tag: message.closed.tag });
    shown.forEach((notification) => notification.close());
    return;
  }
  if (message.summary) {
    const { tag, title, body, url } = message.summary;
    await self.registration.showNotification(title, { body, tag, icon: "/favicon.svg", data: { url } });
    return;
  }
  const ask = message.ask;
  if (!ask) return;
  const actions = (ask.actions || []).map(({ action, title }) => ({ action, title }));
  const tokens = Object.fromEntries((ask.actions || []).map(({ action, token }) => [action, token]));
  await self.registration.showNotification(ask.title, {
    body: ask.body,
    tag: ask.tag,
    renotify: true,
    requireInteraction: true,
    icon: "/favicon.svg",
    actions,
    data: { url: ask.url, tokens },
  });
}

self.addEventListener("notificationclick", (event) => {
  const notification = event.notification;
  const data = notification.data || {};
  const token = event.action && data.tokens ? data.tokens[event.action] : undefined;
  notification.close();
  event.waitUntil(token ? answer(token, data.url) : openConversation(data.url));
});

// Answers with a button's capability; when that fails (the ask ended, the device is offline),
// the conversation opens instead, where the person sees what happened.
async function answer(token, url) {
  try {
    const response = await fetch("/push/answer", {
      method: "POST",
      credentials: "omit",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token }),
    });
    if (response.ok) return;
  } catch (error) {
    console.warn("Palaver: the answer was not sent", error);
  }
  await openConversation(url);
}

async function openConversation(url) {
  const target = new URL(url || "/", self.location.origin).href;
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => client.url === target);
  if (open) return open.focus();
  if (windows.length > 0 && "navigate" in windows[0]) {
    const client = await windows[0].navigate(target);
    return client ? client.focus() : undefined;
  }
  return self.clients.openWindow(target);
}
