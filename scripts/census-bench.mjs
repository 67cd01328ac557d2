#!/usr/bin/env node
// census-bench.mjs: the census at scale, for docs/PERFORMANCE.md (a report, never a timed test):
// 1,000 and 10,000 targets on the synthetic servers of e2e/census-faults.mjs (/fast: a tiny MCP
// server of ours, spread over 64 ports, so 64 hosts), run by the release binary with
// --host-delay-ms 0 and the default concurrency; the wall time (targets per second) and the peak
// resident memory (GNU time's maximum RSS) of each, to show time linear and memory flat.
//   node scripts/census-bench.mjs [--cli target/release/mcp-triage] [--sizes 1000,10000]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const cli = arg('cli', join(ROOT, 'target/release/mcp-triage'));
const sizes = arg('sizes', '1000,10000').split(',').map(Number);
const BASE = 19600;
const PORTS = 64;

const ports = Array.from({ length: PORTS }, (_, i) => BASE + i);
const server = spawn('node', [join(ROOT, 'e2e/census-faults.mjs'), '--ports', ports.join(',')], { stdio: 'ignore' });
const up = (port) =>
  new Promise((ok) => {
    const s = createConnection(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      ok(true);
    });
    s.on('error', () => ok(false));
  });
for (let i = 0; i < 100 && !(await up(ports[PORTS - 1])); i++) await new Promise((r) => setTimeout(r, 50));

const dir = mkdtempSync(join(tmpdir(), 'census-bench-'));
try {
  for (const n of sizes) {
    const list = Array.from({ length: n }, (_, i) => `http://127.0.0.1:${ports[i % PORTS]}/fast/mcp?n=${i}`);
    const targets = join(dir, `targets-${n}.txt`);
    const out = join(dir, `out-${n}.jsonl`);
    writeFileSync(targets, `${list.join('\n')}\n`);
    const t0 = process.hrtime.bigint();
    const run = spawnSync('/usr/bin/time', ['-f', '%M', cli, 'census', targets, '--out', out, '--host-delay-ms', '0', '--quiet'], { encoding: 'utf8' });
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    if (run.status !== 0) throw new Error(`census exited ${run.status}: ${run.stderr}`);
    // GNU time writes the maximum resident set (KiB) as stderr's last line.
    const rssKiB = Number(run.stderr.trim().split('\n').pop());
    const lines = readFileSync(out, 'utf8').split('\n').filter(Boolean);
    const answered = lines.filter((l) => l.includes('"reach":"answered"')).length;
    console.log(
      `census: ${n} targets (${answered} answered, ${lines.length} lines) in ${secs.toFixed(2)} s: ${(n / secs).toFixed(0)} targets/s, peak RSS ${(rssKiB / 1024).toFixed(1)} MiB`,
    );
  }
} finally {
  server.kill();
  rmSync(dir, { recursive: true, force: true });
}
