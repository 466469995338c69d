-- Two fuels in one car (issue 51): a vehicle's optional second fuel (LPG or CNG beside petrol,
-- electricity beside petrol or diesel) and the size of each tank or battery, in its fuel's unit.
ALTER TABLE "vehicles" ADD COLUMN "secondary_fuel_type" text;--> statement-breakpoint
ALTER TABLE "vehicles" ADD COLUMN "tank_capacity" numeric(8, 2);--> statement-breakpoint
ALTER TABLE "vehicles" ADD COLUMN "secondary_tank_capacity" numeric(8, 2);--> statement-breakpoint
-- A fill's km on its own fuel since the previous fill of that fuel (a trip counter): when every fill
-- of a full-to-full span has it, it replaces the odometer's distance in that span's consumption.
ALTER TABLE "fuel_entries" ADD COLUMN "distance_on_this_fuel" numeric(10, 1);--> statement-breakpoint
-- Every fill already says its fuel (fuel_type, NOT NULL since 0001): a fill that somehow has none
-- takes its vehicle's. Fills whose fuel is not their vehicle's keep it as written; consumption counts
-- them in the primary fuel's chain, so single-fuel vehicles' figures do not change.
UPDATE "fuel_entries" f SET "fuel_type" = v."fuel_type" FROM "vehicles" v
  WHERE v."id" = f."vehicle_id" AND (f."fuel_type" IS NULL OR f."fuel_type" = '');--> statement-breakpoint
-- The analytics' split by fuel reads a vehicle's fills by fuel.
CREATE INDEX "fuel_entries_vehicle_fuel_idx" ON "fuel_entries" USING btree ("vehicle_id","fuel_type","date");
