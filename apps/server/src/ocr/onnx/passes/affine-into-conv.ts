/** An activation's scalar affine (Mul, Add) folded into the unpadded Conv that reads it. */
import { type Graph, isOp } from '../graph.js';
import { copied, scaleAll } from '../weights.js';

/** Conv without padding reading Add(Mul(h, a), b) (scalars a, b): a and b go into its weights and bias. */
export function foldAffineIntoConv(g: Graph): number {
  let count = 0;
  for (let at = 0; at < g.nodes.length; at++) {
    const conv = g.nodes[at];
    if (!isOp(conv, 'Conv')) continue;
    const pads = conv.attrs.find((a) => a.name === 'pads')?.ints ?? [];
    const autoPad = conv.attrs.find((a) => a.name === 'auto_pad');
    if (pads.some((p) => p !== 0) || autoPad) continue;
    const weights = g.const(conv.inputs[1]);
    if (weights?.dims.length !== 4) continue;
    const channels = weights.dims[0] ?? 0;
    const bias = conv.inputs[2] ? g.const(conv.inputs[2])?.data : new Float32Array(channels);
    if (!bias || bias.length !== channels) continue;
    const add = g.only(conv.inputs[0]);
    if (!add || !isOp(add.node, 'Add')) continue;
    const [a0, a1] = add.node.inputs;
    const b = g.scalar(a1) ?? g.scalar(a0);
    const mul = g.only(g.scalar(a1) !== undefined ? a0 : a1);
    if (b === undefined || !mul || !isOp(mul.node, 'Mul')) continue;
    const [m0, m1] = mul.node.inputs;
    const a = g.scalar(m1) ?? g.scalar(m0);
    const h = g.scalar(m1) !== undefined ? m0 : m1;
    if (a === undefined || !h) continue;
    // The weights may be this pass's own copy already (a fold above): then changed in place.
    const w = g.added.has(conv.inputs[1] ?? '') ? weights : copied(weights);
    const sums = scaleAll(w.data, channels, a);
    const shifted = bias.map((v, o) => v + b * (sums[o] as number));
    conv.raw = undefined;
    conv.inputs = [
      h,
      w === weights ? (conv.inputs[1] ?? '') : g.addConst(conv.inputs[1] ?? 'W', w),
      g.addConst(conv.inputs[2] ?? `${conv.inputs[1]}.bias`, { dims: [channels], data: shifted }),
    ];
    g.nodes[add.at] = undefined;
    g.nodes[mul.at] = undefined;
    count++;
  }
  g.index();
  return count;
}
