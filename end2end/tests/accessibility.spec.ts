import { expect, test, type Page } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { expectNoSeriousViolations, seriousViolations } from "./fixtures/axe";
import { ChatPage } from "./fixtures/chat_page";

const SCHEMES = ["light", "dark"] as const;

async function hydrated(page: Page) {
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
}

for (const scheme of SCHEMES) {
  test(`the account pages pass axe in ${scheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    for (const path of ["/login", "/signup"]) {
      await page.goto(path);
      await hydrated(page);
      await expectNoSeriousViolations(page, `${path} (${scheme})`);
    }
  });

  test(`the chat, settings and watch pages pass axe in ${scheme}`, async ({ page }) => {
    // Seven audits and two replies: on two busy cores this takes about the default 30 s, so
    // it gets a bound of its own (a bound, not a measure: the verdict is axe's).
    test.setTimeout(90_000);
    await page.emulateMedia({ colorScheme: scheme });
    await signUpFreshUser(page);
    const chat = new ChatPage(page);
    await chat.open();
    await expectNoSeriousViolations(page, `empty chat (${scheme})`);
    await chat.sendMessage("Audit blocks");
    await chat.waitForReply();
    await expect(chat.assistantMessages().last().getByTestId("blocks")).toBeVisible();
    await chat.open("/");
    await chat.sendMessage("Audit an ask");
    await expect(page.getByTestId("ask-card")).toBeVisible();
    await expect(page.getByTestId("ask-announcer")).toHaveText(
      "Palaver asks: Which plan should I set up? Press the up arrow in the message box to answer.",
    );
    await expectNoSeriousViolations(page, `a pending ask card (${scheme})`);
    await page.getByTestId("inbox").locator("summary").click();
    await expectNoSeriousViolations(page, `the open inbox (${scheme})`);
    await page.getByRole("link", { name: "Audit blocks" }).click();
    await expect(chat.assistantMessages().last().getByTestId("blocks")).toBeVisible();
    await expectNoSeriousViolations(page, `a block reply (${scheme})`);
    for (const path of ["/settings", "/watch"]) {
      await page.goto(path);
      await hydrated(page);
      await expectNoSeriousViolations(page, `${path} (${scheme})`);
    }
  });
}

// Each story page shows its story in light and in dark side by side, so one pass over the
// stories audits both; the index is audited in both schemes. The stories are split in shards
// the workers run side by side.
const SHARDS = 4;

async function storyLinks(page: Page): Promise<string[]> {
  await page.goto("/storybook");
  await hydrated(page);
  return page
    .locator('a[href^="/storybook/"]')
    .evaluateAll((links) => [...new Set(links.map((link) => link.getAttribute("href")!))]);
}

for (const scheme of SCHEMES) {
  test(`the storybook index passes axe in ${scheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    expect((await storyLinks(page)).length).toBeGreaterThan(10);
    await expectNoSeriousViolations(page, `/storybook (${scheme})`);
  });
}

for (let shard = 0; shard < SHARDS; shard++) {
  test(`storybook stories, part ${shard + 1} of ${SHARDS}, pass axe in light and dark`, async ({ page }) => {
    test.setTimeout(240_000);
    const stories = (await storyLinks(page)).filter((_, index) => index % SHARDS === shard);
    const found: string[] = [];
    for (const story of stories) {
      await page.goto(story);
      await hydrated(page);
      found.push(...(await seriousViolations(page, story)));
    }
    expect(found).toEqual([]);
  });
}
