import { expect, test } from "@playwright/test";
import { demoPort } from "../playwright.config";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

// The chat as the README shows it, on the demo agent as scripts/run.sh starts it: an answered
// ask, a block document, and an ask waiting. The pictures in docs/ are written by this run.
test.use({ baseURL: `http://127.0.0.1:${demoPort}` });

test("the chat's look: the waiting card stands out, focus shows, in light, dark and on a phone", async ({ page, browser }) => {
  test.slow(); // three replies from the demo agent, streamed word by word
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  const ask = new AskCard(page);
  await chat.open();

  await chat.sendMessage("set up a plan");
  await ask.card.getByRole("button", { name: "Team" }).click();
  await expect(chat.assistantMessages().last()).toHaveText("You chose Team. Done!");
  await chat.sendMessage("dashboard");
  await chat.waitForReply(30_000);
  await chat.sendMessage("build a pizza");
  await expect(ask.card).toBeInViewport();

  const answered = ask.summaries().first();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // The card waiting on the user is framed in the accent; an answered one is quiet.
    const accent = await page.evaluate(() => {
      const probe = document.createElement("span");
      probe.style.color = "var(--accent)";
      document.body.append(probe);
      const color = getComputedStyle(probe).color;
      probe.remove();
      return color;
    });
    await expect(ask.card).toHaveCSS("border-top-width", "2px");
    await expect(ask.card).toHaveCSS("border-top-color", accent);
    await expect(answered).toHaveCSS("border-top-style", "dashed");
    await expect(answered).toHaveCSS("border-top-width", "1px");
    await page.screenshot({ path: `../docs/chat-${scheme}.png` });
  }

  // A control reached by the keyboard shows a ring in the accent, three pixels wide.
  await page.emulateMedia({ colorScheme: "light" });
  const olives = ask.card.getByRole("checkbox", { name: "Olives" });
  await olives.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(olives).toBeFocused();
  await expect(olives).toHaveCSS("outline-width", "3px");
  await expect(olives).toHaveCSS("outline-style", "solid");

  expect(chat.consoleErrors).toEqual([]);

  // The same conversation opened on a phone, signed in as the same user.
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    storageState: await page.context().storageState(),
  });
  const phonePage = await phone.newPage();
  await phonePage.goto(page.url());
  await phonePage.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  await expect(phonePage.getByTestId("ask-card")).toBeInViewport();
  await phonePage.screenshot({ path: "../docs/chat-phone.png" });
  await phone.close();
});
