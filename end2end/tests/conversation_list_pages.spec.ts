import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test("a long conversation list loads more as it is scrolled, down to the very first conversation", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  const headers = { origin: new URL(page.url()).origin };
  // 120 conversations through the API: the first, named, is the least recently active.
  const ids: string[] = [];
  for (let n = 0; n < 120; n += 1) {
    const created = await page.request.post("/gpt/histories", { headers, data: {} });
    expect(created.status()).toBe(201);
    ids.push((await created.json()).data.id);
  }
  const renamed = await page.request.patch(`/gpt/histories/${ids[0]}`, { headers, data: { title: "The very first one" } });
  expect(renamed.status()).toBe(200);
  const listed = await (await page.request.get("/gpt/histories?limit=3", { headers })).json();
  expect(listed.data.map((document: any) => document.id)).toEqual([ids[119], ids[118], ids[117]]);
  expect(listed.more).toBe(true);

  await chat.open();
  const entries = chat.conversations.getByTestId("conversation");
  await expect(entries).toHaveCount(50);
  const first = chat.conversations.getByRole("link", { name: "The very first one" });
  await expect(first).toHaveCount(0);
  // Scrolling to the list's end loads the next page, and again, until the first is there.
  for (let scrolls = 0; scrolls < 10 && (await first.count()) === 0; scrolls += 1) {
    await chat.conversations.evaluate((nav) => nav.scrollTo(0, nav.scrollHeight));
    await page.waitForTimeout(300);
  }
  await expect(first).toBeVisible();
  await expect(entries).toHaveCount(120);
  await expect(page.getByTestId("show-more")).toHaveCount(0);
  // A conversation started meanwhile (live event) reads the list again, keeping the pages shown.
  const newest = await page.request.post("/gpt/histories", { headers, data: {} });
  expect(newest.status()).toBe(201);
  await expect(entries).toHaveCount(121);
  await expect(first).toBeVisible();
});
