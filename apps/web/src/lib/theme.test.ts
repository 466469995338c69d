import { afterEach, describe, expect, it, vi } from 'vitest';
import { isDarkMode, setDarkMode, startTheme } from './theme';

function systemPrefers(dark: boolean) {
  const listeners: (() => void)[] = [];
  const query = { matches: dark, addEventListener: (_: string, f: () => void) => listeners.push(f) };
  vi.stubGlobal('matchMedia', () => query);
  return {
    change(to: boolean) {
      query.matches = to;
      for (const f of listeners) f();
    },
  };
}

afterEach(() => {
  localStorage.clear();
  document.body.className = '';
  vi.unstubAllGlobals();
});

describe('dark mode', () => {
  it('follows the system until the user picks one', () => {
    const system = systemPrefers(true);
    startTheme();
    expect(document.body.classList.contains('dark-mode')).toBe(true);
    system.change(false);
    expect(document.body.classList.contains('dark-mode')).toBe(false);
  });

  it('keeps the choice made in Settings whatever the system says', () => {
    const system = systemPrefers(true);
    setDarkMode(false);
    startTheme();
    expect(isDarkMode()).toBe(false);
    system.change(true);
    expect(document.body.classList.contains('dark-mode')).toBe(false);
  });
});
