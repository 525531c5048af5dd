import { QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { mockApi, ok } from '../../test/api-mock.ts';
import { BackgroundVideo } from './background-video.tsx';

function renderWith(width: number, video: string | null) {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true });
  mockApi({ 'GET /api/dynamicwebs/getdata': () => ({ body: ok({ background_video: video }) }) });
  return render(
    <QueryClientProvider client={queryClient}>
      <BackgroundVideo />
    </QueryClientProvider>,
  );
}

describe('background video', () => {
  it('plays when the window is wider than 600 px and the site has one', async () => {
    const { container } = renderWith(601, '/media/bg.mp4');
    await waitFor(() => expect(container.querySelector('video')?.getAttribute('src')).toBe('/media/bg.mp4'));
  });

  it('is absent at 600 px or less', async () => {
    const { container } = renderWith(600, '/media/bg.mp4');
    await waitFor(() => expect(queryClient.getQueryData(['site', 'data'])).toBeTruthy());
    expect(container.querySelector('video')).toBeNull();
  });

  it('is absent when the site has none', async () => {
    const { container } = renderWith(1440, null);
    await waitFor(() => expect(queryClient.getQueryData(['site', 'data'])).toBeTruthy());
    expect(container.querySelector('video')).toBeNull();
  });
});
