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
