import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test("a reply keeps streaming through a reload, with no text twice", async ({ page, context }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("A story I reload in the middle");
  const reply = chat.assistantMessages().last();
  await expect(reply).toContainText("a reply");
  await page.reload();
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  // Attached again: the message, the reply so far, and the rest as it comes.
  await expect(page.getByTestId("user-message").last()).toHaveText("A story I reload in the middle");
  await expect(chat.assistantMessages().last()).toContainText("Once upon a time, a reply");
  await expect(chat.send).toHaveText("Replying…");

  // Another tab opened mid-reply follows it too.
  const other = await context.newPage();
  const otherChat = new ChatPage(other);
  await otherChat.open(new URL(page.url()).pathname + new URL(page.url()).search);
  const whole = "Once upon a time, a reply kept streaming through a reload and ended well.";
  for (const tab of [chat, otherChat]) {
    await expect(tab.assistantMessages().last()).toHaveText(whole, { timeout: 10_000 });
    await expect(tab.assistantMessages()).toHaveCount(1);
    await expect(tab.send).toHaveText("Send");
  }
  expect(chat.consoleErrors).toEqual([]);
});

test("a reply whose connection drops keeps streaming once it is back", async ({ page }) => {
  // The connection drops in the browser: the prompt's stream fails after its second chunk, as a
  // network error would fail it. The turn goes on on the server.
  await page.addInitScript(() => {
    const original = window.fetch.bind(window);
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await original(input, init);
      const url = input instanceof Request ? input.url : String(input);
      if (!url.endsWith("/gpt/prompt") || !response.body) return response;
      const reader = response.body.getReader();
      let chunks = 0;
      const body = new ReadableStream({
        async pull(controller) {
          if (chunks++ >= 2) return controller.error(new TypeError("network error"));
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
  });
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  // The chat attaches again from the last event it saw: a request naming it.
  const reattached: string[] = [];
  page.on("request", (request) => {
    const seen = request.headers()["last-event-id"];
    if (request.url().endsWith("/stream") && seen) reattached.push(seen);
  });
  await chat.sendMessage("A story through a dropped connection");
  await expect(chat.assistantMessages().last()).toHaveText("The line went down, came back, and the story went on.", {
    timeout: 10_000,
  });
  await expect(chat.send).toHaveText("Send");
  await expect(page.getByTestId("turn-error")).toHaveCount(0);
  expect(reattached.length).toBeGreaterThan(0);
});
