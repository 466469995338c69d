/** x + x·s (squeeze-excitation with a residual) made x·(s + 1): the Add on the small per-channel tensor. */
import { type Graph, isOp } from '../graph.js';

/** Add(x, Mul(x, s)) with s from a GlobalAveragePool branch (N,C,1,1)  ⇒  Mul(x, Add(s, 1)). */
export function fuseResidualScale(g: Graph): number {
  let count = 0;
  const one = g.addConst('one', { dims: [], data: Float32Array.of(1) });
  for (let at = 0; at < g.nodes.length; at++) {
    const add = g.nodes[at];
    if (!isOp(add, 'Add') || add.inputs.length !== 2) continue;
    const [a0 = '', a1 = ''] = add.inputs;
    const mul = g.only(a1)?.node.op === 'Mul' ? g.only(a1) : g.only(a0);
    if (!mul || !isOp(mul.node, 'Mul')) continue;
    const x = mul.node.outputs[0] === a1 ? a0 : a1;
    const [m0, m1] = mul.node.inputs;
    const s = m0 === x ? m1 : m1 === x ? m0 : undefined;
    if (!s || !squeezed(g, s)) continue;
    const out = add.outputs[0] ?? '';
    const plus = `${out}.plus1`;
    g.nodes[mul.at] = { op: 'Add', domain: '', name: plus, inputs: [s, one], outputs: [plus], attrs: [] };
    g.nodes[at] = { op: 'Mul', domain: '', name: out, inputs: [x, plus], outputs: [out], attrs: [] };
    count++;
  }
  g.index();
  return count;
}

/** Whether a tensor is per-channel (N,C,1,1): an element-wise op of something a GlobalAveragePool made. */
function squeezed(g: Graph, name: string, depth = 0): boolean {
  const at = g.producer.get(name);
  const n = at === undefined ? undefined : g.nodes[at];
  if (!n || depth > 8) return false;
  if (n.domain !== '') return false;
  if (n.op === 'GlobalAveragePool') return true;
  if (['HardSigmoid', 'Sigmoid', 'Relu'].includes(n.op)) return squeezed(g, n.inputs[0] ?? '', depth + 1);
  // A 1×1 convolution of an (N,C,1,1) tensor stays (N,C',1,1).
  if (n.op === 'Conv') {
    const w = g.const(n.inputs[1] ?? '');
    const pads = n.attrs.find((a) => a.name === 'pads')?.ints ?? [];
    const autoPad = n.attrs.some((a) => a.name === 'auto_pad');
    return (
      w?.dims.length === 4 &&
      w.dims[2] === 1 &&
      w.dims[3] === 1 &&
      pads.every((p) => p === 0) &&
      !autoPad &&
      squeezed(g, n.inputs[0] ?? '', depth + 1)
    );
  }
  return false;
}
