ALTER TABLE "users" ADD COLUMN "currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "distance_unit" text DEFAULT 'km' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "volume_unit" text DEFAULT 'L' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "consumption_unit" text DEFAULT 'L_100KM' NOT NULL;