import { expect, test } from "@playwright/test";
import { signUpFreshUser } from "./fixtures/accounts";

// The test servers run without PALAVER_SMTP_URL: Settings → Mail says the server sends no
// mail and offers nothing that could not work (no address to confirm, no switch for ask mails).

test("Settings → Mail on a server that sends no mail says so and asks for no address", async ({ page }) => {
  await signUpFreshUser(page);
  // Until its settings arrive the section says nothing either way; the assertions wait for them.
  const loaded = page.waitForResponse((response) => new URL(response.url()).pathname === "/mail/settings");
  await page.goto("/settings");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  const settings = await (await loaded).json();
  expect(settings).toMatchObject({ available: false, confirmed: false, askMail: false });
  expect(settings.address ?? null).toBeNull();

  const section = page.getByTestId("mail");
  await expect(section.getByRole("heading", { name: "Mail", exact: true })).toBeVisible();
  await expect(section.getByTestId("mail-unavailable")).toHaveText("This server does not send mail.");
  await expect(section.getByTestId("mail-address")).toHaveCount(0);
  await expect(section.getByTestId("mail-asks")).toHaveCount(0);
  await expect(section.getByRole("textbox")).toHaveCount(0);
  await expect(section.getByRole("button")).toHaveCount(0);
  await expect(section.getByRole("alert")).toHaveCount(0);
});
