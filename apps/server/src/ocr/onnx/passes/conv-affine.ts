/** A Conv's per-channel Mul, Add or BatchNormalization after it, folded into its weights and bias. */
import { type Graph, isOp } from '../graph.js';
import type { Tensor } from '../model.js';
import { copied, outChannels, perChannel, scaleOut, vector } from '../weights.js';

/**
 * Conv/ConvTranspose followed by per-channel Mul, Add or an inference BatchNormalization (as long as
 * each step is the previous one's only reader): the steps go into the weights and bias.
 */
export function foldConvAffine(g: Graph): number {
  let count = 0;
  for (let at = 0; at < g.nodes.length; at++) {
    const conv = g.nodes[at];
    if (!(isOp(conv, 'Conv') || isOp(conv, 'ConvTranspose')) || conv.outputs.length !== 1) continue;
    const weights = g.const(conv.inputs[1]);
    if (weights?.dims.length !== 4) continue;
    const channels = outChannels(conv, weights);
    if (!channels) continue;
    const biases = conv.inputs[2] ? g.const(conv.inputs[2])?.data : new Float32Array(channels);
    if (!biases || biases.length !== channels) continue;
    let w: Tensor | undefined;
    const bias = new Float32Array(biases);
    let folded = 0;
    for (;;) {
      const out = conv.outputs[0] ?? '';
      const next = g.consumer(out);
      if (!next) break;
      const n = next.node;
      let scale: Float32Array | undefined;
      let shift: Float32Array | undefined;
      if ((isOp(n, 'Mul') || isOp(n, 'Add')) && n.inputs.length === 2 && n.inputs[0] !== n.inputs[1]) {
        const v = perChannel(g.const(n.inputs[0] === out ? n.inputs[1] : n.inputs[0]), channels);
        if (!v) break;
        if (n.op === 'Mul') scale = v;
        else shift = v;
      } else if (isOp(n, 'BatchNormalization') && n.outputs.length === 1 && n.inputs[0] === out) {
        const [gamma, beta, mean, variance] = n.inputs.slice(1).map((s) => vector(g.const(s), channels));
        const eps = n.attrs.find((a) => a.name === 'epsilon')?.f ?? 1e-5;
        if (!gamma || !beta || !mean || !variance) break;
        const sc = gamma.map((v, c) => v / Math.sqrt((variance[c] as number) + eps));
        scale = sc;
        shift = beta.map((v, c) => v - (mean[c] as number) * (sc[c] as number));
      } else break;
      if (scale) {
        w ??= copied(weights);
        scaleOut(conv, w, scale);
        for (let c = 0; c < channels; c++) bias[c] = (bias[c] as number) * (scale[c] as number);
      }
      if (shift) for (let c = 0; c < channels; c++) bias[c] = (bias[c] as number) + (shift[c] as number);
      conv.outputs = [...n.outputs];
      for (const o of n.outputs) g.producer.set(o, at);
      g.nodes[next.at] = undefined;
      folded++;
    }
    if (!folded) continue;
    conv.raw = undefined;
    conv.inputs = [
      conv.inputs[0] ?? '',
      w ? g.addConst(conv.inputs[1] ?? 'W', w) : (conv.inputs[1] ?? ''),
      g.addConst(conv.inputs[2] ?? `${conv.inputs[1]}.bias`, { dims: [channels], data: bias }),
    ];
    count += folded;
  }
  g.index();
  return count;
}
