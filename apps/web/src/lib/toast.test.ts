import { toast as sonner } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { toast, toasterMounted } from './toast.ts';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

describe('toast', () => {
  it('holds a toast until the toaster is on screen, then shows it', async () => {
    toast.error('Network error, please try again later', { id: 'network-error' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sonner.error).not.toHaveBeenCalled();
    toasterMounted();
    await vi.waitFor(() =>
      expect(sonner.error).toHaveBeenCalledWith('Network error, please try again later', {
        id: 'network-error',
      }),
    );
    toast.success('Login successful');
    await vi.waitFor(() => expect(sonner.success).toHaveBeenCalledWith('Login successful', undefined));
  });
});
