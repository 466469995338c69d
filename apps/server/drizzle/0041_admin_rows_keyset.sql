-- Issue 54: the admin's car-months (/api/analytics/admin/filter) page by keyset in their order,
-- newest month first then by vehicle: a page of car-months is one range read of this index from its
-- cursor on (a Unique over an index-only scan, stopped at the page's size), however many cars the
-- instance has. It replaces the index on month alone, whose reads (a range of months) it serves.
CREATE INDEX IF NOT EXISTS "vehicle_month_costs_month_vehicle_idx" ON "vehicle_month_costs" USING btree ("month" DESC,"vehicle_id");--> statement-breakpoint
DROP INDEX IF EXISTS "vehicle_month_costs_month_idx";
