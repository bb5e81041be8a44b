import { expect, test, type Page } from "@playwright/test";

async function storyLinks(page: Page, kind: "asks" | "cards") {
  await page.goto("/storybook");
  const links = page.locator(`a[href^="/storybook/${kind}/"]`);
  await expect(links.first()).toBeVisible();
  const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href") ?? ""));
  expect(hrefs.length).toBe(48);
  return hrefs;
}

function watchForProblems(page: Page) {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page: ${error.message}`));
  page.on("requestfailed", (request) => {
    // Going to the next story aborts what the last one still had open (net::ERR_ABORTED).
    if (request.failure()?.errorText !== "net::ERR_ABORTED") problems.push(`request: ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return problems;
}

for (const kind of ["asks", "cards"] as const) {
  test(`every ${kind} story renders with a heading and no errors`, async ({ page }) => {
    test.setTimeout(120_000);
    const problems = watchForProblems(page);
    for (const href of await storyLinks(page, kind)) {
      await page.goto(href);
      await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
      const name = href.split("/").pop()!;
      await expect(page.getByRole("heading", { level: 1, name, exact: true })).toBeVisible();
      await expect(page.getByTestId("watch-card")).toHaveCount(2);
    }
    expect(problems).toEqual([]);
  });
}

test("a story shows the answer its card sends, in light and dark", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/storybook/asks/choice-plan-with-default");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  const light = page.locator('[data-theme-panel="light"]');
  await light.getByTestId("ask-card").getByTestId("ask-button-option:team").click();
  await expect(light.getByTestId("story-sent")).toContainText("Valid answer");
  await expect(light.getByTestId("story-sent")).toContainText('"selected": [');
  await expect(light.getByTestId("ask-summary").first()).toHaveText("✓ You chose: Team");
  await page.screenshot({ path: "../docs/storybook.png" });
});

test("each kind's card shows its handoff line", async ({ page }) => {
  const expected: Record<string, string> = {
    "markdown-announcement-draft": "Edit on your phone",
    "form-invoice-details": "Fill it in on your phone",
    "files-receipt-photos": "Upload on your phone",
    "choice-many-options-with-default": "Continue on your phone",
  };
  for (const [story, line] of Object.entries(expected)) {
    await page.goto(`/storybook/cards/${story}`);
    await expect(page.getByTestId("watch-handoff").first()).toHaveText(line);
  }
  await page.goto("/storybook/cards/confirm-destructive-delete");
  await expect(page.getByTestId("watch-handoff")).toHaveCount(0);
  const buttons = page.getByTestId("watch-card").first().getByRole("button");
  await expect(buttons.first()).toHaveClass(/watch__button--destructive/);
  await expect(buttons.last()).toHaveClass(/watch__button--cancel/);
});
