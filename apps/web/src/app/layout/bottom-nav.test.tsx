import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { OPEN_CHAT_EVENT } from '../../features/chat/components/chat-launcher.tsx';
import { BottomNav } from './bottom-nav.tsx';

describe('bottom navigation', () => {
  it('holds the chat on phones: its button opens the chat (no floating button over the page)', async () => {
    const opened = vi.fn();
    window.addEventListener(OPEN_CHAT_EVENT, opened);
    render(
      <MemoryRouter>
        <BottomNav />
      </MemoryRouter>,
    );
    const chat = screen.getByTestId('nav-chat');
    expect(chat.getAttribute('aria-label')).toBe('Open chat');
    await userEvent.click(chat);
    expect(opened).toHaveBeenCalledTimes(1);
    window.removeEventListener(OPEN_CHAT_EVENT, opened);
  });
});
