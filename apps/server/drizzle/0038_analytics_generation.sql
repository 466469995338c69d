-- Issue 50: the admin's per-car analytics (/api/analytics/admin/filter) are kept once written, like a
-- vehicle's, and handed out again while nothing they show has changed. What they show changes with any
-- record (its rollup, a two-fuel car's split, a month's fill count), a car's make, model, fuels, owner
-- or delete, and an owner's rename: each such write gives the cars' buckets (vehicle id mod 16, as
-- global_month_costs spreads its locks) a new number, and the answer's stamp is the buckets' numbers,
-- read in one small statement. Numbers come from one sequence, so a bucket never gets a number twice
-- (not even after a restore, which rebuilds this table through the triggers): a changed bucket always
-- changes the stamp. No rows until the first write, so a new database is still empty for a restore.
CREATE SEQUENCE "analytics_generation_seq";--> statement-breakpoint
CREATE TABLE "analytics_generation" (
  "bucket" smallint PRIMARY KEY NOT NULL,
  "gen" bigint NOT NULL
);--> statement-breakpoint
-- In bucket order, so two transactions bumping the same buckets wait for each other, not deadlock.
CREATE FUNCTION evdra_bump_analytics(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO analytics_generation AS g (bucket, gen)
  SELECT b.bucket, nextval('analytics_generation_seq')
    FROM (SELECT DISTINCT (id % 16)::smallint AS bucket FROM unnest(ids) AS id WHERE id IS NOT NULL) b
   ORDER BY b.bucket
  ON CONFLICT (bucket) DO UPDATE SET gen = excluded.gen;
$$;--> statement-breakpoint
-- Every record statement already bumps its cars' record versions here (0020): the buckets go with them,
-- deleted cars' included (a car's delete cascades to its records).
CREATE OR REPLACE FUNCTION evdra_bump_record_versions(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO vehicle_record_versions AS rv (vehicle_id, version)
  SELECT v.id, nextval('record_version_seq') FROM vehicles v
   WHERE v.id IN (SELECT DISTINCT unnest(ids)) ORDER BY v.id
  ON CONFLICT (vehicle_id) DO UPDATE SET version = excluded.version;
  SELECT evdra_bump_analytics(ids);
$$;--> statement-breakpoint
CREATE FUNCTION evdra_vehicle_shown_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM evdra_bump_analytics(ARRAY[COALESCE(NEW.id, OLD.id)]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER vehicles_analytics_shown AFTER UPDATE OF make, model, owner_id, fuel_type, secondary_fuel_type ON vehicles
  FOR EACH ROW WHEN (OLD.make IS DISTINCT FROM NEW.make OR OLD.model IS DISTINCT FROM NEW.model
    OR OLD.owner_id IS DISTINCT FROM NEW.owner_id OR OLD.fuel_type IS DISTINCT FROM NEW.fuel_type
    OR OLD.secondary_fuel_type IS DISTINCT FROM NEW.secondary_fuel_type)
  EXECUTE FUNCTION evdra_vehicle_shown_changed();--> statement-breakpoint
CREATE TRIGGER vehicles_analytics_deleted AFTER DELETE ON vehicles
  FOR EACH ROW EXECUTE FUNCTION evdra_vehicle_shown_changed();--> statement-breakpoint
CREATE FUNCTION evdra_owner_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM evdra_bump_analytics(array(SELECT id FROM vehicles WHERE owner_id = NEW.id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_owner_renamed AFTER UPDATE OF username ON users
  FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username) EXECUTE FUNCTION evdra_owner_renamed();
