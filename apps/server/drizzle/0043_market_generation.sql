-- Issue 54: a page of the market (GET /api/marketplace/listings) is kept once written and handed out
-- again while nothing a card shows has changed: at 50 connections on 2 cores every page read its
-- listings, cars, sellers and record summaries again (≈1.9 ms of CPU a page). What a card shows
-- changes with a listing (any write; a car's searched values rewrite its listing, 0034), a listed
-- car's photo, a listed car's record summary, a seller's name and a listing's report link: each gives
-- market_generation a new number from its sequence, and a page's stamp is that number (with the
-- next report link to expire, read by the server).
--
-- The number is given at commit (deferred constraint triggers), once per transaction: taken in the
-- middle of one, the row's lock would order itself before the listing and car rows the rest of the
-- transaction locks, and a fill-up into a listed car (summary, then car, then its listing) could
-- deadlock with a listing's edit (listing, then this row). Not taken at all, a stamp read before a
-- write's commit would keep the older page under the newer number. No row until the first write, so a
-- new database is still empty for a restore.
CREATE SEQUENCE "market_generation_seq";--> statement-breakpoint
CREATE TABLE "market_generation" (
  "id" smallint PRIMARY KEY NOT NULL CHECK ("id" = 1),
  "gen" bigint NOT NULL
);--> statement-breakpoint
CREATE FUNCTION evdra_bump_market() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('evdra.market_bumped', true) = '1' THEN RETURN; END IF;
  INSERT INTO market_generation AS g (id, gen) VALUES (1, nextval('market_generation_seq'))
    ON CONFLICT (id) DO UPDATE SET gen = excluded.gen;
  PERFORM set_config('evdra.market_bumped', '1', true);
END $$;--> statement-breakpoint
CREATE FUNCTION evdra_market_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM evdra_bump_market();
  RETURN NULL;
END $$;--> statement-breakpoint
-- A car's or a seller's change shows only if they have an active listing (one index probe).
CREATE FUNCTION evdra_bump_market_if_listed(car integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('evdra.market_bumped', true) IS DISTINCT FROM '1'
     AND EXISTS (SELECT 1 FROM listings WHERE active AND vehicle_id = car) THEN
    PERFORM evdra_bump_market();
  END IF;
END $$;--> statement-breakpoint
CREATE FUNCTION evdra_market_car_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM evdra_bump_market_if_listed(NEW.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION evdra_market_history_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM evdra_bump_market_if_listed(COALESCE(NEW.vehicle_id, OLD.vehicle_id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION evdra_market_seller_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM listings WHERE active AND seller_id = NEW.id) THEN PERFORM evdra_bump_market(); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER listings_market_changed AFTER INSERT OR UPDATE OR DELETE ON listings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION evdra_market_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER report_links_market_changed AFTER INSERT OR UPDATE OR DELETE ON report_links
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION evdra_market_changed();--> statement-breakpoint
-- The car's other shown values rewrite its active listing already (vehicles_listing_search, 0034).
CREATE CONSTRAINT TRIGGER vehicles_market_photo AFTER UPDATE OF photo_id ON vehicles
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.photo_id IS DISTINCT FROM NEW.photo_id)
  EXECUTE FUNCTION evdra_market_car_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER vehicle_history_market_changed AFTER INSERT OR UPDATE OR DELETE ON vehicle_history
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION evdra_market_history_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER users_market_seller_renamed AFTER UPDATE OF username ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username)
  EXECUTE FUNCTION evdra_market_seller_renamed();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "listings_seller_active_idx" ON "listings" ("seller_id") WHERE active;--> statement-breakpoint
-- A card shows a report link until it expires, which no write marks: the stamp carries the next
-- expiry among the links of listings, read here in one probe.
CREATE INDEX IF NOT EXISTS "report_links_listing_expiry_idx" ON "report_links" ("expires_at")
  WHERE listing_id IS NOT NULL AND revoked_at IS NULL;
