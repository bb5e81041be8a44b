import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { expect, test, type BrowserContext, type Page, type Worker } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";

// Web Push in Chromium. Headless Chromium here reaches no browser vendor's push service, so
// `pushManager.subscribe` cannot complete; what can run does: Settings registers the service
// worker and asks to subscribe (the switch reports the browser's refusal), and a subscription
// made on the local push service the Rust tests use (scripts/push/push_service.py) gets the
// real, encrypted push when the agent asks. That push's JSON is delivered to the page's worker
// through the DevTools protocol (`ServiceWorker.deliverPushMessage`, as a push service would
// deliver it), the worker shows the notification, and a click on its "approve" action,
// dispatched into the worker, answers the ask through POST /push/answer.

const origin = "http://127.0.0.1:3100";
/** A browser names its origin on a state-changing request; one with the cookie and none is refused. */
const headers = { origin };

/** The local push service, started for one test; it checks each push's VAPID signature. */
async function startPushService(vapidKey: string): Promise<{ process: ChildProcess; url: string }> {
  const process = spawn("../scripts/push/.venv/bin/python", ["../scripts/push/push_service.py", "--vapid-key", vapidKey], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const firstLine: string = await new Promise((resolve, reject) => {
    createInterface({ input: process.stdout! }).once("line", resolve);
    process.once("error", reject);
  });
  return { process, url: firstLine.replace("listening on ", "") };
}

async function settingsPage(page: Page) {
  await page.goto("/settings");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
}

/** The worker at the site root, once the page registered it. */
async function rootWorker(context: BrowserContext): Promise<Worker> {
  await expect.poll(() => context.serviceWorkers().map((worker) => new URL(worker.url()).pathname)).toContain("/sw.js");
  return context.serviceWorkers().find((worker) => worker.url().endsWith("/sw.js"))!;
}

/** Delivers `message` to the page's worker as its push service would. */
async function deliverPush(page: Page, message: unknown) {
  const cdp = await page.context().newCDPSession(page);
  const registration = new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const root = registrations.find((entry: any) => entry.scopeURL === `${origin}/` && !entry.isDeleted);
      if (root) resolve(root.registrationId);
    });
  });
  await cdp.send("ServiceWorker.enable");
  const registrationId = await registration;
  await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: JSON.stringify(message) });
  await cdp.detach();
}

/** Delivers an ask's push until the worker shows its notification: a worker the browser is
 * still starting may miss a delivery (the same tag replaces it, so a second changes nothing). */
async function deliverUntilShown(page: Page, worker: Worker, message: unknown, tag: string) {
  await expect
    .poll(async () => {
      const shown = await shownNotifications(worker, tag);
      if (shown.length === 0) await deliverPush(page, message);
      return shown.length;
    })
    .toBe(1);
}

function shownNotifications(worker: Worker, tag: string) {
  return worker.evaluate(async (tag) => {
    const shown = await (self as any).registration.getNotifications({ tag });
    return shown.map((n: any) => ({ title: n.title, body: n.body, actions: n.actions.map((a: any) => a.title), url: n.data.url }));
  }, tag);
}

test("Settings registers the worker, and a pushed ask is answered from its notification", async ({ page, context }) => {
  await context.grantPermissions(["notifications"], { origin });
  await signUpFreshUser(page);
  await settingsPage(page);
  const section = page.getByTestId("push");
  await expect(section.getByRole("heading", { name: "Notifications", exact: true })).toBeVisible();
  await expect(page.getByTestId("push-device-name")).not.toHaveValue("");

  // The switch registers the worker at the root and asks the browser to subscribe; headless
  // Chromium has no push service to subscribe with, and says so.
  const toggle = page.getByTestId("push-toggle");
  await expect(toggle).toBeEnabled();
  await toggle.click();
  const worker = await rootWorker(context);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/"))?.scope);
  expect(scope).toBe(`${origin}/`);
  await expect(section.getByRole("alert")).toContainText("This device could not subscribe");
  await expect(toggle).not.toBeChecked();

  // A device on the local push service, subscribed through the API as a browser would.
  const { publicKey } = await (await page.request.get("/push/key")).json();
  const service = await startPushService(publicKey);
  try {
    const subscription = await (await fetch(`${service.url}/subscriptions`, { method: "POST" })).json();
    const subscribed = await page.request.post("/push/subscriptions", {
      data: { ...subscription, name: "Test phone" },
      headers,
    });
    expect(subscribed.status()).toBe(201);
    await settingsPage(page);
    const device = page.getByTestId("push-device");
    await expect(device).toContainText("through 127.0.0.1");
    await device.getByTestId("push-device-rename").fill("Kitchen tablet");
    await device.getByRole("button", { name: "Rename" }).click();
    await expect.poll(async () => (await (await page.request.get("/push/subscriptions")).json()).devices[0].name).toBe(
      "Kitchen tablet",
    );

    // The agent asks while no tab shows the conversation: one push, decrypted by the service.
    const created = await (await page.request.post("/gpt/histories", { data: {}, headers })).json();
    const historyId = created.data.id;
    const turn = await page.request.post(`/gpt/histories/${historyId}/turn`, {
      data: { prompt: "Push me a yes or no" },
      headers,
    });
    const askId = (await turn.json()).data.pendingAsk.toolCallId;
    const [push] = await (await fetch(`${service.url}/received?count=1`)).json();
    expect(push.payload.ask.tag).toBe(askId);

    await deliverUntilShown(page, worker, push.payload, askId);
    await expect.poll(() => shownNotifications(worker, askId)).toEqual([
      {
        title: "Palaver has a question for you",
        body: expect.stringMatching(/^Send the report from your phone\?\n\d+ hours left to answer\.$/),
        actions: ["Confirm", "Cancel"],
        url: `/?c=${historyId}`,
      },
    ]);

    // A tap on "Confirm": the worker answers with that button's capability, without opening Palaver.
    await worker.evaluate(async (tag) => {
      const [notification] = await (self as any).registration.getNotifications({ tag });
      // A script's event cannot be extended (`waitUntil` throws): the answer is already on its way.
      self.dispatchEvent(new (self as any).NotificationEvent("notificationclick", { notification, action: "approve" }));
    }, askId);
    await expect.poll(async () => (await (await page.request.get("/gpt/histories/pendingAsks")).json()).data).toEqual([]);
    await expect.poll(() => shownNotifications(worker, askId)).toEqual([]);
    const audit = await (await page.request.get("/gpt/audit")).json();
    expect(audit.data.entries.find((entry: any) => entry.toolCallId === askId)?.surface).toBe("push");
    await page.goto(`/?c=${historyId}`);
    await expect(page.getByTestId("assistant-message").last()).toHaveText("Sent from the notification.");

    // Answered, the ask's notifications are withdrawn: the "closed" push closes one still shown.
    const [, closed] = await (await fetch(`${service.url}/received?count=2`)).json();
    expect(closed.payload).toEqual({ closed: { tag: askId } });
    await deliverUntilShown(page, worker, push.payload, askId);
    await deliverPush(page, closed.payload);
    await expect.poll(() => shownNotifications(worker, askId)).toEqual([]);
  } finally {
    service.process.kill();
  }
});

test("Quiet hours and approvals that only open Palaver are set in Settings; the summary after quiet hours shows", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["notifications"], { origin });
  await signUpFreshUser(page);
  // Until the saved settings arrive nothing can be changed: a choice made before would be
  // overwritten by them. Their request is held until the form was seen disabled.
  let releaseSettings = () => {};
  const held = new Promise<void>((resolve) => (releaseSettings = resolve));
  let settingsRequested = 0;
  await page.route("**/push/settings", async (route) => {
    if (route.request().method() === "GET") {
      settingsRequested += 1;
      await held;
    }
    await route.continue();
  });
  await settingsPage(page);
  const form = page.getByTestId("notification-settings");
  await expect(form.getByTestId("quiet-hours")).toBeDisabled();
  await expect(form.getByTestId("approvals-open-only")).toBeDisabled();
  await expect(form.getByTestId("notification-settings-save")).toBeDisabled();
  await expect.poll(() => settingsRequested).toBe(1);
  releaseSettings();
  await expect(form.getByTestId("notification-settings-save")).toBeEnabled();
  await page.unroute("**/push/settings");
  await expect(page.getByTestId("quiet-from")).toHaveCount(0);
  await form.getByTestId("quiet-hours").check();
  await expect(form.getByTestId("quiet-from")).toHaveValue("22:00");
  await expect(form.getByTestId("quiet-until")).toHaveValue("07:00");
  // The browser's own time zone is offered; a zone Palaver does not know is refused in words.
  await expect(form.getByTestId("quiet-time-zone")).not.toHaveValue("");
  await form.getByTestId("quiet-time-zone").fill("Moon/Base");
  await form.getByTestId("notification-settings-save").click();
  await expect(form.getByRole("alert")).toContainText("The time zone is not one Palaver knows.");
  await form.getByTestId("quiet-time-zone").fill("Europe/Berlin");
  await form.getByTestId("quiet-from").fill("21:30");
  await form.getByTestId("approvals-open-only").check();
  await form.getByTestId("open-only-tools").fill("send_mail\n\ncreate_directory\nsend_mail");
  await form.getByTestId("notification-settings-save").click();
  await expect(form.getByTestId("notification-settings-saved")).toHaveText("Saved.");
  await expect(form.getByRole("alert")).toHaveCount(0);

  await settingsPage(page);
  await expect(form.getByTestId("quiet-from")).toHaveValue("21:30");
  await expect(form.getByTestId("quiet-time-zone")).toHaveValue("Europe/Berlin");
  await expect(form.getByTestId("approvals-open-only")).toBeChecked();
  await expect(form.getByTestId("open-only-tools")).toHaveValue("send_mail\ncreate_directory");

  // The worker shows the one summary a push sends when quiet hours end.
  await page.getByTestId("push-toggle").click();
  const worker = await rootWorker(context);
  const summary = { tag: "palaver-waiting", title: "2 questions wait for you", body: "Held back during your quiet hours.", url: "/" };
  await deliverPush(page, { summary });
  await expect.poll(() => shownNotifications(worker, "palaver-waiting")).toEqual([
    { title: summary.title, body: summary.body, actions: [], url: "/" },
  ]);
});
