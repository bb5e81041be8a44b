import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";
import { AccountPages } from "./fixtures/account_pages";

// A `next` that a browser would read as another site's address ends at the home page.
const leaving = ["/%5Cevil.example/", "/%09/evil.example/", "/\\evil.example", "//evil.example/", "/%0A/evil.example/", "https://evil.example/"];

for (const next of leaving) {
  test(`after a real log-in, next=${next} stays on Palaver`, async ({ page }) => {
    const username = await signUpFreshUser(page);
    await page.context().clearCookies();
    const accounts = new AccountPages(page);
    await page.goto(`/login?next=${next}`);
    await accounts.logIn(username, "correct horse battery");
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    await expect(accounts.signedInUser).toHaveText(username);
  });
}

test("after a log-in, a next path of this site is where the browser goes", async ({ page }) => {
  const username = await signUpFreshUser(page);
  await page.context().clearCookies();
  const accounts = new AccountPages(page);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?next=\/settings$/);
  await accounts.logIn(username, "correct horse battery");
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/settings$/);
});
