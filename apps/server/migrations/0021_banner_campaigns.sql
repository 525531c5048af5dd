-- Home banners advertise only what the site has (issue 11).
--
-- site_banners.campaign_code: the campaign a banner advertises (NULL: it advertises none, e.g. a
--   game). The site data lists such a banner only while that campaign exists and is on for the
--   banner's site (promo_campaigns), so a site never advertises a reward its rules forbid.
-- The demo welcome banner is the first-deposit bonus (ftd): it names it and leads to its page.
-- The PIX channel that carries a recharge gift is named without the gift: the catalogue shows the
--   rate the site really gives (0 where the recharge gift is off), so the name never promises it.

ALTER TABLE site_banners
  ADD COLUMN campaign_code text CHECK (campaign_code IS NULL OR campaign_code ~ '^[a-z_]{2,40}$');

UPDATE site_banners SET campaign_code = 'ftd', link = '/promotion/activity/recharge'
WHERE image LIKE '%/banners/welcome.svg';

UPDATE payment_channels SET name = 'PIX' WHERE code = 'pix_bonus' AND name = 'PIX +2%';
