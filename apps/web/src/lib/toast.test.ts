import { toast as sonner } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { clearToastsOnNavigation, toast, toasterMounted } from './toast.ts';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), dismiss: vi.fn() } }));

describe('toast', () => {
  it('holds a toast until the toaster is on screen, then shows it', async () => {
    toast.error('Network error, please try again later', { id: 'network-error' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sonner.error).not.toHaveBeenCalled();
    toasterMounted();
    await vi.waitFor(() =>
      expect(sonner.error).toHaveBeenCalledWith(
        'Network error, please try again later',
        expect.objectContaining({ id: 'network-error' }),
      ),
    );
    toast.success('Login successful');
    await vi.waitFor(() =>
      expect(sonner.success).toHaveBeenCalledWith('Login successful', expect.objectContaining({ id: 2 })),
    );
  });

  it('clears the toasts of the screen left behind, and keeps one asked for while leaving', async () => {
    toasterMounted();
    const now = vi.spyOn(Date, 'now').mockReturnValue(10_000);
    toast.error('Old message');
    await vi.waitFor(() => expect(sonner.error).toHaveBeenCalledWith('Old message', expect.anything()));
    const oldId = vi.mocked(sonner.error).mock.calls.at(-1)![1]!.id;
    now.mockReturnValue(10_900);
    toast.success('Saved');
    await vi.waitFor(() => expect(sonner.success).toHaveBeenCalledWith('Saved', expect.anything()));
    const savedId = vi.mocked(sonner.success).mock.calls.at(-1)![1]!.id;
    // The page moves on right after "Saved", a second after the old message.
    clearToastsOnNavigation(11_000);
    await vi.waitFor(() => expect(sonner.dismiss).toHaveBeenCalledWith(oldId));
    expect(vi.mocked(sonner.dismiss).mock.calls.flat()).not.toContain(savedId);
    now.mockRestore();
  });
});
