-- Category keys (issue 34, item 3). The seeded campaign rules named two categories by names the
-- catalogue does not use: wagering weights said `live` (bets carry `live_casino`, so a live-casino
-- stake counted in full) and rebate rates said `video` (turnover is recorded as `video_game`, so
-- video games earned no rebate). The code now types these maps by the contract's category list;
-- this corrects the rows already stored and makes the database refuse an unknown key from now on.

-- True when every key of `map` is a catalogue category (or `default`, where the map allows it).
CREATE FUNCTION sorte_category_keys_known(map jsonb, allow_default boolean) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT map IS NULL OR jsonb_typeof(map) <> 'object' OR NOT EXISTS (
    SELECT 1 FROM jsonb_object_keys(map) AS k(key)
    WHERE k.key NOT IN ('slots', 'live_casino', 'arcade', 'crash', 'fish', 'bingo', 'card', 'lottery',
                        'sports', 'video_game')
      AND NOT (allow_default AND k.key = 'default'))
$$;

-- Renames `old` to `new` in the object at `path` of `doc` (an explicit `new` already there wins).
CREATE FUNCTION sorte_rename_category_key(doc jsonb, path text[], old text, new text) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN jsonb_typeof(doc #> path) = 'object' AND (doc #> path) ? old
      THEN jsonb_set(doc, path,
        ((doc #> path) - old) || jsonb_build_object(new, COALESCE((doc #> path) -> new, (doc #> path) -> old)))
    ELSE doc
  END
$$;

UPDATE promo_campaigns
SET rules = sorte_rename_category_key(
              sorte_rename_category_key(rules, ARRAY['wagering', 'weights'], 'live', 'live_casino'),
              ARRAY['reward', 'categoryBps'], 'video', 'video_game'),
    updated_at = now()
WHERE (rules #> '{wagering,weights}') ? 'live' OR (rules #> '{reward,categoryBps}') ? 'video';

-- Grants still wagering snapshot the same misspelt weight. The key meant live casino at 20 % (the
-- terms players were given say so); only the key is corrected, never a weight's value, and closed
-- grants keep their history as it was.
UPDATE bonus_grants
SET terms = sorte_rename_category_key(terms, ARRAY['weights'], 'live', 'live_casino')
WHERE status = 'active' AND (terms -> 'weights') ? 'live';

ALTER TABLE promo_campaigns
  ADD CONSTRAINT promo_campaigns_category_keys CHECK (
    sorte_category_keys_known(rules #> '{wagering,weights}', true)
    AND sorte_category_keys_known(rules #> '{reward,categoryBps}', false));

ALTER TABLE member_turnover
  ADD CONSTRAINT member_turnover_category_known CHECK (category IN ('slots', 'live_casino', 'arcade',
    'crash', 'fish', 'bingo', 'card', 'lottery', 'sports', 'video_game'));
