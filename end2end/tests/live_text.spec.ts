import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

// The reply streams live through Palaver's `{delta}` events while `{text}` comes once per step,
// as the reference sends it. Every text the streaming reply showed is recorded: the kept reply
// only ever grows (its `{text}` takes the deltas' place without a redraw that blanks it), and
// the tool step's reasoning, taken back when its tool runs, never comes back.
test("a reply streams live, grows without flicker, and a tool step's text does not return", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    const record = () => {
      const replies = document.querySelectorAll('[data-testid="assistant-message"].message--streaming');
      const last = replies[replies.length - 1];
      if (last && seen[seen.length - 1] !== last.textContent) seen.push(last.textContent ?? "");
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  await chat.sendMessage("Check my list, step by step");
  const reply = chat.assistantMessages().last();
  await expect(reply).toContainText("Let me look");
  await expect(page.getByTestId("tool-line").last()).toContainText("List todos");
  await expect(reply).toContainText("You have");
  await expect(reply).not.toContainText("to do.");
  await chat.waitForReply();
  await expect(reply).toHaveText("You have nothing left to do.");

  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  const first = seen.findIndex((text) => text.includes("You have"));
  expect(first, JSON.stringify(seen)).toBeGreaterThan(0);
  const kept = seen.slice(first);
  for (let i = 1; i < kept.length; i++) {
    expect(kept[i].startsWith(kept[i - 1].trimEnd()), JSON.stringify(kept)).toBe(true);
  }
  expect(kept.some((text) => text.includes("Let me look")), JSON.stringify(kept)).toBe(false);
  expect(chat.consoleErrors).toEqual([]);
});
