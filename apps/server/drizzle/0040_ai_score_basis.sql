-- Issue 50: a vehicle's AI reason in each reader's language, currency and units. The built-in
-- evaluation keeps what its reason is made of (the factors shown, with their numbers: measures metric,
-- money in the currency it names) beside the score; the API writes the sentence again for each reader.
-- Null for a text a language model wrote and for older evaluations: their ai_score_reason is read as stored.
ALTER TABLE "vehicles" ADD COLUMN IF NOT EXISTS "ai_score_basis" jsonb;--> statement-breakpoint
-- A cached vehicle list (GET /api/vehicles) now carries text written for its reader: a change of a
-- user's language, currency or units, and a new day's exchange rates, drop every process's lists too.
DROP TRIGGER IF EXISTS users_changed ON users;--> statement-breakpoint
CREATE TRIGGER users_changed AFTER UPDATE OF username, language, currency, distance_unit, volume_unit, consumption_unit OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION evdra_notify_vehicles_changed();--> statement-breakpoint
CREATE TRIGGER fx_rates_changed AFTER INSERT OR UPDATE OR DELETE ON fx_rates
  FOR EACH STATEMENT EXECUTE FUNCTION evdra_notify_vehicles_changed();
