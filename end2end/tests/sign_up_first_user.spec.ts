import { expect, test } from "@playwright/test";
import { ChatPage } from "./fixtures/chat_page";
import { AskCard } from "./fixtures/ask_card";
import { accountsPort } from "../playwright.config";
import { AccountPages } from "./fixtures/account_pages";

// This server starts with no accounts, so the sign-up here makes the first one: the admin.
test.use({ baseURL: `http://127.0.0.1:${accountsPort}` });

test("the first sign-up becomes admin, can sign out and log back in", async ({ page }) => {
  const accounts = new AccountPages(page);

  await page.goto("/");
  await expect(page).toHaveURL(/\/login\?next=\/$/);

  await accounts.signUp("founder", "correct horse battery");
  await expect(page).toHaveURL(/\/$/);
  await expect(accounts.signedInUser).toHaveText("founder");
  await expect(page.getByRole("link", { name: "Admin" })).toBeVisible();

  await accounts.signOut();
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);

  await accounts.logIn("founder", "wrong password!!");
  await expect(page.getByRole("alert")).toHaveText("Incorrect username or password.");
  await accounts.logIn("founder", "correct horse battery");
  await expect(page).toHaveURL(/\/$/);
  await expect(accounts.signedInUser).toHaveText("founder");

  // Sign-up is closed now that an account exists.
  const closed = await page.request.post("/auth/signup", {
    data: { username: "latecomer", password: "correct horse battery" },
  });
  expect(closed.status()).toBe(403);

  // The admin page shows the MCP servers this server connects to, and reconnects one.
  await page.goto("/admin");
  const files = page.getByTestId("mcp-server").filter({ hasText: "files" });
  await expect(page.getByTestId("mcp-server")).toHaveCount(2);
  await expect(files).toHaveAttribute("data-state", "connected");
  await expect(files).toContainText("files__write_file · asks first");
  await expect(files).toContainText("files__read_text_file · runs without asking");
  await files.getByRole("button", { name: "Reconnect" }).click();
  await expect(files).toHaveAttribute("data-state", "connecting");
  await expect(files).toHaveAttribute("data-state", "connected"); // the section looks again while it connects

  // Everyone's decisions on asks are on the admin page too.
  const chat = new ChatPage(page);
  await chat.open();
  await chat.sendMessage("A plan from the inbox");
  await new AskCard(page).button("option:starter").click();
  await expect(chat.assistantMessages().last()).toHaveText("Starter it is.");
  await page.goto("/admin");
  const audit = page.getByTestId("audit");
  await expect(audit.getByRole("heading")).toHaveText("Decisions on asks (everyone)");
  await expect(audit.getByTestId("audit-entry")).toHaveCount(1);
  await expect(audit.getByTestId("audit-entry")).toContainText("choice ask");
  await expect(audit.getByTestId("audit-entry")).toContainText("answered");
});
