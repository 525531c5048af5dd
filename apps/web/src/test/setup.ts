import { cleanup } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, vi } from 'vitest';
import { modalStore } from '../lib/auth-modal.ts';
import { confirmStore } from '../lib/dialog.ts';
import { initI18n } from '../lib/i18n.ts';
import { queryClient } from '../lib/query-client.ts';

// Before any test module runs: components translate at import and render time.
if (!i18next.isInitialized) await initI18n('en');

afterEach(async () => {
  cleanup();
  modalStore.set(null);
  confirmStore.set(null);
  queryClient.clear();
  sessionStorage.clear();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.clearAllMocks();
  if (i18next.language !== 'en') await i18next.changeLanguage('en');
});
