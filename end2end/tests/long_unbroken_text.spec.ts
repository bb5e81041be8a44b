import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

// A conversation holding a 100,000-character word (the longest prompt there is) and a reply with
// a 20,000-character one: the page loads, both wrap inside the transcript, and it stays usable.
// How long the load took is printed, as a measure, not asserted.
test("a message of one 100,000-character word loads, wraps and leaves the page usable", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("A long unbroken word follows");
  await chat.waitForReply();
  const url = page.url();
  const historyId = new URL(url).searchParams.get("c");
  // Sent through the API: filling a textarea with 100 KB measures the browser, not Palaver.
  const status = await page.evaluate(async ({ historyId, word }) => {
    const response = await fetch("/gpt/prompt", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ historyId, prompt: word }),
    });
    await response.text();
    return response.status;
  }, { historyId, word: "W".repeat(100_000) });
  expect(status).toBe(200);

  const started = Date.now();
  await chat.open(url);
  const loaded = Date.now() - started;
  await expect(chat.userMessages().last()).toContainText("WWWWWWWWWW");
  await expect(chat.assistantMessages().last()).toContainText("RRRRRRRRRR");
  for (const message of [chat.userMessages().last(), chat.assistantMessages().last()]) {
    const box = await message.boundingBox();
    const transcript = await chat.transcript.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(transcript!.width);
  }
  const sideways = await chat.transcript.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(sideways).toBeLessThanOrEqual(1);
  await chat.sendMessage("Still here?");
  await expect(chat.userMessages().last()).toHaveText("Still here?");
  console.log(`a 100,000-character word: the conversation loaded and hydrated in ${loaded} ms`);
  expect(chat.consoleErrors).toEqual([]);
});
