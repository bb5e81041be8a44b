import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";
import { seedMessages } from "./fixtures/database";

const MESSAGES = 1_000;
/** The conversation's first message, which the mock model knows it by. */
const FIRST = "Long conversation, message 0";

test("a 1,000-message conversation opens at its newest message, scrolls back to its first, and a turn reads only its own rows", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  const headers = { origin: new URL(page.url()).origin };
  const created = await page.request.post("/gpt/histories", { headers, data: {} });
  expect(created.status()).toBe(201);
  const id: string = (await created.json()).data.id;
  seedMessages(id, MESSAGES, FIRST);

  // The server renders the newest window only: the page's size does not grow with the conversation.
  const html = await (await page.request.get(`/?c=${id}`)).text();
  const bytes = Buffer.byteLength(html);
  console.log(`The server-rendered page of a ${MESSAGES}-message conversation: ${bytes} bytes`);
  expect(bytes).toBeLessThan(150 * 1024);
  // (Checked as booleans: a failure would print the whole page.)
  expect(html.includes('<p class="message__text">Message 998<')).toBe(true);
  expect(html.includes(`<p class="message__text">${FIRST}<`)).toBe(false);

  await chat.open(`/?c=${id}`);
  await expect(chat.transcript.getByText("Reply 999", { exact: true })).toBeInViewport();
  const first = chat.transcript.getByText(FIRST, { exact: true });
  await expect(first).toHaveCount(0);

  // Scrolling up reads the earlier rows a window at a time, the reader's place kept (what was
  // at the top stays in view), back to the very first message.
  const messages = chat.userMessages();
  for (let scrolls = 0; scrolls < 60 && (await first.count()) === 0; scrolls += 1) {
    const shown = await messages.count();
    const topmost = messages.first();
    const topText = await topmost.innerText();
    await chat.transcript.evaluate((box) => box.scrollTo(0, 0));
    await expect.poll(() => messages.count()).toBeGreaterThan(shown);
    await expect(chat.transcript.getByText(topText, { exact: true })).toBeInViewport();
  }
  await chat.transcript.evaluate((box) => box.scrollTo(0, 0));
  await expect(first).toBeInViewport();
  await expect(messages).toHaveCount(MESSAGES / 2);
  await expect(chat.assistantMessages()).toHaveCount(MESSAGES / 2);
  await expect(page.getByTestId("earlier-messages")).toHaveCount(0);

  // A turn: the page reads only its last exchange on (once), keeps every row it had, and the
  // list moves the conversation's entry from the live event without reading the list again.
  const reads: string[] = [];
  const listReads: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/get_history")) reads.push(request.postData() ?? request.url());
    if (request.url().includes("/api/list_histories")) listReads.push(request.url());
  });
  await chat.sendMessage("And one more");
  await chat.waitForReply();
  await expect(chat.assistantMessages().last()).toHaveText(/The reply after a thousand messages\./);
  await expect(messages).toHaveCount(MESSAGES / 2 + 1);
  await expect(first).toBeAttached();
  await expect(chat.assistantMessages()).toHaveCount(MESSAGES / 2 + 1);
  // Long enough for the live events of the turn to have come.
  await page.waitForTimeout(2_500);
  expect(reads).toHaveLength(1);
  expect(reads[0]).toContain("from=");
  expect(listReads).toHaveLength(0);
  await expect(chat.conversations.getByRole("link", { name: "A thousand messages" })).toBeVisible();
  expect(chat.consoleErrors).toEqual([]);
});
