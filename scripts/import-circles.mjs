#!/usr/bin/env node
// import-circles.mjs: fails (exit 1) when Rust source files import each other in a circle.
//   node scripts/import-circles.mjs [SRC_DIR...]   check crate source roots (default: every crate's src/)
//   node scripts/import-circles.mjs --self-test    the controls: fake crates each rule must fail or pass
//   node scripts/import-circles.mjs --arrows [SRC_DIR...]   prints each crate root's top-level module edges,
//     one line per importing module, `<crate root>: <module> → <target>, …`, in layer order
//   node scripts/import-circles.mjs --doc FILE [SRC_DIR...]   fails unless the lines of FILE's ```arrows
//     blocks (blank and # lines skipped) are exactly the --arrows lines, as a set
// Rules, per crate root (lib.rs, main.rs, bin/*.rs, the [lib]/[[bin]] paths of the crate's Cargo.toml):
//   (a) no circle between files; (b) no import back up to the file of an ancestor module (a parent's
//   mod.rs, the crate root); (c) no circle between the crate's top-level modules ("folder circles").
// Edges come from `use` trees and from paths in code that start with crate/super/self or a child module
// declared in the file; comments, string/char literals and #[cfg(test)] items are never read. Not
// followed: #[path] attributes, include!, macro expansion, names brought in by a relative `use`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// ---- lexing -------------------------------------------------------------------------------------

const isIdentChar = (c) => c !== undefined && /[\p{ID_Continue}]/u.test(c);

// Blanks comments and string/char literals (newlines kept, so lines and columns stay put).
function stripCode(src) {
  const out = src.split('');
  const blank = (from, to) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i],
      n = src[i + 1];
    const wordStart = !isIdentChar(src[i - 1]);
    if (c === '/' && n === '/') {
      const end = src.indexOf('\n', i);
      const stop = end < 0 ? src.length : end;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === '/' && n === '*') {
      // block comments nest in Rust
      let depth = 0,
        j = i;
      while (j < src.length) {
        if (src[j] === '/' && src[j + 1] === '*') {
          depth++;
          j += 2;
        } else if (src[j] === '*' && src[j + 1] === '/') {
          depth--;
          j += 2;
          if (depth === 0) break;
        } else j++;
      }
      blank(i, j);
      i = j;
      continue;
    }
    // raw strings: r"..", r#".."#, br#".."#, cr".."
    const rawAt = !wordStart ? -1 : c === 'r' ? i : (c === 'b' || c === 'c') && n === 'r' ? i + 1 : -1;
    if (rawAt >= 0) {
      let j = rawAt + 1;
      while (src[j] === '#') j++;
      if (src[j] === '"') {
        const close = `"${'#'.repeat(j - rawAt - 1)}`;
        const end = src.indexOf(close, j + 1);
        const stop = end < 0 ? src.length : end + close.length;
        blank(i, stop);
        i = stop;
        continue;
      }
    }
    if (c === '"' || (wordStart && (c === 'b' || c === 'c') && n === '"')) {
      let j = c === '"' ? i + 1 : i + 2;
      while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      blank(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === "'" || (wordStart && c === 'b' && n === "'")) {
      // char literal, or a lifetime/label
      const q = c === "'" ? i : i + 1;
      if (src[q + 1] === '\\') {
        const end = src.indexOf("'", q + 3);
        const stop = end < 0 ? src.length : end + 1;
        blank(i, stop);
        i = stop;
        continue;
      }
      const cp = src.codePointAt(q + 1);
      const len = cp === undefined ? 1 : cp > 0xffff ? 2 : 1;
      const isChar = cp !== undefined && src[q + 1] !== '\n' && src[q + 1 + len] === "'";
      if (isChar) {
        blank(i, q + 2 + len);
        i = q + 2 + len;
      } else i = q + 1; // else a lifetime: left as is
      continue;
    }
    i++;
  }
  return out.join('');
}

// Tokens with their 1-based line: identifiers (raw ones unwrapped and marked), `::`, single characters.
function tokenize(clean) {
  const toks = [];
  const re = /(\s+)|r#([\p{ID_Start}_][\p{ID_Continue}]*)|([\p{ID_Start}_][\p{ID_Continue}]*)|([0-9][\w.]*)|(::)|([\s\S])/uy;
  let line = 1;
  for (let m = re.exec(clean); m; m = re.exec(clean)) {
    if (m[1]) {
      for (const ch of m[1]) if (ch === '\n') line++;
      continue;
    }
    if (m[4]) continue;
    toks.push({ t: m[2] ?? m[3] ?? m[5] ?? m[6], raw: !!m[2], ident: !!(m[2] || m[3]), line });
  }
  return toks;
}

// ---- scanning one file --------------------------------------------------------------------------

const OPEN = new Set(['(', '[', '{']),
  CLOSE = new Set([')', ']', '}']);
const kw = (tok, word) => tok && !tok.raw && tok.t === word;

function matchClose(toks, i) {
  // toks[i] opens; returns the index of its closer
  let d = 0;
  for (; i < toks.length; i++) {
    if (OPEN.has(toks[i].t)) d++;
    else if (CLOSE.has(toks[i].t) && --d === 0) return i;
  }
  return toks.length - 1;
}

// #[cfg(test)] and #[cfg(all(test, ...))]: the item is test code.
function isTestCfg(attr) {
  const s = attr.map((x) => x.t).join('');
  if (s === 'cfg(test)') return true;
  if (!s.startsWith('cfg(all(') || !s.endsWith('))')) return false;
  const args = [];
  let d = 0,
    cur = '';
  for (const ch of s.slice(8, -2)) {
    if (ch === ',' && d === 0) {
      args.push(cur);
      cur = '';
      continue;
    }
    if (ch === '(') d++;
    if (ch === ')') d--;
    cur += ch;
  }
  return [...args, cur].includes('test');
}

// Skips one item (its further attributes, then up to `;` or its closing brace); returns the next index.
function skipItem(toks, i) {
  while (toks[i]?.t === '#' && toks[i + 1]?.t === '[') i = matchClose(toks, i + 1) + 1;
  let d = 0;
  for (; i < toks.length; i++) {
    const t = toks[i].t;
    if (OPEN.has(t)) d++;
    else if (CLOSE.has(t)) {
      if (d === 0) return i;
      if (--d === 0 && t === '}') return i + 1;
    } else if (t === ';' && d === 0) return i + 1;
  }
  return i;
}

// One use-tree from toks[i], flattened into `out` as {segs, lines}; returns the index after it.
function parseUseTree(toks, i, prefix, out, prefixLines = []) {
  const segs = [...prefix],
    lines = [...prefixLines];
  if (toks[i]?.t === '::') {
    if (!segs.length) {
      segs.push('::');
      lines.push(toks[i].line);
    }
    i++;
  } // `::name`: external
  for (;;) {
    const tok = toks[i];
    if (tok?.t === '{') {
      i++;
      while (toks[i] && toks[i].t !== '}') {
        const j = parseUseTree(toks, i, segs, out, lines);
        i = toks[j]?.t === ',' ? j + 1 : Math.max(j, i + 1);
      }
      return i + 1;
    }
    if (tok?.t === '*') {
      out.push({ segs, lines });
      return i + 1;
    }
    if (!tok?.ident) return i;
    segs.push(tok.t);
    lines.push(tok.line);
    i++;
    if (toks[i]?.t === '::') {
      i++;
      continue;
    }
    if (kw(toks[i], 'as')) i += 2;
    out.push({ segs, lines });
    return i;
  }
}

// A file's module declarations and path references, each with `ctx`, the inline modules around it.
function scanFile(text) {
  const toks = tokenize(stripCode(text));
  const mods = [],
    refs = [],
    testMods = [],
    inline = [];
  const ctx = () => inline.map((m) => m.name);
  let depth = 0,
    i = 0;
  while (i < toks.length) {
    const tok = toks[i],
      t = tok.t;
    if (t === '#' && (toks[i + 1]?.t === '[' || (toks[i + 1]?.t === '!' && toks[i + 2]?.t === '['))) {
      const inner = toks[i + 1].t === '!',
        open = inner ? i + 2 : i + 1,
        close = matchClose(toks, open);
      const attr = toks.slice(open + 1, close);
      if (!isTestCfg(attr)) {
        i = close + 1;
        continue;
      }
      if (inner && depth === 0) return { excluded: true, mods: [], refs: [], testMods: [] };
      if (inner) {
        // the rest of this inline module is test code
        let d = 0;
        i = close + 1;
        for (; i < toks.length; i++)
          if (OPEN.has(toks[i].t)) d++;
          else if (CLOSE.has(toks[i].t) && d-- === 0) break;
        continue;
      }
      const end = skipItem(toks, close + 1);
      const decl = toks.slice(close + 1, end),
        at = decl.findIndex((x) => kw(x, 'mod'));
      if (at >= 0 && decl[at + 2]?.t === ';') testMods.push({ ctx: ctx(), name: decl[at + 1].t });
      i = end;
      continue;
    }
    if (t === '{') {
      depth++;
      i++;
      continue;
    }
    if (t === '}') {
      depth--;
      if (inline.at(-1)?.depth === depth) inline.pop();
      i++;
      continue;
    }
    if (kw(tok, 'mod') && toks[i + 1]?.ident && (toks[i + 2]?.t === ';' || toks[i + 2]?.t === '{')) {
      const isInline = toks[i + 2].t === '{';
      mods.push({ ctx: ctx(), name: toks[i + 1].t, inline: isInline, line: tok.line });
      if (isInline) {
        inline.push({ name: toks[i + 1].t, depth });
        depth++;
      }
      i += 3;
      continue;
    }
    if (kw(tok, 'use') && toks[i + 1]?.t !== '<') {
      // `+ use<'a>` is precise capturing, not an import
      const found = [];
      i = parseUseTree(toks, i + 1, [], found);
      while (i < toks.length && toks[i].t !== ';') i++;
      for (const f of found) refs.push({ ctx: ctx(), ...f });
      continue;
    }
    const prev = toks[i - 1]?.t;
    const visIn = prev === 'in' && toks[i - 2]?.t === '(' && toks[i - 3]?.t === 'pub'; // pub(in crate::a)
    const notPath = prev === '::' || prev === '.' || (prev === '$' && t !== 'crate'); // a.f::<T>(), $var::x
    if (tok.ident && toks[i + 1]?.t === '::' && !notPath && !visIn) {
      const segs = [t],
        lines = [tok.line];
      i++;
      while (toks[i]?.t === '::' && toks[i + 1]?.ident) {
        segs.push(toks[i + 1].t);
        lines.push(toks[i + 1].line);
        i += 2;
      }
      refs.push({ ctx: ctx(), segs, lines });
      continue;
    }
    i++;
  }
  return { excluded: false, mods, refs, testMods };
}

// ---- the module tree of one crate root ----------------------------------------------------------

const exists = (f) => fs.existsSync(f) && fs.statSync(f).isFile();
const moduleDirOf = (file, isRoot) => (isRoot || path.basename(file) === 'mod.rs' ? path.dirname(file) : file.slice(0, -3));
const newModule = (parent, name, file, dir) => ({ parent, name, file, dir, children: new Map() });
const walk = (node, names) => names.reduce((n, name) => n?.children.get(name), node);

// Follows `mod` declarations from the root file; returns {root, files: Map(file → {node, scan, lines})}.
function loadCrate(rootFile) {
  const root = newModule(null, 'crate', rootFile, moduleDirOf(rootFile, true));
  const files = new Map(),
    testFiles = new Set(),
    warnings = [];
  const queue = [root];
  while (queue.length) {
    const node = queue.shift();
    const text = fs.readFileSync(node.file, 'utf8');
    const scan = scanFile(text);
    if (scan.excluded) {
      node.parent?.children.delete(node.name);
      testFiles.add(node.file);
      continue;
    }
    files.set(node.file, { node, scan, lines: text.split('\n') });
    const fileOf = (dir, name) => [path.join(dir, `${name}.rs`), path.join(dir, name, 'mod.rs')].find(exists);
    for (const m of scan.testMods) {
      const ctx = walk(node, m.ctx),
        f = ctx && fileOf(ctx.dir, m.name);
      if (f) {
        testFiles.add(f);
        testFiles.add(moduleDirOf(f, false) + path.sep);
      }
    }
    for (const m of scan.mods) {
      const ctx = walk(node, m.ctx);
      if (!ctx) continue;
      if (m.inline) {
        ctx.children.set(m.name, newModule(ctx, m.name, node.file, path.join(ctx.dir, m.name)));
        continue;
      }
      const file = fileOf(ctx.dir, m.name);
      if (!file) {
        warnings.push(`${path.relative(process.cwd(), node.file)}:${m.line}: \`mod ${m.name};\` has no file`);
        continue;
      }
      const child = newModule(ctx, m.name, file, moduleDirOf(file, false));
      ctx.children.set(m.name, child);
      queue.push(child);
    }
  }
  return { root, files, testFiles, warnings };
}

// The module a path names, as deep into the tree as its segments go, and how many segments that
// took ({node, used}); null for external paths.
function resolve(ctx, root, segs) {
  let node = ctx,
    i = 0;
  if (segs[0] === 'crate') {
    node = root;
    i = 1;
  } else if (segs[0] === 'self') i = 1;
  else if (segs[0] === 'super') {
    while (segs[i] === 'super') {
      node = node.parent;
      i++;
      if (!node) return null;
    }
  } else if (!ctx.children.has(segs[0])) return null;
  while (i < segs.length && node.children.has(segs[i])) node = node.children.get(segs[i++]);
  return { node, used: Math.max(i, 1) };
}

// File → file edges, each with the sites (line and text) that make it.
function collectEdges(crate) {
  const edges = new Map();
  for (const [file, { node, scan, lines }] of crate.files) {
    for (const ref of scan.refs) {
      const ctx = walk(node, ref.ctx);
      const found = ctx && resolve(ctx, crate.root, ref.segs),
        target = found?.node;
      if (!target || target.file === file || !crate.files.has(target.file)) continue;
      const key = `${file}\0${target.file}`;
      if (!edges.has(key)) edges.set(key, { from: file, to: target.file, sites: [] });
      const line = ref.lines[found.used - 1],
        sites = edges.get(key).sites; // the line naming the module
      if (!sites.some((s) => s.line === line)) sites.push({ line, text: lines[line - 1].trim() });
    }
  }
  return [...edges.values()];
}

// ---- graphs -------------------------------------------------------------------------------------

// Tarjan's strongly connected components; sinks come out first (lowest first for "imports").
function tarjan(nodes, next) {
  let index = 0;
  const idx = new Map(),
    low = new Map(),
    onStack = new Set(),
    stack = [],
    sccs = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      sccs.push(scc.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!idx.has(v)) visit(v);
  return sccs;
}

// Layers of the condensed graph: layer 0 imports nothing in the graph, layer n imports layers < n.
function layers(sccs, next) {
  const sccOf = new Map(),
    level = [];
  sccs.forEach((scc, k) => {
    for (const v of scc) sccOf.set(v, k);
  });
  sccs.forEach((scc, k) => {
    // Tarjan order: every SCC a member imports is already levelled
    let l = 0;
    for (const v of scc) for (const w of next(v)) if (sccOf.get(w) !== k) l = Math.max(l, level[sccOf.get(w)] + 1);
    level[k] = l;
  });
  const rows = [];
  sccs.forEach((scc, k) => {
    rows[level[k]] ??= [];
    rows[level[k]].push(scc.length > 1 ? `{${scc.join(' ')}}` : scc[0]);
  });
  return rows.map((row) => row.sort());
}

// ---- the rules ----------------------------------------------------------------------------------

function checkCrate(rootFile) {
  const crate = loadCrate(rootFile);
  const edges = collectEdges(crate);
  const base = path.dirname(rootFile);
  const rel = (f) => path.relative(base, f);
  const site = (e, indent, head = true) => [
    // the edge, then up to 3 of its lines
    ...(head ? [`${indent}${rel(e.from)} → ${rel(e.to)}`] : []),
    ...e.sites.slice(0, 3).map((s) => `${indent}  ${rel(e.from)}:${s.line}  ${s.text.slice(0, 110)}`),
    ...(e.sites.length > 3 ? [`${indent}  (+${e.sites.length - 3} more in ${rel(e.from)})`] : []),
  ];
  const problems = [];
  const out = (f) => edges.filter((e) => e.from === f).map((e) => e.to);

  // (a) file circles
  const fileSccs = tarjan(crate.files.keys(), out).filter((s) => s.length > 1);
  const inFileCircle = new Set();
  for (const scc of fileSccs) {
    const inside = edges.filter((e) => scc.includes(e.from) && scc.includes(e.to));
    for (const e of inside) inFileCircle.add(e);
    const mutual = (e) => inside.some((r) => r.from === e.to && r.to === e.from);
    const pairs = inside
      .filter((e) => mutual(e) && e.from < e.to)
      .map((e) => `${rel(e.from)} ↔ ${rel(e.to)}`)
      .sort();
    const title = scc.length === 2 ? pairs[0] : `${scc.length} files: ${scc.map(rel).join(', ')}`;
    const pairKey = (e) => (mutual(e) ? [e.from, e.to].sort().join('\0') : '\uffff'); // pairs first, both ways together
    inside.sort((a, b) => (pairKey(a) < pairKey(b) ? -1 : pairKey(a) > pairKey(b) ? 1 : a.from < b.from ? -1 : 1));
    problems.push({
      kind: 'circle',
      lines: [
        `file circle: ${title}`,
        ...(scc.length > 2 && pairs.length ? [`  files that import each other directly: ${pairs.join(', ')}`] : []),
        ...inside.flatMap((e) => site(e, '    ')),
      ],
    });
  }

  // (b) imports back up to an ancestor module's file
  for (const e of edges) {
    let n = crate.files.get(e.from).node.parent,
      depthUp = 1;
    while (n && n.file !== e.to) {
      n = n.parent;
      depthUp++;
    }
    if (!n) continue;
    const who = n === crate.root ? 'the crate root' : depthUp === 1 ? 'its parent module' : `its ancestor module \`${n.name}\``;
    problems.push({ kind: 'up', lines: [`import runs back up: ${rel(e.from)} → ${rel(e.to)} (${who})`, ...site(e, '    ', false)] });
  }

  // (c) folder circles: every file collapsed to its top-level module (the crate root left out)
  const topOf = (file) => {
    let n = crate.files.get(file).node;
    if (n === crate.root) return null;
    while (n.parent !== crate.root) n = n.parent;
    return n.name;
  };
  const tops = new Set([...crate.files.keys()].map(topOf).filter(Boolean));
  const cross = edges.filter((e) => topOf(e.from) && topOf(e.to) && topOf(e.from) !== topOf(e.to));
  const folderNext = (m) => [...new Set(cross.filter((e) => topOf(e.from) === m).map((e) => topOf(e.to)))];
  const folderSccs = tarjan(tops, folderNext);
  for (const scc of folderSccs.filter((s) => s.length > 1)) {
    const inside = cross.filter((e) => scc.includes(topOf(e.from)) && scc.includes(topOf(e.to)));
    const title = `folder circle: ${scc.join(' ↔ ')}`;
    problems.push({
      kind: 'folder',
      lines: inside.every((e) => inFileCircle.has(e))
        ? [`${title} (its edges are the file circles above)`]
        : [title, ...inside.flatMap((e) => site(e, '    '))],
    });
  }
  const order = layers(folderSccs, folderNext);
  // The collapsed graph's edges, importers and targets in layer order (lowest first, ties alphabetical).
  const level = new Map(
    order.flatMap((row, k) =>
      row.flatMap((x) =>
        x
          .replace(/[{}]/g, '')
          .split(' ')
          .map((m) => [m, k]),
      ),
    ),
  );
  const byLayer = (a, b) => level.get(a) - level.get(b) || (a < b ? -1 : a > b ? 1 : 0);
  const arrows = [...tops]
    .sort(byLayer)
    .map((m) => [m, folderNext(m).sort(byLayer)])
    .filter(([, to]) => to.length);
  return { crate, edges, problems, order, arrows };
}

// Crate roots in a src dir: lib.rs, main.rs, bin/*.rs, bin/*/main.rs, and Cargo.toml's [lib]/[[bin]] paths.
function crateRoots(srcDir) {
  const roots = ['lib.rs', 'main.rs'].map((f) => path.join(srcDir, f));
  const bin = path.join(srcDir, 'bin');
  if (fs.existsSync(bin)) {
    for (const f of fs.readdirSync(bin).sort()) roots.push(path.join(bin, f), path.join(bin, f, 'main.rs'));
  }
  const manifest = path.join(path.dirname(srcDir), 'Cargo.toml');
  if (exists(manifest)) {
    let section = '';
    for (const line of fs.readFileSync(manifest, 'utf8').split('\n')) {
      const head = line.match(/^\s*\[+\s*([\w.-]+)\s*\]+/);
      if (head) {
        section = head[1];
        continue;
      }
      const p = line.match(/^\s*path\s*=\s*"([^"]+\.rs)"/);
      if (p && (section === 'lib' || section === 'bin')) roots.push(path.resolve(path.dirname(manifest), p[1]));
    }
  }
  return [...new Set(roots.map((f) => path.resolve(f)))].filter((f) => exists(f) && f.startsWith(srcDir + path.sep));
}

function listRs(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? listRs(path.join(dir, d.name)) : d.name.endsWith('.rs') ? [path.join(dir, d.name)] : []));
}

// Checks every crate root in the source dirs; returns {ok, lines}.
function checkSources(srcDirs) {
  const lines = [];
  let ok = true;
  for (const dir of srcDirs.map((d) => path.resolve(d))) {
    const roots = crateRoots(dir);
    if (!roots.length) {
      lines.push(`${path.relative(process.cwd(), dir)}: no lib.rs, main.rs or bin/*.rs`);
      ok = false;
      continue;
    }
    const seen = new Set();
    for (const rootFile of roots) {
      const { crate, edges, problems, order } = checkCrate(rootFile);
      for (const f of [...crate.files.keys(), ...crate.testFiles]) seen.add(f);
      const shown = path.relative(process.cwd(), rootFile);
      lines.push(`${shown}: ${crate.files.size} files, ${edges.length} edges${problems.length ? `, ${problems.length} problems` : ''}`);
      for (const w of crate.warnings) lines.push(`  warning: ${w}`);
      for (const p of problems) lines.push(...p.lines.map((l, k) => (k ? '  ' : `FAIL [${shown}] `) + l));
      if (order.length > 1 || order[0]?.length > 1) {
        lines.push('  top-level module order (lowest first; each layer imports only layers before it):');
        order.forEach((row, k) => {
          lines.push(`    ${k}: ${row.join(' ')}`);
        });
      }
      if (problems.length) ok = false;
    }
    const testDirs = [...seen].filter((f) => f.endsWith(path.sep));
    const orphans = listRs(dir).filter((f) => !seen.has(f) && !testDirs.some((d) => f.startsWith(d)));
    for (const f of orphans) lines.push(`  note: ${path.relative(process.cwd(), f)} is in no crate root's module tree (not checked)`);
  }
  return { ok, lines };
}

// ---- the doc's arrows ---------------------------------------------------------------------------

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const slashed = (f) => f.split(path.sep).join('/');

// `<crate root>: <module> → <target>, …` for every crate root in the source dirs, the root's path
// relative to `base`; returns {lines, problems}.
function arrowLines(srcDirs, base) {
  const lines = [],
    problems = [];
  for (const dir of srcDirs.map((d) => path.resolve(d))) {
    const roots = crateRoots(dir);
    if (!roots.length) problems.push(`${slashed(path.relative(base, dir))}: no lib.rs, main.rs or bin/*.rs`);
    for (const rootFile of roots) {
      const label = slashed(path.relative(base, rootFile));
      for (const [m, to] of checkCrate(rootFile).arrows) lines.push(`${label}: ${m} → ${to.join(', ')}`);
    }
  }
  return { lines, problems };
}

// The trimmed lines of a markdown text's ```arrows fences, blank and # lines skipped; {blocks, lines}.
function docArrows(text) {
  let fence = null,
    blocks = 0;
  const lines = [];
  for (const line of text.split(/\r?\n/)) {
    if (!fence) {
      const m = line.match(/^ {0,3}(`{3,}|~{3,})(.*)$/);
      if (!m || (m[1][0] === '`' && m[2].includes('`'))) continue;
      fence = { mark: m[1], arrows: m[2].trim() === 'arrows' };
      if (fence.arrows) blocks++;
      continue;
    }
    const close = line.match(/^ {0,3}(`{3,}|~{3,})\s*$/);
    if (close && close[1][0] === fence.mark[0] && close[1].length >= fence.mark.length) {
      fence = null;
      continue;
    }
    const t = line.trim();
    if (fence.arrows && t && !t.startsWith('#')) lines.push(t);
  }
  return { blocks, lines };
}

// The doc's arrows against the code's, as sets; returns {ok, lines}. `name` is the doc as shown.
function checkDoc(docFile, srcDirs, base, name) {
  if (!exists(docFile)) return { ok: false, lines: [`FAIL ${name}: no such file`] };
  const doc = docArrows(fs.readFileSync(docFile, 'utf8'));
  if (!doc.blocks) return { ok: false, lines: [`FAIL ${name} has no \`\`\`arrows block (its lines: node scripts/import-circles.mjs --arrows)`] };
  const code = arrowLines(srcDirs, base);
  const inDoc = new Set(doc.lines),
    inCode = new Set(code.lines);
  const missing = code.lines.filter((l) => !inDoc.has(l)),
    extra = [...inDoc].filter((l) => !inCode.has(l));
  const lines = code.problems.map((p) => `FAIL ${p}`);
  if (missing.length || extra.length) {
    lines.push(
      `FAIL ${name}'s arrows differ from the code:`,
      ...missing.map((l) => `  missing from the doc: ${l}`),
      ...extra.map((l) => `  in the doc but not in the code: ${l}`),
    );
  }
  if (!lines.length) lines.push(`${name}'s arrows match the code (${code.lines.length} lines)`);
  return { ok: !code.problems.length && !missing.length && !extra.length, lines };
}

// ---- self-test ----------------------------------------------------------------------------------

const CLEAN_CRATE = {
  'lib.rs': '//! A clean crate.\npub mod engine;\nmod model;\nmod util;\npub use engine::{run, Poll};\n',
  'engine/mod.rs':
    'mod poll;\nmod step;\npub use poll::Poll;\npub use self::step::{self as steps, Step};\n' +
    'use crate::model::{helper, Item};\npub fn run() -> Poll { let _ = (helper(), Item, crate::util::inner::f()); poll::start() }\n',
  'engine/poll.rs':
    "pub const Q: char = '\"';\nuse super::step::Step;\nuse crate::{model::{self, Item}, engine::step as s};\n" +
    'pub struct Poll(pub Step);\npub fn start() -> Poll { let _ = model::helper(); Poll(Step) }\n' +
    '#[cfg(test)]\nmod tests { use super::*; use crate::engine::run; }\n',
  'engine/step.rs':
    'pub struct Step;\npub mod detail { pub fn d() { let _ = super::super::super::util::Unit; } }\n' +
    '#[cfg(all(test, target_arch = "wasm32"))]\nfn wasm_only() { crate::engine::run(); }\n',
  'model.rs':
    '//! Strings, comments and tests that name the engine: none is an edge.\n' +
    '/// Doc: crate::engine::run()\npub fn helper() -> &\'static str { "crate::engine::run() \\" crate::engine" }\n' +
    "pub fn lt<'a>(s: &'a str) -> &'a str { s }\npub const Q: char = '\"';\npub const E: char = '\\'';\n" +
    'pub const R: &str = r#"a " crate::engine::run() "#;\n// crate::engine::run();\n' +
    '/* a /* nested */ crate::engine::run(); */\npub struct Item(pub crate::util::Unit);\n' +
    '#[cfg(test)]\nmod tests { use super::*; use crate::engine::run; #[test] fn t() { crate::engine::run(); } }\n' +
    '#[cfg(test)]\nmod more;\n',
  'model/more.rs': 'use super::*;\nuse crate::engine::run;\n',
  'util.rs': 'pub struct Unit;\npub mod inner { pub fn f() {} }\n',
};
const CLEAN_EDGES = [
  'engine/mod.rs → engine/poll.rs',
  'engine/mod.rs → engine/step.rs',
  'engine/mod.rs → model.rs',
  'engine/mod.rs → util.rs',
  'engine/poll.rs → engine/step.rs',
  'engine/poll.rs → model.rs',
  'engine/step.rs → util.rs',
  'lib.rs → engine/mod.rs',
  'model.rs → util.rs',
];

const CONTROLS = [
  {
    name: 'a circle made only of `use` lines',
    want: 'circle',
    files: {
      'lib.rs': 'mod a;\nmod b;\n',
      'a.rs': 'use crate::b::B;\npub struct A;\n',
      'b.rs': 'use super::a::{A};\npub struct B;\n',
    },
  },
  {
    name: 'a circle made only of path calls',
    want: 'circle',
    files: {
      'lib.rs': 'mod a;\nmod b;\n',
      'a.rs': 'pub fn f() { super::b::g(); }\n',
      'b.rs': 'pub fn g() { crate::a::f(); }\n',
    },
  },
  {
    name: 'an import back up: `use super::Item` from the parent mod.rs',
    want: 'up',
    files: {
      'lib.rs': 'mod m;\n',
      'm/mod.rs': 'mod child;\npub struct Item;\n',
      'm/child.rs': 'use super::Item;\n',
    },
  },
  {
    name: 'an import back up: `crate::root_fn()` to lib.rs',
    want: 'up',
    files: {
      'lib.rs': 'mod a;\npub fn root_fn() {}\n',
      'a.rs': 'pub fn f() { crate::root_fn(); }\n',
    },
  },
  {
    name: 'a folder circle without a file circle',
    want: 'folder',
    notWant: 'circle',
    files: {
      'lib.rs': 'mod a;\nmod b;\n',
      'a.rs': 'mod x;\nmod w;\n',
      'a/x.rs': 'use crate::b::y::Y;\n',
      'a/w.rs': 'pub fn w() {}\n',
      'b/mod.rs': 'mod y;\nmod z;\n',
      'b/y.rs': 'pub struct Y;\n',
      'b/z.rs': 'pub fn z() { crate::a::w::w(); }\n',
    },
  },
  { name: 'a clean crate (grouped uses, re-exports, test code, strings, comments, `mod x;`)', want: null, edges: CLEAN_EDGES, files: CLEAN_CRATE },
];

// The doc check: a crate (the clean one, plus a main.rs and a bin without edges) and docs of its arrows.
const DOC_CRATE = {
  ...CLEAN_CRATE,
  'main.rs': 'mod app;\nmod cli;\nfn main() { app::go(); }\n',
  'app.rs': 'pub fn go() { crate::cli::parse(); }\n',
  'cli.rs': 'pub fn parse() {}\n',
  'bin/tool.rs': 'fn main() {}\n',
};
const DOC_ARROWS = ['src/lib.rs: model → util', 'src/lib.rs: engine → util, model', 'src/main.rs: app → cli'];
const docOf = (lib, main) =>
  '# Architecture\n\nProse with ```arrows inline is no fence.\n\n' +
  '```text\nsrc/lib.rs: util → engine\n```\n\n````markdown\n```arrows\nsrc/lib.rs: util → model\n```\n````\n\n' +
  `\`\`\`arrows\n# the core, lowest layer first\n${lib.map((l) => `  ${l}`).join('\n')}\n\n\`\`\`\n\n` +
  `~~~arrows\n${main.join('\n')}\n~~~\n`;
const DIFFER = "FAIL ARCHITECTURE.md's arrows differ from the code:";
const NO_BLOCK = 'FAIL ARCHITECTURE.md has no ```arrows block (its lines: node scripts/import-circles.mjs --arrows)';
const DOC_CONTROLS = [
  {
    name: 'a doc whose arrows match the code (blank, # and other fences skipped)',
    want: null,
    arrows: DOC_ARROWS,
    doc: docOf(DOC_ARROWS.slice(0, 2).reverse(), DOC_ARROWS.slice(2)),
  },
  {
    name: 'a doc missing one arrow',
    want: [DIFFER, '  missing from the doc: src/lib.rs: model → util'],
    doc: docOf(DOC_ARROWS.slice(1, 2), DOC_ARROWS.slice(2)),
  },
  {
    name: 'a doc with one arrow too many',
    want: [DIFFER, '  in the doc but not in the code: src/lib.rs: util → cli'],
    doc: docOf([...DOC_ARROWS.slice(0, 2), 'src/lib.rs: util → cli'], DOC_ARROWS.slice(2)),
  },
  { name: 'a doc without an ```arrows block', want: [NO_BLOCK], doc: '# Architecture\n\n```\nsrc/lib.rs: model → util\n```\n' },
];

function selfTest() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'import-circles-'));
  let failed = 0;
  try {
    CONTROLS.forEach((c, k) => {
      const src = path.join(tmp, `case${k}`, 'src');
      for (const [f, text] of Object.entries(c.files)) {
        fs.mkdirSync(path.dirname(path.join(src, f)), { recursive: true });
        fs.writeFileSync(path.join(src, f), text);
      }
      const { edges, problems } = checkCrate(path.join(src, 'lib.rs'));
      const kinds = new Set(problems.map((p) => p.kind));
      const got = edges.map((e) => `${path.relative(src, e.from)} → ${path.relative(src, e.to)}`).sort();
      const why = c.want
        ? !kinds.has(c.want)
          ? `rule "${c.want}" did not fire`
          : kinds.has(c.notWant)
            ? `rule "${c.notWant}" fired too`
            : ''
        : kinds.size
          ? `expected a pass, got: ${problems.map((p) => p.lines[0]).join('; ')}`
          : c.edges && got.join() !== c.edges.join()
            ? `edges differ:\n  got  ${got.join(', ')}\n  want ${c.edges.join(', ')}`
            : '';
      console.log(`${why ? 'FAILED' : 'ok    '} ${c.want ? 'fails on' : 'passes'} ${c.name}${why ? `: ${why}` : ''}`);
      if (why) failed++;
    });
    DOC_CONTROLS.forEach((c, k) => {
      const dir = path.join(tmp, `doc${k}`),
        src = path.join(dir, 'src'),
        doc = path.join(dir, 'ARCHITECTURE.md');
      for (const [f, text] of Object.entries(DOC_CRATE)) {
        fs.mkdirSync(path.dirname(path.join(src, f)), { recursive: true });
        fs.writeFileSync(path.join(src, f), text);
      }
      fs.writeFileSync(doc, c.doc);
      const { ok, lines } = checkDoc(doc, [src], dir, 'ARCHITECTURE.md');
      const got = arrowLines([src], dir).lines;
      const why = c.want
        ? ok
          ? 'the doc check passed'
          : lines.join('\n') === c.want.join('\n')
            ? ''
            : `report differs:\n  got  ${lines.join('\n       ')}\n  want ${c.want.join('\n       ')}`
        : !ok
          ? `expected a pass, got:\n  ${lines.join('\n  ')}`
          : got.join('\n') !== c.arrows.join('\n')
            ? `arrows differ:\n  got  ${got.join('; ')}\n  want ${c.arrows.join('; ')}`
            : '';
      console.log(`${why ? 'FAILED' : 'ok    '} ${c.want ? 'fails on' : 'passes'} ${c.name}${why ? `: ${why}` : ''}`);
      if (why) failed++;
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const n = CONTROLS.length + DOC_CONTROLS.length;
  console.log(failed ? `FAIL self-test: ${failed} of ${n} controls misbehaved` : `self-test: all ${n} controls behave`);
  return failed === 0;
}

// ---- main ---------------------------------------------------------------------------------------

function defaultSources() {
  const repo = REPO;
  const dirs = ['crates/mcp-triage/src', 'crates/mcp-triage-cli/src', 'web/src'].map((d) => path.join(repo, d));
  const crates = path.join(repo, 'crates');
  for (const c of fs.existsSync(crates) ? fs.readdirSync(crates).sort() : []) {
    const src = path.join(crates, c, 'src');
    if (fs.existsSync(src) && !dirs.includes(src)) dirs.push(src);
  }
  return dirs.filter((d) => fs.existsSync(d));
}

const args = process.argv.slice(2);
if (args.includes('--self-test')) process.exit(selfTest() ? 0 : 1);
if (args[0] === '--arrows') {
  const { lines, problems } = arrowLines(args.length > 1 ? args.slice(1) : defaultSources(), REPO);
  if (lines.length) console.log(lines.join('\n'));
  for (const p of problems) console.error(`FAIL ${p}`);
  process.exit(problems.length ? 1 : 0);
}
if (args[0] === '--doc') {
  if (!args[1]) {
    console.error('usage: node scripts/import-circles.mjs --doc FILE [SRC_DIR...]');
    process.exit(2);
  }
  const { ok, lines } = checkDoc(path.resolve(args[1]), args.length > 2 ? args.slice(2) : defaultSources(), REPO, args[1]);
  console.log(lines.join('\n'));
  process.exit(ok ? 0 : 1);
}
const started = performance.now();
const { ok, lines } = checkSources(args.length ? args : defaultSources());
console.log(lines.join('\n'));
const ms = Math.round(performance.now() - started);
console.log(ok ? `no import circles (${ms} ms)` : `import circles found: see FAIL above (${ms} ms)`);
process.exit(ok ? 0 : 1);
