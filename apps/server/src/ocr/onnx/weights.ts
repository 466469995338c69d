/** Constant tensors as the folds need them: per-channel values, output channels, weights scaled in a copy. */
import type { Node, Tensor } from './model.js';

/**
 * Per-channel values of a constant that broadcasts against an NCHW tensor along C only (a scalar,
 * [C], [C,1,1], [1,C,1,1]), expanded to `channels`; otherwise undefined.
 */
export function perChannel(t: Tensor | undefined, channels: number): Float32Array | undefined {
  if (!t) return undefined;
  if (t.dims.length > 4) return undefined;
  if (t.data.length === 1) return new Float32Array(channels).fill(t.data[0] ?? 0);
  const d = [...t.dims];
  while (d.length < 4) d.unshift(1);
  if (d[0] !== 1 || d[1] !== channels || d[2] !== 1 || d[3] !== 1) return undefined;
  return t.data;
}

/** A BatchNormalization parameter: one value per channel. */
export const vector = (t: Tensor | undefined, channels: number) =>
  t && t.dims.length === 1 && t.data.length === channels ? t.data : undefined;

/** Output channels of a Conv (W: [O, I/g, ...]) or a ConvTranspose with one group (W: [I, O, ...]). */
export function outChannels(conv: Node, w: Tensor): number | undefined {
  if (conv.op === 'Conv') return w.dims[0];
  const group = conv.attrs.find((a) => a.name === 'group')?.i ?? 1;
  return group === 1 ? w.dims[1] : undefined;
}

/**
 * Scales output channel c of a conv's weights by s[c], in place (w is a copy only this conv reads).
 * Conv weights are [O, I/g, kH, kW]; a ConvTranspose's with one group [I, O, kH, kW].
 */
export function scaleOut(conv: Node, w: Tensor, s: Float32Array) {
  const data = w.data;
  const [d0 = 1, d1 = 1] = w.dims;
  const outer = conv.op === 'Conv' ? 1 : d0;
  const channels = conv.op === 'Conv' ? d0 : d1;
  const per = data.length / (outer * channels);
  for (let i = 0, k = 0; i < outer; i++)
    for (let c = 0; c < channels; c++) {
      const f = s[c] as number;
      for (const end = k + per; k < end; k++) data[k] = (data[k] as number) * f;
    }
}

/**
 * Multiplies every weight by a, in place, and returns each output channel's sum of weights before.
 * (A small function of its own: V8 compiles its loop at once, where inlined in a long function the
 * loop ran interpreted for the whole first load, 10× slower.)
 */
export function scaleAll(data: Float32Array, channels: number, a: number): Float64Array {
  const per = data.length / channels;
  const sums = new Float64Array(channels);
  for (let o = 0, k = 0; o < channels; o++) {
    let sum = 0;
    for (const end = k + per; k < end; k++) {
      const v = data[k] as number;
      sum += v;
      data[k] = v * a;
    }
    sums[o] = sum;
  }
  return sums;
}

/** A constant's tensor as a copy the caller may change (the graph keeps the original). */
export function copied(t: Tensor): Tensor {
  return { dims: t.dims, data: new Float32Array(t.data) };
}
