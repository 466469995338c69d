-- Tells every server process (LISTEN evdra_vehicles_changed) that a vehicle list may have changed,
-- so each drops its cached lists: vehicle rows, and an owner's username shown on them.
CREATE OR REPLACE FUNCTION evdra_notify_vehicles_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('evdra_vehicles_changed', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER vehicles_changed AFTER INSERT OR UPDATE OR DELETE ON vehicles
  FOR EACH STATEMENT EXECUTE FUNCTION evdra_notify_vehicles_changed();
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER UPDATE OF username OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION evdra_notify_vehicles_changed();
