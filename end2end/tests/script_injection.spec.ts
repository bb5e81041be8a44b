import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

const hostile = `<script>window.__pwned = 'user'</script><img src=x onerror="window.__pwned = 'user-img'">`;

test("markup in a user message and in a model reply renders as inert text", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await chat.open();

  await chat.sendMessage(hostile);
  await chat.waitForReply();
  await page.reload();
  await chat.open(new URL(page.url()).pathname + new URL(page.url()).search);

  await expect(chat.userMessages().last()).toHaveText(hostile);
  const reply = chat.assistantMessages().last();
  await expect(reply).toContainText("<script>window.__pwned = 'model'</script>");
  await expect(reply).toContainText(`<img src=x onerror="window.__pwned = 'model-img'">`);
  await expect(chat.transcript.locator("script")).toHaveCount(0);
  await expect(chat.transcript.locator("img")).toHaveCount(0);

  // The javascript: link keeps its text but is no link; clicking it runs nothing.
  await expect(reply.getByRole("link")).toHaveCount(0);
  await reply.getByText("click me").click();

  expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
});
