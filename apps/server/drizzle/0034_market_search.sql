-- Issue 54: the marketplace list pages by keyset, and each of its filters and its sort by rating is an
-- index range on listings. What they compare lives on the vehicle (make, model, fuels, year, km, AI
-- score) or needs the latest euro rate (the price band, the rating), so each listing keeps a copy
-- (search_*, price_eur, rating_rank) that triggers hold equal to the vehicle and the rates: a filter
-- then walks one partial index of the active listings in the list's order (before: a scan of every
-- active listing joined to its vehicle, strpos on each).

-- Units of `cur` for one euro at the latest stored rate (an ECB rate before a MANUAL one of the same
-- day; EUR: 1; null when none is stored), as the cards converted it.
CREATE OR REPLACE FUNCTION evdra_per_euro(cur text) RETURNS numeric LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN cur = 'EUR' THEN 1::numeric ELSE (
    SELECT f.rate FROM fx_rates f WHERE f.base = 'EUR' AND f.currency = cur AND f.rate > 0
     ORDER BY f.date DESC, (f.source = 'ECB') DESC LIMIT 1) END
$$;
--> statement-breakpoint
-- Spec §9's estimate in euros, as the domain's priceRating computes it (a test holds the two equal);
-- null without an AI score.
CREATE OR REPLACE FUNCTION evdra_price_estimate(make text, year integer, engine numeric, odometer integer,
                                                fuel text, ai numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
  SELECT (15000 - 1000 * ai) * CASE
           WHEN m LIKE 'porsche%' OR m LIKE 'bmw%' OR m LIKE 'mercedes%' THEN 1.5
           WHEN m LIKE 'audi%' OR m LIKE 'volkswagen%' THEN 1.2
           WHEN m LIKE 'dacia%' OR m LIKE 'renault%' OR m LIKE 'fiat%' THEN 0.9
           ELSE 1 END
         + 100 * greatest(0, year - 2000) + 300 * engine + 5 * greatest(0, 200000 - odometer) / 1000.0
         + CASE WHEN fuel = 'ELECTRIC' THEN 1000 ELSE 0 END
    FROM (SELECT lower(btrim(make)) AS m) b
$$;
--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "search_make" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "search_model" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "search_fuel" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "search_fuel2" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "search_year" integer;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "search_odometer" integer;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "price_eur" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "rating_rank" numeric(15, 2) DEFAULT 1000000000000 NOT NULL;--> statement-breakpoint
-- Every write of a listing takes its vehicle's values and the price in euros; rating_rank is the price
-- minus the estimate (the best deals lowest), 1e12 for a listing without a rating (they sort last).
CREATE OR REPLACE FUNCTION evdra_listing_search() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v vehicles%ROWTYPE;
BEGIN
  SELECT * INTO v FROM vehicles WHERE id = NEW.vehicle_id;
  NEW.search_make := lower(btrim(v.make));
  NEW.search_model := lower(btrim(v.model));
  NEW.search_fuel := v.fuel_type;
  NEW.search_fuel2 := v.secondary_fuel_type;
  NEW.search_year := v.year;
  NEW.search_odometer := v.odometer;
  NEW.price_eur := round(NEW.price / evdra_per_euro(NEW.currency), 2);
  NEW.rating_rank := coalesce(round(NEW.price_eur - evdra_price_estimate(v.make, v.year, v.engine_size,
                                      v.odometer, v.fuel_type, v.ai_score), 2), 1000000000000);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER listings_search BEFORE INSERT OR UPDATE ON listings
  FOR EACH ROW EXECUTE FUNCTION evdra_listing_search();
--> statement-breakpoint
-- A change of what a listing is searched or rated by rewrites its active listing (one row by index).
CREATE OR REPLACE FUNCTION evdra_vehicle_listing_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE listings SET vehicle_id = vehicle_id WHERE vehicle_id = NEW.id AND active;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER vehicles_listing_search AFTER UPDATE ON vehicles FOR EACH ROW
  WHEN (OLD.make IS DISTINCT FROM NEW.make OR OLD.model IS DISTINCT FROM NEW.model
        OR OLD.year IS DISTINCT FROM NEW.year OR OLD.engine_size IS DISTINCT FROM NEW.engine_size
        OR OLD.odometer IS DISTINCT FROM NEW.odometer OR OLD.fuel_type IS DISTINCT FROM NEW.fuel_type
        OR OLD.secondary_fuel_type IS DISTINCT FROM NEW.secondary_fuel_type
        OR OLD.ai_score IS DISTINCT FROM NEW.ai_score)
  EXECUTE FUNCTION evdra_vehicle_listing_search();
--> statement-breakpoint
-- New or corrected euro rates: the active listings priced in those currencies whose euro price moved
-- are rewritten (once per statement; an unchanged rate touches none).
CREATE OR REPLACE FUNCTION evdra_fx_listing_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE listings l SET vehicle_id = vehicle_id
   WHERE l.active AND l.currency IN (SELECT DISTINCT currency FROM new_rows WHERE base = 'EUR')
     AND l.price_eur IS DISTINCT FROM round(l.price / evdra_per_euro(l.currency), 2);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER fx_rates_listing_search_ins AFTER INSERT ON fx_rates
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_fx_listing_search();
--> statement-breakpoint
CREATE TRIGGER fx_rates_listing_search_upd AFTER UPDATE ON fx_rates
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_fx_listing_search();
--> statement-breakpoint
UPDATE listings SET vehicle_id = vehicle_id;--> statement-breakpoint
-- One partial index per filter and sort, the id last: an equal value walks its listings newest first,
-- a range (a prefix, a price band) reads the index alone and sorts only the ids.
CREATE INDEX IF NOT EXISTS "listings_market_make_idx" ON "listings" ("search_make", "id") WHERE active;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "listings_market_model_idx" ON "listings" ("search_model", "id") WHERE active;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "listings_market_fuel_idx" ON "listings" ("search_fuel", "id") WHERE active;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "listings_market_fuel2_idx" ON "listings" ("search_fuel2", "id") WHERE active AND search_fuel2 IS NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "listings_market_year_idx" ON "listings" ("search_year", "id") WHERE active;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "listings_market_km_idx" ON "listings" ("search_odometer", "id") WHERE active;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "listings_market_price_idx" ON "listings" ("price_eur", "id") WHERE active;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "listings_market_rating_idx" ON "listings" ("rating_rank", (-"id")) WHERE active;
