CREATE TABLE "report_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"vehicle_id" integer NOT NULL,
	"make" text NOT NULL,
	"model" text NOT NULL,
	"year" integer NOT NULL,
	"registration_number" text NOT NULL,
	"odometer" integer NOT NULL,
	"generated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"vehicle_id" integer NOT NULL,
	"created_by" integer NOT NULL,
	"listing_id" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_links" ADD CONSTRAINT "report_links_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_links" ADD CONSTRAINT "report_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_links" ADD CONSTRAINT "report_links_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_codes_vehicle_idx" ON "report_codes" USING btree ("vehicle_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_links_token_idx" ON "report_links" USING btree ("token");--> statement-breakpoint
CREATE INDEX "report_links_vehicle_idx" ON "report_links" USING btree ("vehicle_id");--> statement-breakpoint
CREATE INDEX "report_links_created_by_idx" ON "report_links" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "report_links_listing_idx" ON "report_links" USING btree ("listing_id");--> statement-breakpoint
-- A listing's report link ends with the listing (deleted, or inactive once the car is transferred),
-- and every link of a car ends when the car changes owner: the old owner's links must not keep
-- showing the new owner's records.
CREATE FUNCTION report_links_end_with_listing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR (OLD.active AND NOT NEW.active) THEN
    UPDATE report_links SET revoked_at = now() WHERE listing_id = OLD.id AND revoked_at IS NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER report_links_end_with_listing BEFORE DELETE OR UPDATE OF active ON listings
  FOR EACH ROW EXECUTE FUNCTION report_links_end_with_listing();--> statement-breakpoint
CREATE FUNCTION report_links_end_with_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.owner_id <> NEW.owner_id THEN
    UPDATE report_links SET revoked_at = now() WHERE vehicle_id = NEW.id AND revoked_at IS NULL;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER report_links_end_with_owner AFTER UPDATE OF owner_id ON vehicles
  FOR EACH ROW EXECUTE FUNCTION report_links_end_with_owner();
