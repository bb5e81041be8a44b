import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";

// Settings → Webhooks against a real receiver: a Node HTTP server on a loopback port of its
// own (http is allowed there only), which records every post. The secret Settings shows once
// must verify the delivery's Palaver-Signature as a receiver would check it.

/** One post the receiver got. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 at an ephemeral port that answers 204 to every post and keeps it. */
async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/palaver-hook`, received };
}

/**
 * Checks `Palaver-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` as a
 * receiver would: a recent timestamp and a matching v1, compared in constant time.
 */
function signatureVerifies(secret: string, header: string, body: string): boolean {
  const parts = new Map(header.split(",").map((part) => part.trim().split("=", 2) as [string, string]));
  const timestamp = parts.get("t") ?? "";
  const signature = Buffer.from(parts.get("v1") ?? "", "hex");
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected);
}

async function settingsPage(page: Page) {
  await page.goto("/settings");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
}

test("a webhook shows its secret once, and its test ping arrives signed and is listed as delivered", async ({
  page,
}) => {
  const receiver = await startReceiver();
  try {
    await signUpFreshUser(page);
    await settingsPage(page);
    const section = page.getByTestId("webhooks");
    await expect(section.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible();
    await expect(section.getByText("No webhooks yet.")).toBeVisible();

    await section.getByTestId("webhook-url").fill(receiver.url);
    await section.getByLabel("Description").fill("Test receiver");
    await section.getByRole("button", { name: "Add webhook" }).click();

    // The secret, this once: 256 random bits in base64url.
    const shown = section.getByTestId("webhook-secret");
    await expect(shown).toContainText(receiver.url);
    const secretValue = shown.getByTestId("webhook-secret-value");
    await expect(secretValue).toHaveText(/^[A-Za-z0-9_-]{43}$/);
    const secret = ((await secretValue.textContent()) ?? "").trim();
    const webhook = section.getByTestId("webhook");
    await expect(webhook).toHaveCount(1);
    await expect(webhook).toContainText(receiver.url);
    await expect(webhook).toContainText("Enabled");
    await expect(section.getByTestId("webhook-url")).toHaveValue("");

    // Gone after a reload: neither the page nor the API shows it again.
    await settingsPage(page);
    await expect(webhook).toContainText(receiver.url);
    await expect(section.getByTestId("webhook-secret")).toHaveCount(0);
    await expect(page.getByText(secret)).toHaveCount(0);
    const listed = await (await page.request.get("/webhooks")).text();
    expect(listed).toContain(receiver.url);
    expect(listed).not.toContain(secret);

    // "Send test" queues a ping; the receiver gets it, signed with that secret.
    const queued = page.waitForResponse((response) => /\/webhooks\/[^/]+\/test$/.test(new URL(response.url()).pathname));
    await webhook.getByRole("button", { name: "Send test" }).click();
    const deliveryId: string = (await (await queued).json()).deliveryId;
    expect(deliveryId).not.toBe("");
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    const [ping] = receiver.received;
    expect(ping.headers["content-type"]).toBe("application/json");
    expect(ping.headers["palaver-event"]).toBe("ping");
    expect(ping.headers["palaver-delivery"]).toBe(deliveryId);
    const body = JSON.parse(ping.body);
    expect(body).toEqual({ id: expect.any(String), type: "ping", createdAt: expect.any(String), data: {} });
    const signature = String(ping.headers["palaver-signature"]);
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(signatureVerifies(secret, signature, ping.body)).toBe(true);
    // The check can fail: another body or another secret does not verify.
    expect(signatureVerifies(secret, signature, ping.body.replace("ping", "pong"))).toBe(false);
    expect(signatureVerifies(`${secret}x`, signature, ping.body)).toBe(false);

    // The section lists that delivery as delivered (its outcome is recorded once the receiver
    // answered, so the list is refreshed until it says so).
    const delivery = webhook.getByTestId("webhook-delivery");
    await expect(async () => {
      await webhook.getByRole("button", { name: "Refresh" }).click();
      await expect(delivery.getByTestId("webhook-delivery-status")).toHaveText("Delivered", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(delivery).toHaveCount(1);
    await expect(delivery.getByTestId("webhook-delivery-event")).toHaveText("ping");
    await expect(delivery).toContainText("HTTP 204");
    expect(receiver.received).toHaveLength(1);
  } finally {
    await new Promise((resolve) => receiver.server.close(resolve));
  }
});

test("a webhook URL Palaver may not post to is refused in the section, saying why", async ({ page }) => {
  await signUpFreshUser(page);
  await settingsPage(page);
  const section = page.getByTestId("webhooks");
  await section.getByTestId("webhook-url").fill("http://example.com/hook");
  await section.getByRole("button", { name: "Add webhook" }).click();
  const alert = section.getByRole("alert");
  await expect(alert).toContainText("The URL is not an https URL (http is allowed only on a loopback address).");
  await expect(alert).toContainText("https://bridge.example.com/palaver");
  await expect(section.getByTestId("webhook-secret")).toHaveCount(0);
  await expect(section.getByTestId("webhook")).toHaveCount(0);
  await expect(section.getByText("No webhooks yet.")).toBeVisible();
  // What was typed stays, to be corrected.
  await expect(section.getByTestId("webhook-url")).toHaveValue("http://example.com/hook");
});
