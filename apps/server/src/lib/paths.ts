import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Nearest `name` folder at or above `from`: the same code runs from src/ (tsx, tests) and dist/ (bundle). */
export function findUp(from: string, name: string): string {
  let dir = from;
  for (;;) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Could not find ${name} above ${from}`);
    dir = parent;
  }
}
