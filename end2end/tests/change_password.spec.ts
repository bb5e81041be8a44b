import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";

test("a password is changed in Settings: the old one stops working, the new one logs in", async ({ page, browser }) => {
  const username = await signUpFreshUser(page);
  // A second device signed in as the same user.
  const elsewhere = await browser.newContext();
  const login = await elsewhere.request.post("/auth/login", { data: { username, password: "correct horse battery" } });
  expect(login.status()).toBe(200);

  await page.goto("/settings");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  const form = page.getByRole("form", { name: "Change your password" });
  await form.getByLabel("Current password").fill("not the password");
  await form.getByLabel("New password").fill("a brand new passphrase");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("alert")).toHaveText("The current password is not right.");

  await form.getByLabel("Current password").fill("correct horse battery");
  await form.getByLabel("New password").fill("a brand new passphrase");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByTestId("password-changed")).toHaveText("Password changed. Your 1 other session was signed out.");

  expect((await elsewhere.request.get("/auth/me")).status()).toBe(401);
  expect((await page.request.get("/auth/me")).status()).toBe(200);
  // The page's requests carry its cookie, so they name their origin, as a browser does.
  const headers = { origin: new URL(page.url()).origin };
  const old = await page.request.post("/auth/login", { data: { username, password: "correct horse battery" }, headers });
  expect(old.status()).toBe(401);
  const fresh = await page.request.post("/auth/login", { data: { username, password: "a brand new passphrase" }, headers });
  expect(fresh.status()).toBe(200);
  await elsewhere.close();
});

test("a password change revokes the API tokens unless the box to keep them is ticked", async ({ page }) => {
  await signUpFreshUser(page);
  await page.goto("/settings");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  await page.getByLabel("Token name").fill("Watch");
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = page.getByTestId("new-token").locator("code");
  await expect(secret).toHaveText(/^pvr_/);
  const token = (await secret.textContent()) ?? "";
  const tokenWorks = async () =>
    (await page.request.get("/auth/me", { headers: { Authorization: `Bearer ${token}` } })).status();
  expect(await tokenWorks()).toBe(200);

  const form = page.getByRole("form", { name: "Change your password" });
  const keep = form.getByRole("checkbox", { name: "Keep my API tokens working" });
  await expect(keep).not.toBeChecked();
  await form.getByLabel("Current password").fill("correct horse battery");
  await form.getByLabel("New password").fill("a brand new passphrase");
  await keep.check();
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByTestId("password-changed")).toHaveText("Password changed. No other session was signed in.");
  expect(await tokenWorks()).toBe(200);

  await form.getByLabel("Current password").fill("a brand new passphrase");
  await form.getByLabel("New password").fill("another new passphrase");
  await keep.uncheck();
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByTestId("password-changed")).toHaveText(
    "Password changed. No other session was signed in. 1 API token was revoked.",
  );
  expect(await tokenWorks()).toBe(401);
});
