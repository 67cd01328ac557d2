// The browser tests' fixtures, on Playwright's test runner (playwright.config.mjs): every test file
// imports `test` from here.
//   app         (worker, automatic) the built app, its demo MCP server and the same build on a bare
//               static host, each on a port the OS hands out; also in lib.mjs's `shared`
//   browser     (worker) Debian's Chromium (the config's launchOptions), every context of it watched
//   guard       (every test, automatic) fails the test on a console error, an uncaught page error (a
//               wasm trap is one) or a CSP violation it did not declare with `guard.allow(...)`
//   watchOrder  notes in a page the order in which moments first hold (lib.mjs's watchOrder)
// A file's own servers start in its `test.beforeAll` and stop in its `test.afterAll(stopServers)`.
import { test as base } from '@playwright/test';
import {
  collectProblems,
  nextProblem,
  onFreePort,
  runOne,
  serveDist,
  shared,
  stageDist,
  startDemo,
  stopWorkerServers,
  undeclared,
  watchBrowser,
  watchOrder,
} from './lib.mjs';

export const test = base.extend({
  browser: [
    async ({ browser }, use) => {
      await use(watchBrowser(browser));
    },
    { scope: 'worker' },
  ],

  app: [
    async ({ browser }, use) => {
      const plainUrl = await serveDist(stageDist('plain', null), ['--plain'], { worker: true });
      // The page's port comes first: the demo server allows the page's origin, and the page's
      // demo.json names the demo server.
      const { appUrl, demoEndpoint } = await onFreePort(async (port) => {
        const endpoint = await startDemo([`http://127.0.0.1:${port}`], ['--stats'], { worker: true });
        return { appUrl: await serveDist(stageDist('main', endpoint), [], { port, worker: true }), demoEndpoint: endpoint };
      });
      Object.assign(shared, { browser, appUrl, appOrigin: new URL(appUrl).origin, demoEndpoint, plainUrl });
      await use(shared);
      await stopWorkerServers();
    },
    { scope: 'worker', auto: true },
  ],

  guard: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter's pattern; this one has none.
    async ({}, use) => {
      const allow = [];
      const seen = await collectProblems(() =>
        use({
          /** Declares problems the test provokes on purpose (RegExps from lib.mjs's `expected`). */
          allow: (...patterns) => {
            allow.push(...patterns);
          },
          /** The next problem any watched page reports (for the guard's own control test). */
          nextProblem,
          /** Runs a body under the guard, apart from this test (the guard's own control test). */
          runOne,
        }),
      );
      const failure = undeclared(seen, allow);
      if (failure) throw new Error(failure);
    },
    { auto: true },
  ],

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter's pattern; this one has none.
  watchOrder: async ({}, use) => {
    await use(watchOrder);
  },
});
