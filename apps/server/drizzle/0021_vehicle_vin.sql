-- An optional VIN per vehicle (null: none given). Stored upper-case, 17 characters of ISO 3779 (no I, O, Q);
-- Deliberately not unique: the same car may be recorded by more than one account.
ALTER TABLE "vehicles" ADD COLUMN "vin" text;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_vin_check" CHECK ("vehicles"."vin" ~ '^[A-HJ-NPR-Z0-9]{17}$');
