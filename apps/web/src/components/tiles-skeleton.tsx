/**
 * The shape of a row of game tiles while what fills it is still on its way: a list that has not
 * arrived is never shown as an empty one ("No games in this category yet" before the tiles).
 */
export function TilesSkeleton({ count = 6, label }: { count?: number; label: string }) {
  return (
    <div
      className="tiles-skeleton"
      role="status"
      aria-busy="true"
      aria-label={label}
      data-testid="tiles-skeleton"
    >
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <span key={index} className="tiles-skeleton__tile" />
      ))}
    </div>
  );
}
