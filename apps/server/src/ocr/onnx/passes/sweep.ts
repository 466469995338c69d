/** Nodes nobody reads any more (constants the folds left over), removed. */
import type { Graph } from '../graph.js';

/** Nodes whose outputs nobody reads (constants left over by the folds). */
export function sweep(g: Graph): number {
  let removed = 0;
  for (let changed = true; changed; ) {
    changed = false;
    g.index();
    g.nodes.forEach((n, i) => {
      if (n?.outputs.every((o) => !o || !g.uses.get(o))) {
        g.nodes[i] = undefined;
        removed++;
        changed = true;
      }
    });
  }
  return removed;
}
