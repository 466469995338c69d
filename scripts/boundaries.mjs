// `npm run boundaries` (a step of `npm test`): the import rules of .dependency-cruiser.cjs, then no
// cycles between folders (a server module or top-level folder, a web feature or top-level folder).
// Prints each broken rule with the import that breaks it; exits 1 if any.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/**
 * Folder edges allowed to close a cycle for now, each with its reason. Remove an entry once the
 * code it names has moved (the check then keeps it from coming back).
 */
const KNOWN_FOLDER_EDGES = new Map([]);

const res = spawnSync(
  join(root, 'node_modules', '.bin', 'depcruise'),
  ['apps', 'packages', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
  { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
if (!res.stdout) {
  console.error(res.stderr);
  process.exit(2);
}
const { modules, summary } = JSON.parse(res.stdout);
let failures = 0;

for (const v of summary.violations) {
  failures += 1;
  const cycle = v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name ?? c).join(' → ')})` : '';
  console.log(`✘ ${v.rule.name}: ${v.from} → ${v.to}${cycle}`);
}

/** The folder a file belongs to for the cycle check, or null outside apps/*\/src and for tests. */
function folderOf(path) {
  if (/\.test\.tsx?$/.test(path) || path.startsWith('apps/web/src/test/')) return null;
  let m = path.match(/^apps\/server\/src\/(modules\/[^/]+|[^/]+)\//);
  if (m) return `server:${m[1]}`;
  m = path.match(/^apps\/web\/src\/(features\/[^/]+|[^/]+)\//);
  if (m) return `web:${m[1]}`;
  return null;
}

const edges = new Map(); // folder → Map(folder → example import)
for (const m of modules) {
  const from = folderOf(m.source);
  if (!from) continue;
  for (const d of m.dependencies) {
    const to = folderOf(d.resolved);
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${m.source} → ${d.resolved}`);
  }
}

// Tarjan's strongly connected components: any with two or more folders is a folder cycle.
let index = 0;
const stack = [];
const state = new Map();
const cycles = [];
function visit(v) {
  state.set(v, { index, low: index, onStack: true });
  index += 1;
  stack.push(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (KNOWN_FOLDER_EDGES.has(`${v} -> ${w}`)) continue;
    if (!state.has(w)) {
      visit(w);
      state.get(v).low = Math.min(state.get(v).low, state.get(w).low);
    } else if (state.get(w).onStack) state.get(v).low = Math.min(state.get(v).low, state.get(w).index);
  }
  if (state.get(v).low === state.get(v).index) {
    const scc = [];
    let w;
    do {
      w = stack.pop();
      state.get(w).onStack = false;
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) cycles.push(scc);
  }
}
for (const v of edges.keys()) if (!state.has(v)) visit(v);

for (const scc of cycles) {
  failures += 1;
  console.log(`✘ folder cycle: ${scc.join(' ↔ ')}`);
  for (const a of scc)
    for (const [b, example] of edges.get(a) ?? [])
      if (scc.includes(b) && !KNOWN_FOLDER_EDGES.has(`${a} -> ${b}`))
        console.log(`    ${a} → ${b}: ${example}`);
}

const known = [...KNOWN_FOLDER_EDGES.keys()].filter((e) => {
  const [a, b] = e.split(' -> ');
  return edges.get(a)?.has(b);
});
console.log(
  `${summary.totalCruised} files, ${summary.totalDependenciesCruised} imports: ` +
    `${summary.violations.length} rule violations, ${cycles.length} folder cycles` +
    (known.length ? ` (${known.length} known edge left out: ${known.join('; ')})` : ''),
);
process.exit(failures ? 1 : 0);
