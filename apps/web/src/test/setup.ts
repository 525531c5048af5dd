import { cleanup, configure } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, vi } from 'vitest';
import { modalStore } from '../lib/auth-modal.ts';
import { confirmStore } from '../lib/dialog.ts';
import { initI18n } from '../lib/i18n.ts';
import { queryClient } from '../lib/query-client.ts';

// findBy* and waitFor wait up to 5 s, not 1 s: a lazy chunk (the search panel, a game) is
// transformed on first import, which takes over a second on a loaded 2-core CI machine. A test that
// passes waits only as long as its page takes.
configure({ asyncUtilTimeout: 5000 });

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
