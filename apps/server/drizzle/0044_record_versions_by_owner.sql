-- Issue 54: a user's analytics are kept under a stamp that lists each of their cars' records version
-- (AnalyticsRepo.userStamp), read on every request. Found car by car through the vehicle's key, a
-- fleet's 200 versions took 807 buffers and ~0.65 ms of PostgreSQL's CPU a read, more than the rest of
-- the request; kept with the car's owner, they are one range of an index (48 buffers). A page of
-- records over a user's cars is kept under the same versions (RecordsRepo.prepareUserStamp). The owner follows the car
-- (a sale, an admin's change), and every bump writes it again, so a row can never keep another's.
ALTER TABLE "vehicle_record_versions" ADD COLUMN "owner_id" integer;--> statement-breakpoint
UPDATE "vehicle_record_versions" rv SET "owner_id" = v."owner_id" FROM "vehicles" v WHERE v."id" = rv."vehicle_id";--> statement-breakpoint
ALTER TABLE "vehicle_record_versions" ALTER COLUMN "owner_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "vehicle_record_versions_owner_idx" ON "vehicle_record_versions" ("owner_id");--> statement-breakpoint
-- The same owner written again leaves the update HOT: no index entry is added for a version bump.
CREATE OR REPLACE FUNCTION evdra_bump_record_versions(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO vehicle_record_versions AS rv (vehicle_id, owner_id, version)
  SELECT v.id, v.owner_id, nextval('record_version_seq') FROM vehicles v
   WHERE v.id IN (SELECT DISTINCT unnest(ids)) ORDER BY v.id
  ON CONFLICT (vehicle_id) DO UPDATE SET version = excluded.version, owner_id = excluded.owner_id;
  SELECT evdra_bump_analytics(ids);
$$;--> statement-breakpoint
CREATE FUNCTION evdra_record_versions_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE vehicle_record_versions SET owner_id = NEW.owner_id WHERE vehicle_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER vehicles_record_versions_owner AFTER UPDATE OF owner_id ON vehicles
  FOR EACH ROW WHEN (OLD.owner_id IS DISTINCT FROM NEW.owner_id)
  EXECUTE FUNCTION evdra_record_versions_owner();
