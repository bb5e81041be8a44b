import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { ChatPage } from "./fixtures/chat_page";

test("a new chat starts on the model picked, and the conversation keeps its choice", async ({ page }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  const reload = async () => {
    await page.reload();
    await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  };
  const picker = page.getByRole("combobox", { name: "Model", exact: true });
  await expect(picker.locator("option")).toHaveText(["Scripted", "Demo agent"]);
  await expect(picker.locator("option:checked")).toHaveText("Scripted");

  await picker.selectOption({ label: "Demo agent" });
  await chat.sendMessage("Which model are you?");
  await chat.waitForReply(30_000);
  await expect(chat.assistantMessages().last()).toContainText("You said:");
  await reload();
  await expect(picker.locator("option:checked")).toHaveText("Demo agent");

  // Changed in an open conversation, the choice is stored at once and answers the next message.
  const stored = page.waitForResponse((response) => response.url().includes("/api/choose_model"));
  await picker.selectOption({ label: "Scripted" });
  expect((await stored).ok()).toBe(true);
  await reload();
  await expect(picker.locator("option:checked")).toHaveText("Scripted");
  await chat.sendMessage("And now?");
  await expect(chat.assistantMessages().last()).toHaveText("I am the scripted model.");

  // A new chat starts on the default again.
  await page.getByRole("link", { name: "New chat" }).click();
  await expect(picker.locator("option:checked")).toHaveText("Scripted");
  expect(chat.consoleErrors).toEqual([]);
});
