import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { lastRequestOf } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("custom instructions set in Settings reach the model in every conversation", async ({ page }) => {
  await signUpFreshUser(page);
  await page.goto("/settings");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  const section = page.getByTestId("preferences");
  const instructions = section.getByLabel("Instructions for every conversation");
  await instructions.fill("Always answer in French.");
  await expect(section).toContainText("24 / 4000 characters.");
  await section.getByRole("button", { name: "Save preferences" }).click();
  await expect(section.getByTestId("preferences-saved")).toHaveText("Saved.");
  await page.reload();
  await expect(page.getByTestId("preferences").getByLabel("Instructions for every conversation")).toHaveValue(
    "Always answer in French.",
  );

  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Instructions, then a question");
  await chat.waitForReply();
  expect(lastRequestOf("Instructions, then a question").system).toContain("Always answer in French.");
});
