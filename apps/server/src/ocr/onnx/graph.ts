/** The graph being rewritten: its nodes, its constants decoded on first use, who makes and reads each tensor. */
import type { Node, Tensor } from './model.js';
import { readTensor } from './model.js';

export class Graph {
  nodes: (Node | undefined)[];
  /** Constant tensors (initializers and Constant nodes' values) by name, decoded on first use. */
  private where = new Map<string, { start: number; end: number }>();
  private decoded = new Map<string, Tensor | null>();
  added = new Map<string, Tensor>();
  producer = new Map<string, number>();
  uses = new Map<string, number>();
  readers = new Map<string, number[]>();
  private fresh = 0;

  constructor(
    private readonly model: Uint8Array,
    nodes: Node[],
    initializers: Map<string, { start: number; end: number }>,
    readonly outputs: Set<string>,
  ) {
    this.nodes = nodes;
    this.where = initializers;
    for (const n of nodes)
      if (n.op === 'Constant' && n.domain === '' && n.outputs[0]) {
        const t = n.attrs.find((a) => a.name === 'value')?.t;
        if (t) this.where.set(n.outputs[0], t);
      }
    this.index();
  }

  /** A constant's value (never to be changed: it may be shared). */
  const(name: string | undefined): Tensor | undefined {
    if (name === undefined) return undefined;
    let t = this.decoded.get(name);
    if (t === undefined) {
      const at = this.where.get(name);
      t = at ? readTensor(this.model, at.start, at.end) : null;
      this.decoded.set(name, t);
    }
    return t ?? undefined;
  }

  index() {
    this.producer.clear();
    this.uses.clear();
    this.readers.clear();
    this.nodes.forEach((n, i) => {
      if (!n) return;
      for (const o of n.outputs) this.producer.set(o, i);
      for (const x of n.inputs) {
        if (!x) continue;
        this.uses.set(x, (this.uses.get(x) ?? 0) + 1);
        const r = this.readers.get(x);
        if (r) r.push(i);
        else this.readers.set(x, [i]);
      }
    });
    for (const o of this.outputs) this.uses.set(o, (this.uses.get(o) ?? 0) + 1);
  }

  /** The node that produces `name`, when it is its only consumer's input. */
  only(name: string | undefined): { node: Node; at: number } | undefined {
    if (!name || this.uses.get(name) !== 1 || this.outputs.has(name)) return undefined;
    const at = this.producer.get(name);
    const node = at === undefined ? undefined : this.nodes[at];
    return node && at !== undefined ? { node, at } : undefined;
  }

  /** The single node that reads `name`, if exactly one does. */
  consumer(name: string): { node: Node; at: number } | undefined {
    const at = this.readers.get(name)?.[0];
    if (this.uses.get(name) !== 1 || this.outputs.has(name) || at === undefined) return undefined;
    const node = this.nodes[at];
    return node ? { node, at } : undefined;
  }

  scalar(name: string | undefined): number | undefined {
    const t = this.const(name);
    // Rank 0 or 1 only: a scalar of higher rank would broadcast its operand to that rank.
    return t && t.data.length === 1 && t.dims.length <= 1 ? t.data[0] : undefined;
  }

  addConst(base: string, t: Tensor): string {
    const name = `${base}.fused${this.fresh++}`;
    this.added.set(name, t);
    this.decoded.set(name, t);
    return name;
  }
}

export const isOp = (n: Node | undefined, op: string): n is Node => n?.op === op && n.domain === '';
export const near = (a: number | undefined, b: number) => a !== undefined && Math.abs(a - b) < 1e-6;
