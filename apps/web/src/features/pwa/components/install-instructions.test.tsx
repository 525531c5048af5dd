import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureInstallPrompt, detectPlatform, installedStore, installPromptStore } from '../pwa-state.ts';
import { InstallInstructions } from './install-instructions.tsx';

afterEach(() => {
  installPromptStore.set(null);
  installedStore.set(false);
});

describe('install instructions', () => {
  it("uses the browser's install prompt when it offered one", async () => {
    captureInstallPrompt();
    const prompt = vi.fn(async () => undefined);
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt,
      userChoice: Promise.resolve({ outcome: 'accepted' as const }),
    });
    act(() => {
      window.dispatchEvent(event);
    });
    expect(event.defaultPrevented).toBe(true);
    const onDone = vi.fn();
    render(<InstallInstructions onDone={onDone} />);
    await userEvent.click(screen.getByRole('button', { name: 'Install now' }));
    expect(prompt).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(installPromptStore.get()).toBeNull();
  });

  it('shows the add-to-home-screen steps when there is no prompt', () => {
    render(<InstallInstructions />);
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Install now' })).toBeNull();
  });

  it('says so when the app is already installed', () => {
    installedStore.set(true);
    render(<InstallInstructions />);
    expect(screen.getByText('The app is installed on this device')).toBeTruthy();
  });

  it('recognises iPhone, Android and other browsers', () => {
    expect(
      detectPlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15'),
    ).toBe('ios');
    expect(detectPlatform('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126')).toBe(
      'android',
    );
    expect(detectPlatform('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126')).toBe('other');
  });
});
