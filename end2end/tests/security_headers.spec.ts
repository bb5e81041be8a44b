import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test("the chat is served under its policy, hydrates under it, and refuses to be framed", async ({ page, baseURL }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const response = await page.goto("/");
  const headers = response!.headers();
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'nonce-[^']+';/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  await chat.open();
  await chat.sendMessage("A reply under the page policy");
  await chat.waitForReply();
  await expect(chat.assistantMessages().last()).toHaveText("Served under its policy.");
  expect(chat.consoleErrors).toEqual([]);

  // A decoy page framing the chat (to overlay an Approve button) gets nothing.
  await page.goto("about:blank");
  await page.setContent(`<iframe src="${baseURL}/" width="800" height="600"></iframe>`);
  // Chromium replaces a frame it refuses with its own error page.
  await expect.poll(() => page.frames().find((frame) => frame !== page.mainFrame())?.url()).toMatch(/^chrome-error:/);
});
