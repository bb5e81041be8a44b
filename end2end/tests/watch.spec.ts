import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AskCard } from "./fixtures/ask_card";
import { ChatPage } from "./fixtures/chat_page";

test("an ask from the chat is answered on the watch, and the chat shows it answered", async ({ page, context }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Set up billing from my watch");
  await expect(new AskCard(page).card).toBeVisible();

  const watch = await context.newPage();
  await watch.goto("/watch");
  const card = watch.getByTestId("watch-card");
  await expect(card.getByRole("heading")).toHaveText("Choose a plan");
  await expect(card).toContainText("Which plan should I set up?");
  await expect(card.getByRole("button")).toHaveText(["Team", "Starter", "Enterprise"]);
  await expect(watch.getByTestId("watch-handoff")).toHaveCount(0);
  // The README shows this frame.
  await watch.getByTestId("watch").screenshot({ path: "../docs/watch.png" });

  await watch.getByTestId("watch-button-option:team").click();
  await expect(watch.getByTestId("watch-reply")).toHaveText("Done. Your team is on the Team plan.");
  await expect(watch.getByText("Nothing to answer.")).toBeVisible();

  await page.reload();
  await chat.open(new URL(page.url()).pathname + new URL(page.url()).search);
  await expect(new AskCard(page).summaries()).toHaveText(["✓ You chose: Team"]);
  await expect(chat.assistantMessages().last()).toHaveText("Done. Your team is on the Team plan.");
});

test("a four-option choice offers its default on the watch and hands off", async ({ page, context }) => {
  await signUpFreshUser(page);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("Four options for my watch");
  await expect(new AskCard(page).card).toBeVisible();

  const watch = await context.newPage();
  await watch.goto("/watch");
  await expect(watch.getByTestId("watch-card").getByRole("button")).toHaveText(['Use "Weekly summary"', "Skip"]);
  await expect(watch.getByTestId("watch-handoff")).toHaveText("Continue on your phone");
});

test("the watch shows a reply's text, not its markdown source", async ({ page }) => {
  await signUpFreshUser(page);
  await page.goto("/watch");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  await page.locator("#watch-input").fill("Watch: tell me in bold");
  await page.locator("#watch-input").press("Enter");
  const reply = page.getByTestId("watch-reply");
  await expect(reply).toHaveText(
    "I'm the Palaver demo agent: no API key.\n• set up a plan: I ask you to pick one option\n• build a pizza: pick several",
    { useInnerText: true },
  );
  await expect(reply).not.toContainText("**");
});

test("a reply with an MCP App is a line on the watch that names the app's server", async ({ page }) => {
  await signUpFreshUser(page);
  await page.goto("/watch");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  await page.locator("#watch-input").fill("Watch: show the server time");
  await page.locator("#watch-input").press("Enter");
  await expect(page.getByTestId("watch-reply")).toHaveText("That is the server's time.");
  await expect(page.getByTestId("watch-app")).toHaveText(
    'The reply has an app of the MCP server "basic": open Palaver on a larger screen to use it.',
  );
});
