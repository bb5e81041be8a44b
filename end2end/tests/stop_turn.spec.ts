import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test("Stop ends a running reply and keeps what was said", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Tell me a very long story");
  const reply = chat.assistantMessages().last();
  await expect(reply).toContainText("Once upon a time");

  await page.getByTestId("stop").click();
  await expect(chat.send).toHaveText("Send");
  await expect(page.getByTestId("stop")).toHaveCount(0);
  const kept = (await reply.textContent()) ?? "";
  expect(kept).not.toContain("and it did.");

  await page.reload();
  await chat.open(new URL(page.url()).pathname + new URL(page.url()).search);
  await expect(chat.assistantMessages().last()).toHaveText(kept.trim());
});

test("Stop ends the turn this tab shows, not another turn on the conversation", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Two turns at once");
  const reply = chat.assistantMessages().last();
  await expect(reply).toContainText("The tab's");
  // A second turn on the same conversation, from the API (a watch, a bot): it waits for the
  // tab's turn, and runs once that one is stopped.
  const history = new URL(page.url()).searchParams.get("c");
  const other = page.request.post(`/gpt/histories/${history}/turn`, {
    data: { prompt: "Meanwhile, from the API" },
    headers: { origin: new URL(page.url()).origin },
  });

  await page.waitForTimeout(300);
  await page.getByTestId("stop").click();
  await expect(chat.send).toHaveText("Send");
  expect(await reply.textContent()).not.toContain("and on.");
  const response = await other;
  const finished = await response.json();
  expect(response.status(), JSON.stringify(finished)).toBe(200);
  expect(finished.data.text).toBe("The API's story ends.");
});
