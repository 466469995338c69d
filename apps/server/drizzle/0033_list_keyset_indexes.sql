-- Issue 54: a vehicle's record list pages by keyset, (date, id) < (cursor) newest first. With the id in
-- the index the whole key is an index condition and the rows come in the list's order, so a page reads
-- only its own rows (a generic plan on a 40,000-fill car: 13.7 ms with (vehicle_id, date), 0.2 ms with
-- (vehicle_id, date, id)). Each replaces the (vehicle_id, date) index it extends, which serves nothing
-- the new one does not.
CREATE INDEX IF NOT EXISTS "fuel_entries_vehicle_keyset_idx" ON "fuel_entries" USING btree ("vehicle_id","date","id");--> statement-breakpoint
DROP INDEX IF EXISTS "fuel_entries_vehicle_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "expenses_vehicle_keyset_idx" ON "expenses" USING btree ("vehicle_id","date","id");--> statement-breakpoint
DROP INDEX IF EXISTS "expenses_vehicle_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "revisions_vehicle_keyset_idx" ON "revisions" USING btree ("vehicle_id","date","id");--> statement-breakpoint
DROP INDEX IF EXISTS "revisions_vehicle_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "insurances_vehicle_keyset_idx" ON "insurances" USING btree ("vehicle_id","start_date","id");--> statement-breakpoint
DROP INDEX IF EXISTS "insurances_vehicle_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "renewals_vehicle_keyset_idx" ON "renewals" USING btree ("vehicle_id","valid_until","id");--> statement-breakpoint
DROP INDEX IF EXISTS "renewals_vehicle_idx";
