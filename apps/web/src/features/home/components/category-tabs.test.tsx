import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CategoryTabs } from './category-tabs.tsx';

describe('home category tabs', () => {
  it('shows the shape of the tiles while the site is loading, never "no games"', () => {
    render(<CategoryTabs categories={[]} loading renderPanel={() => null} />);
    expect(screen.getByTestId('tiles-skeleton').getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByText('No games in this category yet')).toBeNull();
  });

  it('says there are no games only once the site has answered without categories', () => {
    render(<CategoryTabs categories={[]} loading={false} renderPanel={() => null} />);
    expect(screen.getByText('No games in this category yet')).toBeTruthy();
    expect(screen.queryByTestId('tiles-skeleton')).toBeNull();
  });

  it('draws the tabs and the active panel once the categories are there', () => {
    render(
      <CategoryTabs categories={['slots', 'live']} loading={false} renderPanel={(code) => <p>{code}</p>} />,
    );
    expect(screen.getByRole('tab', { name: 'Slots' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('slots')).toBeTruthy();
  });
});
