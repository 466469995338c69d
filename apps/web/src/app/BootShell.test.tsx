import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BootShell } from './BootShell';

describe('BootShell', () => {
  it('is what index.html paints before the app runs, so nothing jumps when the app takes over', () => {
    const html = readFileSync(join(__dirname, '../../index.html'), 'utf8');
    const root = html.match(/<div id="root">([\s\S]*?)<\/div>\s*<script/)?.[1];
    // React's server renderer puts resource hints (<link rel=preload>) first: not part of the shell.
    const shell = renderToStaticMarkup(<BootShell />).replace(/^(<link [^>]*>)+/, '');
    expect(root).toBe(shell);
  });
});
