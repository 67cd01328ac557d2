// Bounded under hostile input, measured in the browser: memory over repeated runs with 4 MiB bodies.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, HOSTILE_PORT, assert, expected, shared, startHostile, test } from '../lib.mjs';

await startHostile();
const endpoint = `http://127.0.0.1:${HOSTILE_PORT}/big/mcp`;
const MiB = 1024 * 1024;

test('five runs with 4 MiB bodies in one tab: wasm memory grows ≤ 16 MiB and the JS heap ≤ 8 MiB after the first', async () => {
  const context = await shared.browser.newContext();
  const page = await context.newPage();
  // Trunk hands the instantiated module to its start event: keep a handle on its memory.
  await page.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', (e) => { window.__wasmMemory = e.detail.wasm.memory; });
  });
  await page.goto(shared.appUrl);
  await page.getByTestId('target-form').waitFor();
  const cdp = await context.newCDPSession(page);
  const measure = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')).usedSize;
    const wasm = await page.evaluate(() => window.__wasmMemory.buffer.byteLength);
    return { heap, wasm };
  };
  const samples = [];
  await page.getByTestId('endpoint').fill(endpoint);
  await page.getByTestId('token').fill('x-token-1234');
  for (let run = 0; run < 5; run++) {
    await page.getByTestId('quick-check').click();
    // The click starts a new run synchronously (its log restarts); wait for this run's own end.
    await page.waitForFunction(() => {
      const items = [...document.querySelectorAll('[data-testid=run-log] li')].map((li) => li.textContent);
      return items.length > 1 && items[0].includes('run started') && items[items.length - 1].includes('run finished');
    }, null, { timeout: 45000 });
    samples.push(await measure());
  }
  const wasmGrowth = samples[4].wasm - samples[0].wasm;
  const heapGrowth = samples[4].heap - samples[0].heap;
  writeFileSync(join(ARTIFACTS, 'memory.json'), JSON.stringify({ samples, wasmGrowth, heapGrowth }, null, 1));
  console.log(`     memory (after runs 1..5): wasm ${samples.map((s) => (s.wasm / MiB).toFixed(1)).join(', ')} MiB; JS heap ${samples.map((s) => (s.heap / MiB).toFixed(1)).join(', ')} MiB`);
  assert(wasmGrowth <= 16 * MiB, `wasm memory grew ${(wasmGrowth / MiB).toFixed(1)} MiB over four more runs`);
  assert(heapGrowth <= 8 * MiB, `JS heap grew ${(heapGrowth / MiB).toFixed(1)} MiB over four more runs`);
  await context.close();
}, { allow: [expected.noToken(endpoint), expected.get405(endpoint), expected.status(500, endpoint)] });
