/** A per-channel Mul → Add on a Conv's output made one BatchNormalization (kept in ONNX Runtime's NCHWc layout). */

import { type Graph, isOp } from '../graph.js';
import { floatAttr } from '../model.js';
import { perChannel } from '../weights.js';

/**
 * Channels of a tensor made by a Conv (N,C,H,W), through element-wise ops; undefined when unsure.
 */
function channelsOf(g: Graph, name: string, depth = 0): number | undefined {
  const at = g.producer.get(name);
  const n = at === undefined ? undefined : g.nodes[at];
  if (n?.domain !== '' || depth > 8) return undefined;
  if (n.op === 'Conv') {
    const w = g.const(n.inputs[1]);
    return w?.dims.length === 4 ? w.dims[0] : undefined;
  }
  if (!['Mul', 'Add', 'HardSigmoid', 'Relu', 'Sigmoid', 'BatchNormalization'].includes(n.op))
    return undefined;
  const inputs = n.op === 'BatchNormalization' ? n.inputs.slice(0, 1) : n.inputs.filter((x) => !g.const(x));
  const found = inputs.map((x) => channelsOf(g, x, depth + 1));
  const c = found[0];
  if (!c || !found.every((f) => f === c)) return undefined;
  // A constant operand must not change the shape (no broadcast beyond N,C,H,W).
  const consts = n.op === 'BatchNormalization' ? [] : n.inputs.filter((x) => g.const(x));
  return consts.every((x) => perChannel(g.const(x), c)) ? c : undefined;
}

/**
 * Mul(h, a) → Add(·, b), a and b per channel (the affine after an activation, when the next Conv
 * pads), of a Conv's NCHW output  ⇒  one BatchNormalization(scale a, bias b, mean 0, variance 1,
 * ε 0): one pass instead of two, and one ONNX Runtime keeps in its blocked (NCHWc) layout, where
 * the scalar Mul and Add forced a reorder out and back in.
 */
export function affineToBatchNorm(g: Graph): number {
  let count = 0;
  for (let at = 0; at < g.nodes.length; at++) {
    const add = g.nodes[at];
    if (!isOp(add, 'Add') || add.inputs.length !== 2) continue;
    const [a0, a1] = add.inputs;
    const bName = g.const(a1) ? a1 : a0;
    const mul = g.only(bName === a1 ? a0 : a1);
    if (!mul || !isOp(mul.node, 'Mul') || mul.node.inputs.length !== 2) continue;
    const [m0, m1] = mul.node.inputs;
    const aName = g.const(m1) ? m1 : m0;
    const h = aName === m1 ? m0 : m1;
    if (!h || g.const(h)) continue;
    const channels = channelsOf(g, h);
    if (!channels) continue;
    const scale = perChannel(g.const(aName), channels);
    const shift = perChannel(g.const(bName), channels);
    if (!scale || !shift) continue;
    const out = add.outputs[0] ?? '';
    const dims = [channels];
    g.nodes[mul.at] = undefined;
    g.nodes[at] = {
      op: 'BatchNormalization',
      domain: '',
      name: out,
      inputs: [
        h,
        g.addConst(`${out}.scale`, { dims, data: Float32Array.from(scale) }),
        g.addConst(`${out}.bias`, { dims, data: Float32Array.from(shift) }),
        g.addConst(`${out}.mean`, { dims, data: new Float32Array(channels) }),
        g.addConst(`${out}.var`, { dims, data: new Float32Array(channels).fill(1) }),
      ],
      outputs: [out],
      attrs: [floatAttr('epsilon', 0)],
    };
    count++;
  }
  g.index();
  return count;
}
