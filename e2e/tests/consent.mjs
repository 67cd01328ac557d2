// Quick check on servers whose tools declare no annotations (most servers in the wild): one consent
// step, then A–D; and a server whose write-like tools fit B, C and D best: nothing proposed. The
// demo server's counters (GET /__stats) prove which tools were called.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../fixtures.mjs';
import { ARTIFACTS, assert, eq, expected, fillExactly, shared, startDemo, startPython, stopServers, watchedPage, SHOTS } from '../lib.mjs';

let unannotated, writeLike, pythonUnannotated, statefulUnannotated;
test.beforeAll(async () => {
  unannotated = await startDemo([shared.appOrigin], ['--unannotated', '--stats']);
  writeLike = await startDemo([shared.appOrigin], ['--write-like', '--stats']);
  pythonUnannotated = await startPython(shared.appOrigin, ['--unannotated']);
  statefulUnannotated = await startDemo([shared.appOrigin], ['--unannotated', '--stateful']);
});
test.afterAll(stopServers);
const stats = async (endpoint) => (await (await fetch(`${new URL(endpoint).origin}/__stats`)).json()).tools;
const CATALOGUE = ['lead_get', 'icp_list', 'echo', 'crm_sync', 'lead_delete_all'];
const provoked = (endpoint) => [expected.noToken(endpoint), expected.get405(endpoint)];

async function quickCheck(endpoint, { viewport } = {}) {
  const context = await shared.browser.newContext(viewport ? { viewport } : {});
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await fillExactly(page, 'endpoint', endpoint);
  await page.getByTestId('token').fill('demo-token');
  await page.getByTestId('quick-check').click();
  return { context, page };
}

test('unannotated tools: Quick check stops at one consent step, then runs A–D with exactly the proposed tools', async ({ guard }) => {
  guard.allow(...provoked(unannotated));
  const before = await stats(unannotated);
  const { context, page } = await quickCheck(unannotated, { viewport: { width: 1100, height: 900 } });
  await page.getByTestId('consent').waitFor({ timeout: 20000 });
  // Focus is on the heading, so a repeated Enter from the form cannot consent.
  await page.waitForFunction(() => document.activeElement?.id === 'consent-heading');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  assert(await page.getByTestId('consent').isVisible(), 'Enter on the heading does not answer');
  eq(await page.getByTestId('results').count(), 0, 'no half run is shown while it asks');
  const tools = {};
  for (const p of ['B', 'C', 'D']) {
    const row = page.getByTestId(`consent-${p}`);
    tools[p] = await row.getByTestId('consent-tool').innerText();
    const payload = JSON.parse(await row.getByTestId('consent-payload').innerText());
    eq(payload.params.name, tools[p], `probe ${p}: the payload names the tool shown`);
    assert((await row.innerText()).includes('readOnlyHint: absent'), `probe ${p} shows its annotations`);
  }
  eq(JSON.stringify(tools), JSON.stringify({ B: 'lead_get', C: 'lead_get', D: 'icp_list' }), 'proposals');
  const mid = await stats(unannotated);
  for (const name of CATALOGUE) eq(mid[name] || 0, before[name] || 0, `${name}: not called before the OK (only probe A's unknown name was)`);
  await page.getByTestId('consent').screenshot({ path: join(SHOTS, 'screenshot-consent.png') });
  await page.getByTestId('consent-run').click();
  await page.getByTestId('results').waitFor({ timeout: 20000 });
  for (const p of ['A', 'B', 'C', 'D']) assert(await page.getByTestId(`card-${p}`).isVisible(), `card ${p}`);
  assert(/\d of 3 pairs/.test(await page.getByTestId('summary').innerText()), 'a score over all three pairs');
  await page.screenshot({ path: join(SHOTS, 'screenshot-consent-results.png'), fullPage: true });
  const after = await stats(unannotated);
  eq((after.lead_get || 0) - (before.lead_get || 0), 2, 'lead_get called for B and C');
  eq((after.icp_list || 0) - (before.icp_list || 0), 1, 'icp_list called for D');
  for (const name of ['crm_sync', 'lead_delete_all', 'echo']) eq(after[name] || 0, before[name] || 0, `${name} never called`);
  await context.close();
});

test('consent step: "Only probe A" calls none of the proposals, Esc cancels without a request', async ({ guard }) => {
  guard.allow(...provoked(unannotated));
  const before = await stats(unannotated);
  let { context, page } = await quickCheck(unannotated);
  await page.getByTestId('consent').waitFor({ timeout: 20000 });
  await page.getByTestId('consent-only-a').click();
  await page.getByTestId('results').waitFor({ timeout: 20000 });
  eq(await page.getByTestId('card-B').getByTestId('skip-reason').innerText(), 'skipped by you', 'B skipped by you');
  await context.close();
  ({ context, page } = await quickCheck(unannotated));
  await page.getByTestId('consent').waitFor({ timeout: 20000 });
  await page.keyboard.press('Escape');
  await page.getByTestId('results').waitFor({ timeout: 20000 });
  assert((await page.getByTestId('progress').innerText()).includes('Cancelled'), 'cancelled');
  const after = await stats(unannotated);
  for (const name of CATALOGUE) eq(after[name] || 0, before[name] || 0, `${name} never called`);
  await context.close();
});

// "Fast on slow links": a server that keeps its GET stream open holds the GET check up to the core's
// first-event window; the person is asked as soon as probe A and tools/list are in, not after it.
test('stateful server, unannotated tools: the consent step is asked while the GET check still waits for its stream, and the run ends with every card', async ({
  guard,
  watchOrder,
}) => {
  guard.allow(expected.noToken(statefulUnannotated));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await watchOrder(page, [['consent asked', ['[data-testid=consent]']]]);
  await fillExactly(page, 'endpoint', statefulUnannotated);
  await page.getByTestId('token').fill('demo-token');
  await page.getByTestId('quick-check').click();
  await page.getByTestId('consent').waitFor({ timeout: 20000 });
  await page.waitForFunction(() => window.__order.includes('GET check over'), null, { timeout: 20000 });
  eq(JSON.stringify(await page.evaluate(() => window.__order)), JSON.stringify(['consent asked', 'GET check over']), 'order of events');
  assert(await page.getByTestId('consent').isVisible(), 'the step stays while the check ends');
  await page.getByTestId('consent-run').click();
  await page.getByTestId('results').waitFor({ timeout: 20000 });
  for (const p of ['A', 'B', 'C', 'D']) assert(await page.getByTestId(`card-${p}`).isVisible(), `card ${p}`);
  assert(/\d of 3 pairs/.test(await page.getByTestId('summary').innerText()), 'a score over all three pairs');
  const log = await page.evaluate(() => [...document.querySelectorAll('[data-testid=run-log] li')].map((li) => li.textContent));
  eq(log.filter((l) => l === 'run finished').length, 1, 'one loop ended the run');
  await context.close();
});

test('write-like tools that fit B, C and D best by schema are never proposed, and never called', async ({ guard }) => {
  guard.allow(...provoked(writeLike));
  const { context, page } = await quickCheck(writeLike);
  await page.getByTestId('results').waitFor({ timeout: 20000 });
  eq(await page.getByTestId('consent').count(), 0, 'no consent step: nothing to propose');
  const called = await stats(writeLike);
  for (const name of ['delete_lead', 'sendEmail', 'crm-sync']) eq(called[name] || 0, 0, `${name} never called`);
  await context.close();
});

test('Review first: a filled-in probe is no longer skipped, an unlisted name is flagged, no "Review first" hint inside it, underscores show', async ({
  guard,
}) => {
  guard.allow(...provoked(writeLike));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await fillExactly(page, 'endpoint', writeLike);
  await page.getByTestId('token').fill('demo-token');
  await page.getByTestId('review-first').click();
  await page.getByTestId('plan').waitFor({ timeout: 20000 });
  const skip = page.getByTestId('skip-B');
  assert(await skip.isChecked(), 'B starts skipped: nothing declared read-only fits');
  assert(!(await page.getByTestId('plan').innerText()).includes('Review first'), 'no hint to use Review first inside it');
  const tool = page.getByTestId('tool-B');
  await tool.fill('a b c d e f');
  const spaced = await tool.screenshot();
  await tool.fill('a_b_c_d_e_f');
  const underscored = await tool.screenshot();
  assert(!spaced.equals(underscored), 'underscores render (the box does not clip them)');
  await tool.fill('mcp_triage_no_such_tool_x');
  assert(!(await skip.isChecked()), 'filling a tool in unticks skip');
  eq(await page.getByTestId('tool-note-B').innerText(), 'not in tools/list: this will test an unknown tool', 'an unlisted name is flagged before the run');
  await tool.fill('delete_lead');
  eq(await page.getByTestId('tool-note-B').innerText(), '', 'a listed name is not');
  await page.getByTestId('cancel').click();
  await context.close();
});

test('Python peer (mcp 2.3.0 MCPServer) with unannotated tools: one consent step, then A–D with a score', async ({ guard }) => {
  guard.allow(expected.get405(pythonUnannotated));
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await fillExactly(page, 'endpoint', pythonUnannotated);
  await page.getByTestId('quick-check').click();
  await page.getByTestId('consent').waitFor({ timeout: 20000 });
  const tools = [];
  for (const p of ['B', 'C', 'D']) tools.push(await page.getByTestId(`consent-${p}`).getByTestId('consent-tool').innerText());
  eq(tools.join(' '), 'lead_get lead_get icp_list', 'proposals');
  await page.getByTestId('consent-run').click();
  await page.getByTestId('results').waitFor({ timeout: 20000 });
  for (const p of ['A', 'B', 'C', 'D']) assert(await page.getByTestId(`card-${p}`).isVisible(), `card ${p}`);
  assert(/\d of 3 pairs/.test(await page.getByTestId('summary').innerText()), 'a score over all three pairs');
  await context.close();
});

test('plan.json: Review first downloads a plan with no endpoint or secret, and loading one fills the plan without sending or consenting', async ({ guard }) => {
  guard.allow(...provoked(unannotated));
  const before = await stats(unannotated);
  const context = await shared.browser.newContext();
  const page = await watchedPage(context);
  await page.goto(shared.appUrl);
  await fillExactly(page, 'endpoint', unannotated);
  await page.getByTestId('token').fill('demo-token');
  await page.getByTestId('review-first').click();
  await page.getByTestId('plan').waitFor({ timeout: 20000 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-plan').click()]);
  eq(download.suggestedFilename(), 'plan.json', 'file name');
  const saved = readFileSync(await download.path(), 'utf8');
  const plan = JSON.parse(saved);
  eq(plan.format, 'mcp-triage-plan/1', 'versioned');
  eq(plan.probes.map((p) => p.probe).join(''), 'ABCD', 'one entry per probe');
  for (const needle of ['127.0.0.1', new URL(unannotated).port, 'demo-token', 'http']) assert(!saved.includes(needle), `no ${needle} in the plan`);
  // A plan someone wrote: D calls icp_list with an opt-in, B is skipped.
  const file = join(ARTIFACTS, 'plan-in.json');
  writeFileSync(
    file,
    JSON.stringify({
      format: 'mcp-triage-plan/1',
      probes: [
        { probe: 'B', skip: true },
        { probe: 'D', tool: 'icp_list', arguments: {}, opt_in: true },
      ],
    }),
  );
  await page.getByTestId('load-plan').setInputFiles(file);
  await page.getByTestId('plan-loaded').filter({ hasText: 'Plan loaded' }).waitFor();
  eq(await page.getByTestId('tool-D').inputValue(), 'icp_list', 'D filled from the file');
  assert(await page.getByTestId('skip-B').isChecked(), 'B skipped from the file');
  assert(!(await page.getByTestId('optin-D').isChecked()), "the file's opt-in is not ticked for the user");
  assert((await page.getByTestId('plan-loaded').innerText()).includes('probe D'), "the file's opt-in is named");
  // A file that is not a plan gets a clear message.
  writeFileSync(file, JSON.stringify({ format: 'mcp-triage-plan/1', probes: [], endpoint: 'https://x.example/mcp' })); // the same file again, edited
  await page.getByTestId('load-plan').setInputFiles(file);
  await page.getByTestId('plan-error').filter({ hasText: 'not a plan file' }).waitFor();
  const after = await stats(unannotated);
  for (const name of CATALOGUE) eq(after[name] || 0, before[name] || 0, `${name}: loading a plan sends nothing`);
  await page.getByTestId('cancel').click();
  await context.close();
});
