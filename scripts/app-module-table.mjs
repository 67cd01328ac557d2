// What is in the app module ("Fast on slow links"): a twiggy table of the shipped wasm by crate and,
// for our two crates, by module, with what a split would take out of a Quick check's module.
//
//   node scripts/app-module-table.mjs [--bin mcp-triage-web] [--floor]
//
// Needs the cargo artefact of a release build (trunk build --release leaves it in
// target/wasm32-unknown-unknown/wasm-release/), wasm-bindgen and wasm-opt (scripts/setup.sh) and
// twiggy (`cargo install --locked twiggy`). The module goes through the steps Trunk runs
// (wasm-bindgen, then wasm-opt -Oz) with its function names kept (-g), so each function's size
// is its size in the shipped file; the names section itself is left out. Gzip is of the whole
// file only, so a row's gzip bytes are its share of the raw bytes times the file's gzip size: an
// estimate (code compresses better than strings). --floor also builds the app module without
// what a Quick check never runs (the web crate's `quick-floor` feature, in target/quick-floor) and
// measures it: the module a split would give a Quick check.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const BIN = arg('bin', 'mcp-triage-web');
const SRC = join(ROOT, 'target/wasm32-unknown-unknown/wasm-release', `${BIN}.wasm`);
const bin = join(ROOT, 'node_modules/.bin');
const tmp = mkdtempSync(join(tmpdir(), 'app-module-'));
const run = (cmd, args) => execFileSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).toString();

const features = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int'];
/** The module as Trunk ships it (wasm-bindgen, wasm-opt -Oz) in `dir`: its gzip -9 size; `named` keeps the function names. */
function ship(src, dir, named) {
  run('wasm-bindgen', ['--target', 'web', '--out-dir', dir, src]);
  const bg = join(dir, `${BIN}_bg.wasm`);
  run(join(bin, 'wasm-opt'), ['-Oz', ...features, bg, '-o', join(dir, 'shipped.wasm')]);
  if (named) run(join(bin, 'wasm-opt'), ['-Oz', '-g', ...features, bg, '-o', join(dir, 'named.wasm')]);
  const shipped = readFileSync(join(dir, 'shipped.wasm'));
  return { raw: shipped.length, gzip: gzipSync(shipped, { level: 9 }).length };
}

try {
  const { raw, gzip } = ship(SRC, tmp, true);
  const csv = run('twiggy', ['top', '--format', 'csv', join(tmp, 'named.wasm')]);

  // Each item to a group: the first crate its name mentions (a trait impl's self type, a
  // monomorphised generic's own crate); our crates by module.
  const group = (name) => {
    if (/^"*function names|^custom section|^"*local names|^"*type names|^"*global names|^"*data names|^"*elem names|^"*table names|^"*memory names/.test(name))
      return null;
    if (name.startsWith('data segment') || name.startsWith('data[')) return 'data: strings and tables';
    const m = name.match(/([a-z_][a-z0-9_]*)(?:\[[0-9a-f]+\])?::([a-z_][a-z0-9_]*)?(?:::([a-z_][a-z0-9_]*))?/);
    if (!m)
      return /^(export|import|elem|table|memory|global|type)\b/.test(name) || name.startsWith('__')
        ? 'wasm-bindgen glue, tables, exports'
        : 'unnamed functions';
    const [, crate, mod, sub] = m;
    if (crate === 'mcp_triage' || crate === 'mcp_triage_web') {
      const deep = ['run', 'output', 'components', 'state'].includes(mod) && sub && /^[a-z]/.test(sub);
      return `${crate}::${mod ?? '?'}${deep ? `::${sub}` : ''}`;
    }
    return crate;
  };
  const sizes = new Map();
  let total = 0;
  for (const line of csv.split('\n').slice(1)) {
    const m = line.match(/^(".*"|[^,]*),(\d+),/);
    if (!m) continue;
    const name = m[1].replace(/^"|"$/g, '').replace(/""/g, '"');
    const g = group(name);
    if (!g) continue;
    const n = Number(m[2]);
    sizes.set(g, (sizes.get(g) ?? 0) + n);
    total += n;
  }
  const rows = [...sizes].sort((a, b) => b[1] - a[1]);
  const est = (n) => Math.round((n / total) * gzip);
  const out = [];
  out.push(
    `\`${BIN}\`: ${raw} bytes, ${gzip} at gzip -9 (${(gzip / 1024).toFixed(1)} KiB), as Trunk ships it. Sizes by group: the raw bytes of its functions and data after wasm-opt -Oz (names kept for the count), and their share of the gzip size.`,
  );
  out.push('');
  out.push('| group | raw bytes | share | ≈ gzip bytes |');
  out.push('| --- | --- | --- | --- |');
  const small = rows.filter(([, n]) => n / total < 0.004);
  for (const [g, n] of rows.filter(([, n]) => n / total >= 0.004)) out.push(`| \`${g}\` | ${n} | ${((n / total) * 100).toFixed(1)} % | ${est(n)} |`);
  const rest = small.reduce((a, [, n]) => a + n, 0);
  out.push(`| ${small.length} smaller groups | ${rest} | ${((rest / total) * 100).toFixed(1)} % | ${est(rest)} |`);
  out.push('');
  // What a Quick check's module would not need: the groups of the features a Quick check never
  // runs (each a module of ours; the generic code they instantiate in other crates stays counted
  // there, so this is a floor of the saving).
  const OUTSIDE = [
    ['the OAuth doctor and sign-in', /^mcp_triage::run::auth|^mcp_triage_web::state::signin|^mcp_triage_web::components::(auth|signin)/],
    ['comparing runs', /^mcp_triage::output::compare|^mcp_triage_web::components::compare/],
    ['pasted recordings, replays and the examples', /^mcp_triage::output::(replay|runs)|^mcp_triage_web::components::(paste|examples)/],
    ['Review first and plan files', /^mcp_triage::run::plan_file|^mcp_triage_web::components::plan_review/],
    ['exports (Markdown, JSON, JUnit)', /^mcp_triage::output::(export|junit|markdown)|^mcp_triage_web::components::export_bar/],
  ];
  let cut = 0;
  out.push('| outside a Quick check | raw bytes | ≈ gzip bytes |');
  out.push('| --- | --- | --- |');
  for (const [what, re] of OUTSIDE) {
    const n = rows.filter(([g]) => re.test(g)).reduce((a, [, x]) => a + x, 0);
    cut += n;
    out.push(`| ${what} | ${n} | ${est(n)} |`);
  }
  out.push(`| **all of them** | **${cut}** | **${est(cut)}** |`);
  const runtime = rows
    .filter(([g]) =>
      /^(tachys|reactive_graph|leptos|leptos_macro|wasm_bindgen|js_sys|web_sys|core|alloc|std|dlmalloc|hashbrown|serde_core|serde_json|indexmap|futures_\w+|wasm_bindgen_futures|either_of|or_poisoned|send_wrapper|slotmap|itoa|ryu|zmij|memchr|wasm-bindgen glue, tables, exports)$/.test(
        g,
      ),
    )
    .reduce((a, [, n]) => a + n, 0);
  out.push('');
  out.push(
    `Leptos, wasm-bindgen, std and serde (the groups every module of ours repeats) are ${runtime} raw bytes, ≈ ${est(runtime)} at gzip -9 (${((runtime / total) * 100).toFixed(0)} %).`,
  );
  if (process.argv.includes('--floor')) {
    const dir = join(ROOT, 'target/quick-floor');
    run('cargo', [
      'build',
      '-q',
      '--profile',
      'wasm-release',
      '--target',
      'wasm32-unknown-unknown',
      '-p',
      'mcp-triage-web',
      '--bin',
      BIN,
      '--features',
      'quick-floor',
      '--target-dir',
      dir,
    ]);
    const floorDir = join(tmp, 'floor');
    const floor = ship(join(dir, 'wasm32-unknown-unknown/wasm-release', `${BIN}.wasm`), floorDir, false);
    out.push('');
    out.push(
      `Built without them (the web crate's \`quick-floor\` feature: the same app with those features left out, so the compiler drops them and the generic code only they instantiate): ${floor.raw} bytes, **${floor.gzip} at gzip -9 (${(floor.gzip / 1024).toFixed(1)} KiB)**, ${gzip - floor.gzip} bytes (${(((gzip - floor.gzip) / gzip) * 100).toFixed(0)} %) less than the module a click loads today.`,
    );
  }
  console.log(out.join('\n'));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
