import { expect, test, type Page } from "@playwright/test";
import { isSandboxRefusal } from "./fixtures/chat_page";
import { signUpFreshUser } from "./fixtures/accounts";

async function storyLinks(page: Page, kind: "asks" | "cards") {
  await page.goto("/storybook");
  const links = page.locator(`a[href^="/storybook/${kind}/"]`);
  await expect(links.first()).toBeVisible();
  const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href") ?? ""));
  // The reference's 48, and Palaver's 8 (question sets and locales).
  expect(hrefs.length).toBe(56);
  return hrefs;
}

function watchForProblems(page: Page) {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !isSandboxRefusal(message.text())) problems.push(`console: ${message.text()}`);
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
    // Every story is a page load and a hydration (about 2 s each on two busy cores, and the
    // asks have over sixty): the budget grows with the catalogue, not with any one story.
    test.setTimeout(300_000);
    const problems = watchForProblems(page);
    for (const href of await storyLinks(page, kind)) {
      const response = await page.goto(href);
      // A page whose policy lacks its nonce never hydrates (its streamed scripts are blocked):
      // say so at once rather than wait out the budget (seen once under load, not reproduced).
      expect(response?.headers()["content-security-policy"], href).toContain("'nonce-");
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
    "questions-logo-shade-and-sizes": "Continue on your phone",
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

test("every block story renders: valid as blocks, invalid with its errors", async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watchForProblems(page);
  await page.goto("/storybook");
  const links = page.locator('a[href^="/storybook/blocks/"]');
  await expect(links.first()).toBeVisible();
  const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href") ?? ""));
  // 10 valid, 1 golden, 1 partial, 34 invalid (33 of the reference, 1 of Palaver), and the hostile frame.
  expect(hrefs.length).toBe(47);
  for (const href of hrefs) {
    const name = href.split("/").pop()!;
    // The hostile frame's refusals are its point (its own test checks them).
    if (name === "html-hostile-frame") continue;
    await page.goto(href);
    await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
    await expect(page.getByRole("heading", { level: 1, name, exact: true })).toBeVisible();
    const note = (await page.getByTestId("story-note").textContent()) ?? "";
    const panels = page.locator("[data-theme-panel]");
    await expect(panels).toHaveCount(2);
    if (note.startsWith("An invalid document") && name !== "not-a-document") {
      await expect(page.getByTestId("blocks-error")).toHaveCount(2);
    } else if (name !== "not-a-document") {
      await expect(page.getByTestId("blocks")).toHaveCount(2);
    }
  }
  // The golden document's images live on images.example.com, which the test server's policy
  // does not allow images from (and which does not resolve here).
  const unreachableExample = (problem: string) =>
    problem.includes("images.example.com/") ||
    problem === "console: Failed to load resource: net::ERR_NAME_NOT_RESOLVED" ||
    problem === "console: Failed to load resource: net::ERR_BLOCKED_BY_CSP";
  expect(problems.filter((problem) => !unreachableExample(problem))).toEqual([]);
});

test("the golden document's stepper scales on the device and its copy button copies the list", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/storybook/blocks/sunday-roast");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  const light = page.locator('[data-theme-panel="light"]');
  await light.getByRole("button", { name: "Increase Number of people" }).click();
  await expect(light.getByTestId("stepper-value")).toHaveText("6 People");
  await light.getByRole("button", { name: "Copy shopping list" }).click();
  await expect(light.getByRole("button", { name: "Copied" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.split("\n").slice(0, 3)).toEqual(["Number of people: 6 People", "Bone-in leg of lamb: 2.4 kg", "Potatoes: 1800 g"]);
  await page.screenshot({ path: "../docs/storybook-blocks.png" });
});

test("a hostile document in the html frame stays inert and makes no request", async ({ page }) => {
  // What reached the network: a request the frame's CSP refused ("csp") never left the page.
  const outside: string[] = [];
  const blocked: string[] = [];
  page.on("requestfinished", (request) => {
    if (!request.url().startsWith("http://127.0.0.1")) outside.push(request.url());
  });
  page.on("requestfailed", (request) => {
    const reason = request.failure()?.errorText;
    if (reason === "csp") blocked.push(request.url());
    else if (!request.url().startsWith("http://127.0.0.1")) outside.push(`${request.url()} ${reason}`);
  });
  await page.goto("/storybook/blocks/html-hostile-frame");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  const frame = page.locator('[data-theme-panel="light"] iframe');
  await expect(frame).toHaveAttribute("sandbox", "allow-same-origin");
  expect(await frame.getAttribute("srcdoc")).toContain("<script>");
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
  // The frame shares the page's origin (so the page can size it), and still no script ran in it.
  expect(await frame.evaluate((f: HTMLIFrameElement) => (f.contentWindow as any).__pwned)).toBeUndefined();
  expect(outside).toEqual([]);
  expect(blocked.every((url) => url.startsWith("https://tracker.example.com/"))).toBe(true);
});

test("a right-to-left story: the Arabic question set in Arabic, its answers in their place", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/storybook/asks/questions-arabic-shade");
  await page.waitForFunction(() => (window as any).__PALAVER_HYDRATED__ === true);
  const light = page.locator('[data-theme-panel="light"]');
  const card = light.getByTestId("ask-card");
  await expect(card).toHaveAttribute("dir", "rtl");
  await expect(card.getByTestId("ask-submit")).toHaveText("إرسال");
  const radio = card.getByRole("radio", { name: "#b49c54" });
  const label = card.locator("label.ask-option", { has: page.getByRole("radio", { name: "#b49c54" }) }).locator("bdi");
  const [radioBox, labelBox] = [(await radio.boundingBox())!, (await label.boundingBox())!];
  expect(radioBox.x).toBeGreaterThan(labelBox.x);
  await expect(light.getByTestId("watch-card")).toHaveAttribute("dir", "rtl");
  await expect(light.getByTestId("watch-button-skip")).toHaveText("تخطٍّ");
  await page.screenshot({ path: "../docs/storybook-rtl.png" });
});

test("the storybook draws every MCP App of the connected servers from a stored call", async ({ page }) => {
  await signUpFreshUser(page);
  await page.goto("/storybook/apps");
  const stories = page.getByTestId("story-app");
  await expect(stories.locator("h2")).toHaveText(["basic__get-time", "desk__seating_chart", "guarded__get-time"], {
    ignoreCase: false,
  });
  // The extension's example shows the stored result's time as its server's.
  const basic = stories.filter({ hasText: "basic__get-time" });
  const time = basic.frameLocator("iframe").frameLocator("#app").locator("#server-time");
  await expect(time).toHaveText("2026-01-01T09:30:00.000Z");
  await expect(stories.filter({ hasText: "desk__seating_chart" }).frameLocator("iframe").frameLocator("#app").locator("#plan")).toHaveText(
    "Seating plan",
  );
});
