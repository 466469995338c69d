/** The ONNX graph rewrite: which chains of PaddleOCR's models are fused, and the pass order. */

/*
 * Rewrites the PaddleOCR ONNX graphs, so that ONNX Runtime runs fewer passes over
 * the feature maps. paddle2onnx exports PP-LCNetV3 (both PP-OCRv4 models) with most of their time
 * spent in element-wise chains that ONNX Runtime does not fuse:
 *   - hardswish as Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(·, 6): 4 passes, made
 *     HardSigmoid(α = 1/6, β = 0.5) + Mul (both exist since opset 6: the models' opsets, 11 and 9,
 *     stay), which ONNX Runtime then fuses into the convolution before it as a HardSwish activation;
 *   - the learnable affine after every Conv (Mul by a scalar, Add a scalar), a bias Add or a
 *     BatchNormalization after a ConvTranspose: folded into the convolution's weights and bias;
 *   - the learnable affine after an activation, when the next Conv has no padding: folded into that
 *     Conv's weights and bias (exact: with padding, the border would see the shift, so never there);
 *     otherwise one BatchNormalization, which ONNX Runtime keeps in its blocked NCHWc layout where
 *     the scalar Mul and Add made it reorder the feature map out and back in;
 *   - x + x·s (the neck's squeeze-excitation with a residual, s per channel): x·(s + 1), the Add on
 *     the small per-channel tensor.
 * Only float rounding changes (|Δ| ≤ 3e-6 on the outputs; the OCR text and boxes stay the same).
 * The model files are never modified: model-cache.ts writes the rewritten bytes once per model
 * file to a cache directory, and ONNX Runtime loads them from there.
 *
 * ONNX is protobuf: a small wire-format walker (protobuf.ts, model.ts) reads the graph's nodes and
 * constants and writes back only the graph; every other field (and every node left alone) is copied
 * byte for byte. Each rewrite is a file in passes/; model-cache.ts keeps the result on disk.
 */
import { Graph } from './graph.js';
import { type Node, readNode, writeNode, writeTensor } from './model.js';
import { affineToBatchNorm } from './passes/affine-batchnorm.js';
import { foldAffineIntoConv } from './passes/affine-into-conv.js';
import { foldConvAffine } from './passes/conv-affine.js';
import { fuseHardSwish } from './passes/hardswish.js';
import { fuseResidualScale } from './passes/residual-scale.js';
import { sweep } from './passes/sweep.js';
import { concat, fields, lenParts, str } from './protobuf.js';

/**
 * The rewrite's version, part of the model cache's key: bump it whenever a pass changes what it
 * writes, so that no start loads a graph an older rewrite made.
 */
export const FUSE_VERSION = 1;

export type FuseCounts = {
  hardSwish: number;
  convAffine: number;
  affineIntoConv: number;
  affineToBatchNorm: number;
  residualScale: number;
  removedNodes: number;
};

/**
 * The model's bytes with the chains above rewritten (the input when nothing matched), and how many
 * of each were rewritten. `skip` leaves some rewrites out (to measure what each one brings).
 */
export function fuseModel(
  model: Uint8Array,
  skip: Partial<Record<keyof FuseCounts, boolean>> = {},
): { bytes: Uint8Array; counts: FuseCounts } {
  const top = fields(model);
  const gf = top.find((f) => f.no === 7 && f.wt === 2);
  const counts: FuseCounts = {
    hardSwish: 0,
    convAffine: 0,
    affineIntoConv: 0,
    affineToBatchNorm: 0,
    residualScale: 0,
    removedNodes: 0,
  };
  if (!gf) return { bytes: model, counts };
  const graphFields = fields(model, gf.value, gf.end);
  const nodes: Node[] = [];
  const initializers = new Map<string, { start: number; end: number }>();
  const outputs = new Set<string>();
  const inputs = new Set<string>();
  for (const f of graphFields) {
    if (f.no === 1) nodes.push(readNode(model, f));
    else if (f.no === 5) {
      const name = fields(model, f.value, f.end).find((x) => x.no === 8);
      if (name) initializers.set(str(model, name), { start: f.value, end: f.end });
    } else if (f.no === 11) {
      const name = fields(model, f.value, f.end).find((x) => x.no === 1);
      if (name) inputs.add(str(model, name));
    } else if (f.no === 12) {
      const name = fields(model, f.value, f.end).find((x) => x.no === 1);
      if (name) outputs.add(str(model, name));
    }
  }
  // Subgraphs (If/Loop bodies) read outer names invisibly: leave such models alone.
  if (nodes.some((n) => n.attrs.some((a) => a.graph))) return { bytes: model, counts };
  // An initializer that is also a graph input is only a default: the caller may feed another value.
  for (const name of inputs) initializers.delete(name);
  const g = new Graph(model, nodes, initializers, outputs);
  const before = nodes.length;
  if (!skip.convAffine) counts.convAffine = foldConvAffine(g);
  if (!skip.hardSwish) counts.hardSwish = fuseHardSwish(g);
  if (!skip.affineIntoConv) counts.affineIntoConv = foldAffineIntoConv(g);
  if (!skip.affineToBatchNorm) counts.affineToBatchNorm = affineToBatchNorm(g);
  if (!skip.residualScale) counts.residualScale = fuseResidualScale(g);
  sweep(g);
  const kept = g.nodes.filter((n): n is Node => n !== undefined);
  counts.removedNodes = before - kept.length;
  if (kept.length === before && Object.values(counts).every((n) => n === 0)) return { bytes: model, counts };

  const used = new Set(kept.flatMap((n) => n.inputs));
  const made = new Set(kept.flatMap((n) => n.outputs));
  const parts: Uint8Array[] = [];
  let nodesWritten = false;
  for (const f of graphFields) {
    if (f.no === 1) {
      if (!nodesWritten) parts.push(...kept.map(writeNode));
      nodesWritten = true;
    } else if (f.no === 13) {
      // Shape hints (value_info) of tensors the rewrite removed go with them.
      const name = fields(model, f.value, f.end).find((x) => x.no === 1);
      if (!name || made.has(str(model, name))) parts.push(model.subarray(f.start, f.end));
    } else parts.push(model.subarray(f.start, f.end));
  }
  for (const [name, t] of g.added) if (used.has(name)) parts.push(...writeTensor(name, t));
  return {
    bytes: concat(top.flatMap((f) => (f === gf ? lenParts(7, parts) : [model.subarray(f.start, f.end)]))),
    counts,
  };
}
