import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";

test("a new API token is shown once, then listed by name only, and can be revoked", async ({ page }) => {
  await signUpFreshUser(page);
  await page.goto("/settings");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);

  await page.getByLabel("Token name").fill("Watch");
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = page.getByTestId("new-token").locator("code");
  await expect(secret).toHaveText(/^pvr_[0-9a-f]{64}$/);
  const token = (await secret.textContent()) ?? "";
  // Copy puts it on the clipboard, and says so.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByTestId("copy-token").click();
  await expect(page.getByTestId("copy-token")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  // The token works for a headless client.
  const me = await page.request.get("/auth/me", { headers: { Authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);

  await page.reload();
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  const row = page.getByRole("row", { name: /Watch/ });
  await expect(row).toBeVisible();
  await expect(page.getByText(token)).toHaveCount(0);

  await expect(row.getByRole("cell").nth(3)).toHaveText("when revoked");

  // One that expires: the list says when, thirty days on.
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  // Settings has other choices whose words say "expires" (a webhook's events): the token form's.
  const tokenForm = page.getByRole("form", { name: "Create a token" });
  await tokenForm.getByLabel("Token name").fill("Bot");
  await tokenForm.getByLabel("Expires").selectOption({ label: "In 30 days" });
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("new-token")).toContainText("Bot");
  const bot = page.getByRole("row", { name: /Bot/ });
  // Shown in the reader's words, never as an ISO string; the exact moment is on the element.
  const when = bot.getByRole("cell").nth(3).locator("time");
  await expect(when).not.toHaveText(/\d{4}-\d{2}-\d{2}T/);
  await expect(when).toHaveText(/\d/);
  const expires = Date.parse((await when.getAttribute("datetime")) ?? "");
  const days = (expires - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(29.9);
  expect(days).toBeLessThan(30.1);
  await bot.getByRole("button", { name: /Revoke/ }).click();
  await expect(bot).toHaveCount(0);

  await row.getByRole("button", { name: /Revoke/ }).click();
  await expect(page.getByText("No tokens yet.")).toBeVisible();
  const after = await page.request.get("/auth/me", { headers: { Authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
});
