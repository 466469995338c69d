CREATE TABLE "vehicle_record_versions" (
	"vehicle_id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vehicle_record_versions" ADD CONSTRAINT "vehicle_record_versions_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Versions come from one sequence, so a value is never given twice (not even after a restore, which
-- restarts the tables' own ids): a list cached at a version can only be that version's list.
CREATE SEQUENCE "record_version_seq";
--> statement-breakpoint
-- Gives each of these vehicles (still there: a vehicle's delete cascades to its records) a new version,
-- in id order, so two transactions bumping the same vehicles wait for each other instead of deadlocking.
CREATE FUNCTION evdra_bump_record_versions(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO vehicle_record_versions AS rv (vehicle_id, version)
  SELECT v.id, nextval('record_version_seq') FROM vehicles v
   WHERE v.id IN (SELECT DISTINCT unnest(ids)) ORDER BY v.id
  ON CONFLICT (vehicle_id) DO UPDATE SET version = excluded.version;
$$;
--> statement-breakpoint
-- One bump per statement, whatever its size (an import's chunk of 5,000 rows is one).
CREATE FUNCTION evdra_records_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM evdra_bump_record_versions(array(SELECT vehicle_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM evdra_bump_record_versions(array(SELECT vehicle_id FROM old_rows));
  ELSE
    PERFORM evdra_bump_record_versions(array(SELECT vehicle_id FROM new_rows UNION SELECT vehicle_id FROM old_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A record list shows who wrote each record by username: renaming a writer changes their vehicles' lists.
CREATE FUNCTION evdra_writer_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM evdra_bump_record_versions(array(
    SELECT vehicle_id FROM fuel_entries WHERE created_by = NEW.id
    UNION SELECT vehicle_id FROM expenses WHERE created_by = NEW.id
    UNION SELECT vehicle_id FROM insurances WHERE created_by = NEW.id
    UNION SELECT vehicle_id FROM revisions WHERE created_by = NEW.id
    UNION SELECT vehicle_id FROM renewals WHERE created_by = NEW.id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_writer_renamed AFTER UPDATE OF username ON users
  FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username) EXECUTE FUNCTION evdra_writer_renamed();
--> statement-breakpoint
CREATE TRIGGER fuel_entries_version_ins AFTER INSERT ON fuel_entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER fuel_entries_version_upd AFTER UPDATE ON fuel_entries
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER fuel_entries_version_del AFTER DELETE ON fuel_entries
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER expenses_version_ins AFTER INSERT ON expenses
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER expenses_version_upd AFTER UPDATE ON expenses
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER expenses_version_del AFTER DELETE ON expenses
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER insurances_version_ins AFTER INSERT ON insurances
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER insurances_version_upd AFTER UPDATE ON insurances
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER insurances_version_del AFTER DELETE ON insurances
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER revisions_version_ins AFTER INSERT ON revisions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER revisions_version_upd AFTER UPDATE ON revisions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER revisions_version_del AFTER DELETE ON revisions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER renewals_version_ins AFTER INSERT ON renewals
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER renewals_version_upd AFTER UPDATE ON renewals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
--> statement-breakpoint
CREATE TRIGGER renewals_version_del AFTER DELETE ON renewals
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_records_changed();
