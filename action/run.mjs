// The GitHub Action's logic: action.yml runs it with its inputs in MCP_TRIAGE_* variables. It finds the
// CLI (binary-path, or the release archive for this runner, whose SHA-256 must match the release's
// checksum file), runs `mcp-triage probe` with the JSON report, a JUnit file and the Markdown report
// (with the share link), appends the Markdown to the job summary, sets the outputs score, share-link,
// exit-code and junit-file, and fails with the CLI's exit status. Node's standard library only: every
// GitHub runner has node.
// The token goes to the CLI through its environment (--token-env), never on a command line, and this
// script never prints it.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const input = (name) => (process.env[`MCP_TRIAGE_${name}`] ?? '').trim();

/** Stops with a message for the log (GitHub's error annotation) and exit status `code`. */
function fail(message, code = 2) {
  console.log(`::error title=MCP Triage::${message.replace(/[\r\n%]/g, ' ')}`);
  process.exit(code);
}

/** Where release archives are: the action's own repository (a composite action's steps see it only
 * through action.yml's env), else the project's. */
const repository = input('ACTION_REPOSITORY') || 'mcp-triage/mcp-triage';

/** A release tag (v0.1.0). */
const TAG = /^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** The release to download: the version input, else the action's own tag (so pinning the action pins
 * the CLI), else the latest release, said in the log. */
function releaseVersion() {
  const given = input('VERSION');
  if (given) return given;
  const ref = input('ACTION_REF');
  if (TAG.test(ref)) return ref;
  console.log(
    `the action is used at ${ref ? JSON.stringify(ref) : 'no ref'}, not a release tag: downloading the latest release (set the version input to pin it)`,
  );
  return 'latest';
}

/** The release target of this runner. */
function target() {
  const targets = {
    'linux-x64': 'x86_64-unknown-linux-musl',
    'linux-arm64': 'aarch64-unknown-linux-musl',
    'darwin-arm64': 'aarch64-apple-darwin',
    'darwin-x64': 'x86_64-apple-darwin',
    'win32-x64': 'x86_64-pc-windows-msvc',
  };
  const found = targets[`${process.platform}-${process.arch}`];
  if (!found) fail(`no mcp-triage release is built for ${process.platform} ${process.arch}: build one and pass binary-path`);
  return found;
}

/** The archive's bytes from `url`, at most `max` bytes. */
async function download(url, max) {
  const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(120_000) });
  if (!response.ok) fail(`download of ${url} failed: HTTP ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > max) fail(`download of ${url} is larger than ${max} bytes`);
  return bytes;
}

/** The CLI to run: binary-path, or a verified release download. */
async function cli(work) {
  const given = input('BINARY_PATH');
  if (given) {
    if (!existsSync(given)) fail(`binary-path ${given} does not exist`);
    return given;
  }
  const version = releaseVersion();
  if (version !== 'latest' && !TAG.test(version)) {
    fail(`version must be latest or a release tag such as v0.1.0, not ${JSON.stringify(version)}`);
  }
  const windows = process.platform === 'win32';
  const asset = `mcp-triage-${target()}.${windows ? 'zip' : 'tar.gz'}`;
  // MCP_TRIAGE_DOWNLOAD_BASE: a mirror of the release's files (the tests serve a local one).
  const mirror = process.env.MCP_TRIAGE_DOWNLOAD_BASE;
  const base = mirror
    ? mirror.replace(/\/+$/, '')
    : version === 'latest'
      ? `https://github.com/${repository}/releases/latest/download`
      : `https://github.com/${repository}/releases/download/${version.startsWith('v') ? version : `v${version}`}`;
  const archive = await download(`${base}/${asset}`, 64 << 20);
  const sums = (await download(`${base}/${asset}.sha256`, 4096)).toString('utf8');
  const want = sums.trim().split(/\s+/)[0]?.toLowerCase();
  const got = createHash('sha256').update(archive).digest('hex');
  if (!/^[0-9a-f]{64}$/.test(want ?? '') || want !== got) {
    fail(`${asset}: its SHA-256 ${got} is not the release's ${want ?? '(none)'}; nothing was run`);
  }
  const file = join(work, asset);
  writeFileSync(file, archive);
  // bsdtar reads zip and tar.gz alike: Windows' own (under bash, `tar` is Git's GNU tar, which reads
  // no zip and takes `D:` for a host) and macOS's; GNU tar reads the Linux tar.gz.
  const tar = windows ? join(process.env.SystemRoot || 'C:\\Windows', 'System32', 'tar.exe') : 'tar';
  const unpacked = spawnSync(tar, ['-xf', file, '-C', work], { stdio: 'inherit' });
  if (unpacked.status !== 0) fail(`cannot unpack ${asset}`);
  const bin = join(work, windows ? 'mcp-triage.exe' : 'mcp-triage');
  if (!windows) chmodSync(bin, 0o755);
  return bin;
}

/** Appends `name=value` to $GITHUB_OUTPUT with a random delimiter, so no value can add an output. */
function output(name, value) {
  const file = process.env.GITHUB_OUTPUT;
  if (!file) return;
  const end = `MCP_TRIAGE_${randomBytes(16).toString('hex')}`;
  appendFileSync(file, `${name}<<${end}\n${value}\n${end}\n`);
}

function summary(text) {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (file) appendFileSync(file, `${text}\n`);
}

const url = input('URL');
if (!url) fail('the url input is required');
const failUnder = input('FAIL_UNDER');
if (failUnder && !/^[0-3]$/.test(failUnder)) fail(`fail-under takes 0 to 3, not ${JSON.stringify(failUnder)}`);

const work = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), 'mcp-triage-'));
const bin = await cli(work);
const junit = join(work, 'mcp-triage.xml');
const markdown = join(work, 'mcp-triage.md');
const args = ['probe', url, '--json', '--share', '--junit', junit, '--markdown-file', markdown];
const page = input('PAGE_URL');
if (page) args.push('--share-base', page);
if (input('TOKEN')) args.push('--token-env', 'MCP_TRIAGE_TOKEN');
if (input('PLAN')) args.push('--plan', input('PLAN'));
if (input('ERA')) args.push('--era', input('ERA'));
if (failUnder) args.push('--fail-under', failUnder);
// A path, passed as one argument (never through a shell); the CLI reads and checks it.
if (input('BASELINE')) args.push('--baseline', input('BASELINE'));

// A cancelled job signals the whole process group: the CLI stops its run and still writes every
// report (exit 130 or 143); this script waits for it, then writes the summary and the outputs.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {});
const run = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 256 << 20, env: process.env });
if (run.error) fail(`cannot run ${bin}: ${run.error.message}`);
// Progress and messages (the CLI never prints a secret); the JSON report is kept for the summary.
process.stderr.write(run.stderr ?? '');
const code = run.status ?? 1;

let report = null;
try {
  report = JSON.parse(run.stdout);
} catch {
  report = null;
}
if (report) {
  const md = existsSync(markdown) ? readFileSync(markdown, 'utf8') : `${report.headline ?? ''}\n`;
  summary(`## MCP Triage\n\n${md}`);
  summary(`Exit status ${code} (\`mcp-triage probe --help\` lists them).\n`);
  output('score', report.summary?.score ?? 'n/a');
  output('share-link', report.share ?? '');
} else {
  const why = (run.stderr ?? '').trim().split('\n').slice(-1)[0] || 'no report';
  summary(`## MCP Triage\n\nNo report: exit status ${code}. ${why}\n`);
  output('score', 'n/a');
  output('share-link', '');
}
output('exit-code', String(code));
output('junit-file', junit);
if (code !== 0) {
  console.log(`::error title=MCP Triage::mcp-triage probe exited with ${code} (see the summary and \`mcp-triage probe --help\`)`);
}
process.exit(code);
