import { connect, createServer, type Server } from "node:net";
import { expect, test } from "@playwright/test";
import { strictPort } from "../playwright.config";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

// The mock model streams a document whose image (and html block's image) point at this
// "tracker": 127.0.0.1 like the app, on another port that no server allows images from.
// It counts every connection, whatever is sent on it (the browser would speak TLS to it).
const trackerPort = 3199;
const prompt = "Stream a report with a tracker";

// One tracker, so the tests take turns.
test.describe.configure({ mode: "serial" });

let tracker: Server;
let connections = 0;

test.beforeAll(async () => {
  tracker = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => tracker.listen(trackerPort, "127.0.0.1", resolve));
  // The tracker counts what reaches it: one connection of our own, then a clean count.
  await new Promise<void>((resolve, reject) => {
    const probe = connect(trackerPort, "127.0.0.1", () => {
      probe.destroy();
      resolve();
    });
    probe.on("error", reject);
  });
  await expect.poll(() => connections).toBe(1);
});

test.beforeEach(() => {
  connections = 0;
});

test.afterAll(async () => {
  await new Promise((resolve) => tracker.close(resolve));
});

function imageSources(policy: string | undefined) {
  return policy?.split("; ").find((directive) => directive.startsWith("img-src "));
}

/**
 * Streams the tracker document and checks what the page drew while it streamed: the image as
 * its alt text, the html block as a placeholder, nothing fetched; then returns the reply.
 */
async function streamTheTrackerDocument(chat: ChatPage) {
  await chat.sendMessage(prompt);
  const reply = chat.assistantMessages().last();
  const streaming = reply.getByTestId("blocks-streaming");
  await expect(streaming.getByRole("heading", { name: "Leaky report" })).toBeVisible();
  // The image is shown as its alt text, not loaded; the html not drawn, raw or otherwise.
  await expect(streaming.getByRole("img", { name: "Tracker pixel" })).toBeVisible();
  await expect(streaming.getByTestId("html-block-pending")).toContainText("shown when the reply is complete");
  await expect(reply.getByTestId("blocks-pending")).toBeVisible();
  await expect(reply.locator("img")).toHaveCount(0);
  await expect(reply.locator("iframe")).toHaveCount(0);
  await expect(reply.getByText("Raw html drawn")).toHaveCount(0);
  expect(connections).toBe(0);

  await chat.waitForReply();
  await expect(streaming).toHaveCount(0);
  return reply;
}

test("with no image hosts, a streaming document's image is never fetched and its html never drawn raw", async ({
  page,
}) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const response = await page.goto("/");
  // Images load only from Palaver and data: URLs: any other https image is refused.
  expect(imageSources(response!.headers()["content-security-policy"])).toBe("img-src 'self' data:");
  await chat.open();

  const reply = await streamTheTrackerDocument(chat);
  // The finished check refuses the image: the reply shows its errors, and loads nothing.
  const error = reply.getByTestId("blocks-error");
  await expect(error).toContainText("IMAGE_HOST_NOT_ALLOWED");
  await expect(reply.locator("img")).toHaveCount(0);

  await page.reload();
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  await expect(chat.assistantMessages().last().getByTestId("blocks-error")).toContainText("IMAGE_HOST_NOT_ALLOWED");
  expect(connections).toBe(0);
  expect(chat.consoleErrors).toEqual([]);
});

test.describe("on a server with html off and two image hosts", () => {
  test.use({ baseURL: `http://127.0.0.1:${strictPort}` });

  test("the policy names exactly the image hosts, and the streamed html and image stay out", async ({ page }) => {
    await signUpFreshUser(page);
    const chat = new ChatPage(page);
    const response = await page.goto("/");
    // PALAVER_IMAGE_HOSTS is "images.example.com, https://Pictures.Example.org:8443/": each a
    // host, over https on any port, as a document's check allows it.
    expect(imageSources(response!.headers()["content-security-policy"])).toBe(
      "img-src 'self' data: https://images.example.com:* https://pictures.example.org:*",
    );
    await chat.open();

    const reply = await streamTheTrackerDocument(chat);
    const error = reply.getByTestId("blocks-error");
    await expect(error).toContainText("HTML_DISABLED");
    await expect(error).toContainText("IMAGE_HOST_NOT_ALLOWED");
    await expect(reply.locator("img")).toHaveCount(0);
    await expect(reply.locator("iframe")).toHaveCount(0);
    expect(connections).toBe(0);
    expect(chat.consoleErrors).toEqual([]);
  });
});
