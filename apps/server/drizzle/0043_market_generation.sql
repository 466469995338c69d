-- Issue 54: a page of the market (GET /api/marketplace/listings) is kept once written and handed out
-- again while nothing a card shows has changed: at 50 connections on 2 cores every page read its
-- listings, cars, sellers and record summaries again (≈1.9 ms of CPU a page). Whatever a card shows
-- rewrites the car's active listing (a car's searched values already did, 0034; now also its photo,
-- its record summary and its seller's name), and a write of a listing or of a listing's report link
-- gives market_generation a new number from its sequence. A page's stamp is that number, with the
-- next report link to expire (read by the server: no write marks an expiry).
--
-- The number is given at commit (deferred constraint triggers), once per transaction: taken in the
-- middle of one, the row's lock would come before locks the rest of the transaction takes, and a
-- fill-up into a listed car (summary, then car, then its listing) could deadlock with a listing's
-- edit (listing, then this row). Not taken at all (a sequence alone), a stamp read before a write's
-- commit would keep the older page under the newer number. Deferred, they cost a listing's write
-- ~0.4 ms, which is why a car's record is not one of them: an unlisted car's summary rewrites no
-- listing and bumps nothing. No row until the first write, so a new database is still empty for a
-- restore.
CREATE SEQUENCE "market_generation_seq";--> statement-breakpoint
CREATE TABLE "market_generation" (
  "id" smallint PRIMARY KEY NOT NULL CHECK ("id" = 1),
  "gen" bigint NOT NULL
);--> statement-breakpoint
CREATE FUNCTION evdra_market_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('evdra.market_bumped', true) IS DISTINCT FROM '1' THEN
    INSERT INTO market_generation AS g (id, gen) VALUES (1, nextval('market_generation_seq'))
      ON CONFLICT (id) DO UPDATE SET gen = excluded.gen;
    PERFORM set_config('evdra.market_bumped', '1', true);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER listings_market_changed AFTER INSERT OR UPDATE OR DELETE ON listings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION evdra_market_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER report_links_market_changed AFTER INSERT OR UPDATE OR DELETE ON report_links
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION evdra_market_changed();--> statement-breakpoint
-- The car's photo shows on a card without photos of its own.
DROP TRIGGER vehicles_listing_search ON vehicles;--> statement-breakpoint
CREATE TRIGGER vehicles_listing_search AFTER UPDATE ON vehicles FOR EACH ROW
  WHEN (OLD.make IS DISTINCT FROM NEW.make OR OLD.model IS DISTINCT FROM NEW.model
        OR OLD.year IS DISTINCT FROM NEW.year OR OLD.engine_size IS DISTINCT FROM NEW.engine_size
        OR OLD.odometer IS DISTINCT FROM NEW.odometer OR OLD.fuel_type IS DISTINCT FROM NEW.fuel_type
        OR OLD.secondary_fuel_type IS DISTINCT FROM NEW.secondary_fuel_type
        OR OLD.ai_score IS DISTINCT FROM NEW.ai_score OR OLD.photo_id IS DISTINCT FROM NEW.photo_id)
  EXECUTE FUNCTION evdra_vehicle_listing_search();--> statement-breakpoint
CREATE FUNCTION evdra_history_listing_shown() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE listings SET vehicle_id = vehicle_id WHERE vehicle_id = NEW.vehicle_id AND active;
  RETURN NULL;
END $$;--> statement-breakpoint
-- A summary goes only with its car, whose listing goes with it.
CREATE TRIGGER vehicle_history_listing_shown AFTER INSERT OR UPDATE ON vehicle_history
  FOR EACH ROW EXECUTE FUNCTION evdra_history_listing_shown();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "listings_seller_active_idx" ON "listings" ("seller_id") WHERE active;--> statement-breakpoint
CREATE FUNCTION evdra_seller_listing_shown() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE listings SET vehicle_id = vehicle_id WHERE seller_id = NEW.id AND active;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_listing_shown AFTER UPDATE OF username ON users
  FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username)
  EXECUTE FUNCTION evdra_seller_listing_shown();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "report_links_listing_expiry_idx" ON "report_links" ("expires_at")
  WHERE listing_id IS NOT NULL AND revoked_at IS NULL;
