import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import en from '../../public/locales/en/translation.json';
import { initI18nWithResources } from '../lib/i18n';
import { mockApi } from './utils';

// jsdom has <dialog> but not showModal()/close(): open and close it by its attribute.
HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
  this.setAttribute('open', '');
};
HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
  this.removeAttribute('open');
};

// findBy*/waitFor wait up to 5 s (default 1 s): the suite shares 2 cores with the API tests, and a
// slow render must not read as a missing element.
configure({ asyncUtilTimeout: 5000 });

// Component tests use the real English texts, bundled: no HTTP backend.
beforeAll(async () => {
  await initI18nWithResources({ en: { translation: en } }, 'en');
});

// No test reaches a network: calls a test did not mock answer 404 (the bell's polls an empty inbox).
beforeEach(() => {
  mockApi({});
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.body.className = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});
