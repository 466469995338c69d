import { describe, expect, it } from 'vitest';
import { acceptedEncoding } from '../src/lib/encoding.js';

describe('acceptedEncoding', () => {
  it('prefers Brotli, then gzip, as browsers and HTTP libraries ask', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br'); // Chromium
    expect(acceptedEncoding('gzip, deflate')).toBe('gzip'); // curl --compressed, Python requests
    expect(acceptedEncoding('GZIP')).toBe('gzip');
  });

  it('answers as it is when nothing (or nothing it has) is accepted', () => {
    expect(acceptedEncoding(undefined)).toBe('identity');
    expect(acceptedEncoding('')).toBe('identity');
    expect(acceptedEncoding('identity')).toBe('identity');
    expect(acceptedEncoding('deflate, zstd')).toBe('identity');
  });

  it('follows the q ratings: a higher one wins, q=0 refuses, * covers the unlisted', () => {
    expect(acceptedEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(acceptedEncoding('br;q=0, gzip')).toBe('gzip');
    expect(acceptedEncoding('br; q=0, gzip;q=0')).toBe('identity');
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('br;q=0, *;q=0.1')).toBe('gzip');
    expect(acceptedEncoding('*;q=0')).toBe('identity');
    expect(acceptedEncoding('br;q=nonsense, gzip')).toBe('gzip');
  });
});
