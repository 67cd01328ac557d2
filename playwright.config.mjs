// The browser end-to-end tests (e2e/tests/*.mjs) on Playwright's test runner, driving Debian's
// Chromium (never a browser Playwright downloads). Every file in e2e/tests is a test file: adding a
// test is adding a file. The servers the tests need start on ports the OS hands out (e2e/fixtures.mjs).
//   npx playwright test                  every browser test
//   npx playwright test consent          the files whose path matches "consent"
//   npx playwright test -g 'on probe:C' --repeat-each 20    the tests whose title matches, 20 times each
import { defineConfig } from '@playwright/test';
import { chromiumLaunch } from './e2e/chromium.mjs';

export default defineConfig({
  testDir: 'e2e/tests',
  testMatch: '*.mjs',
  // Playwright's own scratch (nothing is kept there: no traces, screenshots or videos); under target/,
  // so a run leaves the working tree as it found it.
  outputDir: 'target/e2e-results',
  // One worker: the tests share one machine's two cores with the build, several measure time (a
  // keystroke during a body, cancel to results), and files run one after the other in name order.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  // The longest test (the leak suite beside bytes that are not UTF-8: 36 runs of the page) takes
  // about 130 s on a loaded 2-core machine; a test that hangs fails here instead of holding up the run.
  timeout: 5 * 60 * 1000,
  // Slow files are known (the leak suite); the runner's advice to split them is noise here.
  reportSlowTests: null,
  // The list on the terminal; the JSON report is what the test command counts (e2e/counts.mjs).
  reporter: [['list'], ['json', { outputFile: process.env.E2E_REPORT || 'target/test-logs/e2e-report.json' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: chromiumLaunch,
    // playwright-core's own defaults, which the tests were written against (the test runner's are
    // "no limit", bounded only by the test's timeout).
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    trace: 'off',
    screenshot: 'off',
    video: 'off',
  },
});
