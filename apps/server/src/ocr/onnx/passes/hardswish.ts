/** Hardswish as Add → Clip → Mul → Div (4 passes) made HardSigmoid + Mul, which ONNX Runtime fuses into its Conv. */

import { type Graph, isOp, near } from '../graph.js';
import { floatAttr } from '../model.js';

/** Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(·, 6)  ⇒  HardSigmoid(x; 1/6, 0.5) → Mul(x, ·). */
export function fuseHardSwish(g: Graph): number {
  let count = 0;
  for (let at = 0; at < g.nodes.length; at++) {
    const div = g.nodes[at];
    if (!isOp(div, 'Div') || !near(g.scalar(div.inputs[1]), 6)) continue;
    const mul = g.only(div.inputs[0]);
    if (!mul || !isOp(mul.node, 'Mul')) continue;
    const [m0, m1] = mul.node.inputs;
    const clip = g.only(m0)?.node.op === 'Clip' ? g.only(m0) : g.only(m1);
    if (!clip || !isOp(clip.node, 'Clip')) continue;
    const x = clip.node.outputs[0] === m0 ? m1 : m0;
    const attr = (n: string) => clip.node.attrs.find((a) => a.name === n)?.f;
    const lo = clip.node.inputs.length > 1 ? g.scalar(clip.node.inputs[1]) : attr('min');
    const hi = clip.node.inputs.length > 2 ? g.scalar(clip.node.inputs[2]) : attr('max');
    if (!near(lo, 0) || !near(hi, 6)) continue;
    const add = g.only(clip.node.inputs[0]);
    if (!add || !isOp(add.node, 'Add') || !x) continue;
    const [a0, a1] = add.node.inputs;
    if (!((a0 === x && near(g.scalar(a1), 3)) || (a1 === x && near(g.scalar(a0), 3)))) continue;
    const out = div.outputs[0] ?? '';
    const sig = `${out}.hardsigmoid`;
    g.nodes[add.at] = undefined;
    g.nodes[clip.at] = undefined;
    g.nodes[mul.at] = {
      op: 'HardSigmoid',
      domain: '',
      name: sig,
      inputs: [x],
      outputs: [sig],
      attrs: [floatAttr('alpha', 1 / 6), floatAttr('beta', 0.5)],
    };
    g.nodes[at] = { op: 'Mul', domain: '', name: out, inputs: [x, sig], outputs: [out], attrs: [] };
    count++;
  }
  g.index();
  return count;
}
