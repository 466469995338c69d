import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import en from '../../public/locales/en/translation.json';
import { initI18nWithResources } from '../lib/i18n';

// Component tests use the real English texts, bundled: no HTTP backend.
beforeAll(async () => {
  await initI18nWithResources({ en: { translation: en } }, 'en');
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.body.className = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});
