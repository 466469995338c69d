-- Keeps vehicle_history (the record summary shown on marketplace cards) equal to what the four
-- record tables say: every statement that inserts, updates or deletes records refreshes the rows of
-- the vehicles it touched (statement triggers with transition tables, so a bulk write refreshes each
-- vehicle once).
CREATE OR REPLACE FUNCTION evdra_refresh_history(vid integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO vehicle_history AS h
    (vehicle_id, services, last_service_date, last_service_km, records_since, fuel_entries, consumption)
  SELECT vid,
         (SELECT count(*) FROM revisions WHERE vehicle_id = vid),
         ls.date, ls.km,
         least((SELECT min(date) FROM revisions WHERE vehicle_id = vid),
               (SELECT min(date) FROM fuel_entries WHERE vehicle_id = vid),
               (SELECT min(date) FROM expenses WHERE vehicle_id = vid),
               (SELECT min(start_date) FROM insurances WHERE vehicle_id = vid)),
         (SELECT count(*) FROM fuel_entries WHERE vehicle_id = vid),
         (SELECT round(avg(consumption_per_100km), 2) FROM fuel_entries WHERE vehicle_id = vid)
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (
      SELECT date, km FROM revisions WHERE vehicle_id = vid ORDER BY date DESC, id DESC LIMIT 1
    ) ls ON true
  ON CONFLICT (vehicle_id) DO UPDATE SET
    services = excluded.services,
    last_service_date = excluded.last_service_date,
    last_service_km = excluded.last_service_km,
    records_since = excluded.records_since,
    fuel_entries = excluded.fuel_entries,
    consumption = excluded.consumption;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_history_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM evdra_refresh_history(vehicle_id) FROM (SELECT DISTINCT vehicle_id FROM new_rows) s;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_history_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM evdra_refresh_history(vehicle_id) FROM (SELECT DISTINCT vehicle_id FROM old_rows) s;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_history_both() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM evdra_refresh_history(vehicle_id)
     FROM (SELECT vehicle_id FROM new_rows UNION SELECT vehicle_id FROM old_rows) s;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER revisions_history_ins AFTER INSERT ON revisions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_history_new();
--> statement-breakpoint
CREATE TRIGGER revisions_history_upd AFTER UPDATE ON revisions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_history_both();
--> statement-breakpoint
CREATE TRIGGER revisions_history_del AFTER DELETE ON revisions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_history_old();
--> statement-breakpoint
CREATE TRIGGER fuel_entries_history_ins AFTER INSERT ON fuel_entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_history_new();
--> statement-breakpoint
CREATE TRIGGER fuel_entries_history_upd AFTER UPDATE ON fuel_entries
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_history_both();
--> statement-breakpoint
CREATE TRIGGER fuel_entries_history_del AFTER DELETE ON fuel_entries
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_history_old();
--> statement-breakpoint
CREATE TRIGGER expenses_history_ins AFTER INSERT ON expenses
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_history_new();
--> statement-breakpoint
CREATE TRIGGER expenses_history_upd AFTER UPDATE ON expenses
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_history_both();
--> statement-breakpoint
CREATE TRIGGER expenses_history_del AFTER DELETE ON expenses
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_history_old();
--> statement-breakpoint
CREATE TRIGGER insurances_history_ins AFTER INSERT ON insurances
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_history_new();
--> statement-breakpoint
CREATE TRIGGER insurances_history_upd AFTER UPDATE ON insurances
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_history_both();
--> statement-breakpoint
CREATE TRIGGER insurances_history_del AFTER DELETE ON insurances
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_history_old();
--> statement-breakpoint
-- Vehicles that already have records.
SELECT evdra_refresh_history(id) FROM vehicles;
--> statement-breakpoint
-- Tells every server process (LISTEN evdra_market_changed) that a marketplace answer may have
-- changed: a listing, or the record summary of a car. Vehicle and username changes already go out
-- on evdra_vehicles_changed.
CREATE OR REPLACE FUNCTION evdra_notify_market_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('evdra_market_changed', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER listings_changed AFTER INSERT OR UPDATE OR DELETE ON listings
  FOR EACH STATEMENT EXECUTE FUNCTION evdra_notify_market_changed();
--> statement-breakpoint
CREATE TRIGGER vehicle_history_changed AFTER INSERT OR UPDATE OR DELETE ON vehicle_history
  FOR EACH STATEMENT EXECUTE FUNCTION evdra_notify_market_changed();
