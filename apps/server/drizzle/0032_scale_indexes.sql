-- Issue 54 (bench:scale): the by-fuel split of the user's and the admin's analytics reads the fills of
-- two-fuel vehicles only; without this index it found them by a sequential scan of every vehicle
-- (Filter: secondary_fuel_type IS NOT NULL), on each call of /api/analytics/user. Partial: only the
-- two-fuel vehicles are in it, and the caller's vehicle ids are its index condition.
CREATE INDEX IF NOT EXISTS "vehicles_two_fuels_idx" ON "vehicles" USING btree ("id") WHERE "vehicles"."secondary_fuel_type" is not null;
