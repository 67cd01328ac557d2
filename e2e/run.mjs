// Browser end-to-end tests: real MCP servers (TS SDK 1.29.0 demo and 1.32.2, Python mcp 2.3.0, fastmcp 4.2.3), the built app,
// Debian's Chromium driven by playwright-core. Each file under tests/ registers its tests.
// `node e2e/run.mjs FILE` runs one file's tests; E2E_TEST=TEXT only the tests whose name holds TEXT.
import { launch, run, serveDist, shared, stageDist, startDemo } from './lib.mjs';

shared.APP_PORT = 18081;
shared.appOrigin = `http://127.0.0.1:${shared.APP_PORT}`;
shared.demoEndpoint = await startDemo(18788, [shared.appOrigin], ['--stats']);
shared.appUrl = await serveDist(stageDist('main', shared.demoEndpoint), shared.APP_PORT);
shared.plainUrl = await serveDist(stageDist('plain', null), shared.APP_PORT + 1, ['--plain']);
shared.browser = await launch();

const only = process.argv[2];
for (const file of ['foundation', 'probes', 'consent', 'headline', 'peers', 'cors', 'ux', 'security', 'share', 'examples', 'everything', 'ecosystem', 'bounds', 'leaks', 'cli', 'faults', 'firstload', 'ondemand', 'signin', 'pagesignin', 'pagecompare', 'layout']) {
  if (!only || only === file) await import(`./tests/${file}.mjs`);
}
await run();
