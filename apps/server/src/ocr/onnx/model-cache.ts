/** The rewritten models kept on disk, once per model file and rewrite version: later starts load them as they are. */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { FUSE_VERSION, fuseModel } from './fuse.js';

export type FusedModel = {
  /** What InferenceSession.create loads: the cached file's path, or the rewritten bytes when no cache was writable. */
  model: string | Uint8Array;
  /** hit: read from the cache; written: rewritten now and cached; memory: rewritten now, nowhere to cache it. */
  cache: 'hit' | 'written' | 'memory';
};

/**
 * Where a model's rewrite may be kept, in order: node_modules/.cache/evdra-ocr of the node_modules
 * the model file sits in (the usual place for a package's build caches, and independent of
 * DATA_DIR), then the OS temp directory. OCR_MODEL_CACHE=<dir> keeps it there only; OCR_MODEL_CACHE=0
 * nowhere (the rewrite then runs at every start).
 */
export function cacheDirs(modelPath: string, env = process.env): string[] {
  if (env.OCR_MODEL_CACHE === '0') return [];
  if (env.OCR_MODEL_CACHE) return [env.OCR_MODEL_CACHE];
  const dirs: string[] = [];
  for (let d = dirname(modelPath); d !== dirname(d); d = dirname(d))
    if (basename(d) === 'node_modules') {
      dirs.push(join(d, '.cache', 'evdra-ocr'));
      break;
    }
  dirs.push(join(tmpdir(), 'evdra-ocr-models'));
  return dirs;
}

/**
 * The cache file's name for a model: its name and a key of the rewrite's version and the file's
 * path, size and modification time (a new version of the models package is a new key).
 */
export function cacheName(modelPath: string): string {
  const st = statSync(modelPath);
  const key = createHash('sha256')
    .update(`${FUSE_VERSION}\0${modelPath}\0${st.size}\0${st.mtimeMs}`)
    .digest('hex')
    .slice(0, 16);
  return `${basename(modelPath, '.onnx')}.fused-${key}.onnx`;
}

/**
 * The model at `modelPath` rewritten (fuse.ts): from the first cache directory that holds it, else
 * rewritten now and written to the first directory that takes it (atomically: a temporary file
 * renamed, so a start that reads it never sees half a file), older rewrites of the same model
 * removed. A read-only disk costs the rewrite at every start, as before, and nothing else.
 */
export function fusedModel(modelPath: string, dirs = cacheDirs(modelPath)): FusedModel {
  const name = cacheName(modelPath);
  for (const dir of dirs) if (existsSync(join(dir, name))) return { model: join(dir, name), cache: 'hit' };
  const bytes = fuseModel(readFileSync(modelPath)).bytes;
  for (const dir of dirs) {
    const file = join(dir, name);
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(temp, bytes);
      renameSync(temp, file);
    } catch {
      removeQuietly(temp);
      continue;
    }
    removeStale(dir, name);
    return { model: file, cache: 'written' };
  }
  return { model: bytes, cache: 'memory' };
}

/** Other rewrites of the same model in `dir` (an older version of the models or of the rewrite). */
function removeStale(dir: string, keep: string) {
  const prefix = keep.slice(0, keep.indexOf('.fused-') + '.fused-'.length);
  try {
    for (const f of readdirSync(dir))
      if (f !== keep && f.startsWith(prefix) && f.endsWith('.onnx')) rmSync(join(dir, f), { force: true });
  } catch {
    // Best effort: a stale file only takes disk space.
  }
}

/** Drops a cached rewrite ONNX Runtime could not load (a damaged file): the next start rewrites it again. */
export function forgetFused(model: FusedModel) {
  if (typeof model.model === 'string') removeQuietly(model.model);
}

/** Removes a file if it is there and can be removed (a directory that never existed throws even with force). */
function removeQuietly(file: string) {
  try {
    rmSync(file, { force: true });
  } catch {
    // Nothing was written there.
  }
}
