import { expect, test } from "@playwright/test";
import { ChatPage } from "./fixtures/chat_page";
import { AskCard } from "./fixtures/ask_card";
import { accountsPort } from "../playwright.config";
import { AccountPages } from "./fixtures/account_pages";
import { expectNoSeriousViolations } from "./fixtures/axe";

// This server starts with no accounts, so the sign-up here makes the first one: the admin.
test.use({ baseURL: `http://127.0.0.1:${accountsPort}` });
// The second test signs in as the admin the first one makes.
test.describe.configure({ mode: "serial" });

test("the first sign-up becomes admin, can sign out and log back in", async ({ page }) => {
  const accounts = new AccountPages(page);

  // A server with no account yet opens on Sign up, and says the first account is the admin.
  await page.goto("/");
  await expect(page).toHaveURL(/\/signup\?next=\/$/);
  await expect(page.getByText("This server has no account yet. The first one becomes its admin.")).toBeVisible();

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

  // Sign-up is closed now that an account exists, and the pages say so before a form is filled.
  await accounts.signOut();
  await page.goto("/signup");
  await expect(page.getByTestId("signup-closed")).toHaveText("Sign-up is closed on this server. Ask its admin for an account.");
  await expect(page.getByLabel("Username")).toHaveCount(0);
  await page.goto("/login");
  await expect(page.getByText("No account yet? Ask this server's admin for one.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign up" })).toHaveCount(0);
  await accounts.logIn("founder", "correct horse battery");
  await expect(page).toHaveURL(/\/$/);
  const closed = await page.request.post("/auth/signup", {
    data: { username: "latecomer", password: "correct horse battery" },
  });
  expect(closed.status()).toBe(403);

  // The admin opens sign-up from the admin page (no restart, no environment variable) and
  // closes it again.
  await page.goto("/admin");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  const server = page.getByTestId("server-settings");
  const anyone = server.getByLabel("Anyone may create an account");
  await expect(anyone).not.toBeChecked();
  await anyone.check();
  await server.getByRole("button", { name: "Save server settings" }).click();
  await expect(server.getByTestId("server-settings-saved")).toHaveText("Saved.");
  // Someone else, signed out, signs up now (the admin's own session stays theirs).
  const opened = await fetch(new URL("/auth/signup", page.url()), {
    method: "POST",
    headers: { "content-type": "application/json", origin: new URL(page.url()).origin },
    body: JSON.stringify({ username: "welcomed", password: "correct horse battery" }),
  });
  expect(opened.status).toBe(201);
  await anyone.uncheck();
  await server.getByRole("button", { name: "Save server settings" }).click();
  await expect(anyone).not.toBeChecked();
  await expect(server.getByTestId("server-settings-saved")).toHaveText("Saved.");

  // The admin page shows the MCP servers this server connects to, and reconnects one.
  await page.goto("/admin");
  const files = page.getByTestId("mcp-server").filter({ hasText: "files" });
  await expect(page.getByTestId("mcp-server")).toHaveCount(5);
  await expect(files).toHaveAttribute("data-state", "connected");
  // The revision of MCP the connection speaks (the newest both sides know).
  await expect(files.getByTestId("mcp-revision")).toHaveText(/^20\d\d-\d\d-\d\d$/);
  await expect(files).toContainText("files__write_file · asks first");
  await expect(files).toContainText("files__read_text_file · runs without asking");
  // The reconnect is asked for and the server comes back connected. (Its "connecting" can last
  // less than a status read takes, so the test does not wait to see it.)
  const reconnected = page.waitForResponse((response) => response.url().includes("/api/admin_mcp_reconnect"));
  await files.getByRole("button", { name: "Reconnect" }).click();
  const answer = await reconnected;
  expect(answer.ok()).toBe(true);
  expect(await answer.json()).toBe(true);
  await expect(files).toHaveAttribute("data-state", "connected");

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

test("the admin disables an account, enables it, sets its password; its owner deletes it", async ({ page, browser }) => {
  // Some nine password hashes (log-ins, an account made, a password set, a deletion checked),
  // each deliberately slow, and two accessibility audits: on two busy cores, more than 30 s.
  test.slow();
  const accounts = new AccountPages(page);
  await page.goto("/login");
  await accounts.logIn("founder", "correct horse battery");
  await expect(accounts.signedInUser).toHaveText("founder");

  await page.goto("/admin");
  await accounts.waitForHydration();
  const create = page.getByRole("form", { name: "Create an account" });
  await create.getByLabel("Username").fill("member");
  await create.getByLabel("Password").fill("a member password");
  await create.getByRole("button", { name: "Create account" }).click();
  const row = page.locator('[data-testid="account-row"][data-username="member"]');
  await expect(row).toContainText("active");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousViolations(page, `/admin (${scheme})`);
  }

  // The member signs in on another device.
  const device = await browser.newContext({ baseURL: `http://127.0.0.1:${accountsPort}` });
  const memberPage = await device.newPage();
  const member = new AccountPages(memberPage);
  await memberPage.goto("/login");
  await member.logIn("member", "a member password");
  await expect(member.signedInUser).toHaveText("member");

  await row.getByRole("button", { name: "Disable member" }).click();
  await expect(row).toContainText("disabled");
  await expect(row.getByRole("button", { name: "Enable member" })).toBeVisible();
  expect((await memberPage.request.get("/auth/me")).status()).toBe(401);
  await memberPage.goto("/login");
  await member.logIn("member", "a member password");
  await expect(memberPage.getByRole("alert")).toHaveText("This account is disabled. Ask an admin to enable it.");

  await row.getByRole("button", { name: "Enable member" }).click();
  await expect(row).toContainText("active");
  await row.getByRole("button", { name: "Set password member" }).click();
  const reset = page.getByRole("form", { name: "New password for member" });
  await reset.getByLabel("New password").fill("short");
  await reset.getByRole("button", { name: "Set password" }).click();
  await expect(reset.getByLabel("New password")).toHaveJSProperty("value", "short");
  expect(await reset.getByLabel("New password").evaluate((input: HTMLInputElement) => input.minLength)).toBe(10);
  await reset.getByLabel("New password").fill("a fresh member passphrase");
  await reset.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByTestId("password-set")).toHaveText("Password set. No session was signed in.");

  await memberPage.goto("/login");
  await member.logIn("member", "a fresh member passphrase");
  await expect(member.signedInUser).toHaveText("member");
  await memberPage.goto("/settings");
  await member.waitForHydration();
  const deletion = memberPage.getByRole("form", { name: "Delete your account" });
  await deletion.getByLabel("Password").fill("not my password");
  await deletion.getByRole("button", { name: "Delete my account" }).click();
  await expect(memberPage.getByRole("alert")).toHaveText("The password is not right.");
  await deletion.getByLabel("Password").fill("a fresh member passphrase");
  await deletion.getByRole("button", { name: "Delete my account" }).click();
  await expect(memberPage).toHaveURL(/\/login/);
  const gone = await memberPage.request.post("/auth/login", {
    data: { username: "member", password: "a fresh member passphrase" },
    headers: { origin: `http://127.0.0.1:${accountsPort}` },
  });
  expect(gone.status()).toBe(401);
  await page.reload();
  await expect(page.locator('[data-testid="account-row"][data-username="founder"]')).toHaveCount(1);
  await expect(row).toHaveCount(0);
  await device.close();
});
