import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

const background = (page: import("@playwright/test").Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test("the theme follows the OS and can be pinned, across reloads", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  const toggle = page.getByTestId("theme-toggle");
  await expect(toggle).toHaveText("Theme: auto");
  expect(await background(page)).toBe("rgb(21, 21, 20)");

  await toggle.click();
  await expect(toggle).toHaveText("Theme: light");
  expect(await background(page)).toBe("rgb(247, 247, 245)");

  await page.reload();
  await chat.open();
  expect(await background(page)).toBe("rgb(247, 247, 245)");
  await expect(toggle).toHaveText("Theme: light");
  expect(chat.consoleErrors).toEqual([]);
});
