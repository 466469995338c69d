CREATE TABLE "vehicle_shares" (
	"vehicle_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vehicle_shares_vehicle_id_user_id_pk" PRIMARY KEY("vehicle_id","user_id"),
	CONSTRAINT "vehicle_shares_role_check" CHECK ("vehicle_shares"."role" in ('VIEWER', 'EDITOR'))
);
--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "fuel_entries" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "insurances" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "vehicle_shares" ADD CONSTRAINT "vehicle_shares_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_shares" ADD CONSTRAINT "vehicle_shares_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vehicle_shares_user_idx" ON "vehicle_shares" USING btree ("user_id","vehicle_id");--> statement-breakpoint
ALTER TABLE "expenses" ADD CONSTRAINT "expenses_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fuel_entries" ADD CONSTRAINT "fuel_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insurances" ADD CONSTRAINT "insurances_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "expenses_created_by_idx" ON "expenses" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "fuel_entries_created_by_idx" ON "fuel_entries" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "insurances_created_by_idx" ON "insurances" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "revisions_created_by_idx" ON "revisions" USING btree ("created_by");
--> statement-breakpoint
-- THE access rule, in one place: who reaches which vehicle, and how. Every statement that reads or
-- writes a vehicle (or its records, files, analytics, AI facts, reminders) joins it; administrators
-- are not in it (they reach every vehicle, as the statements' "userId is null" branch says).
CREATE VIEW "vehicle_access" AS
  SELECT "id" AS "vehicle_id", "owner_id" AS "user_id", 'OWNER'::text AS "access" FROM "vehicles"
  UNION ALL
  SELECT "vehicle_id", "user_id", "role" FROM "vehicle_shares";
--> statement-breakpoint
-- A share change changes the grantee's vehicle list: every server process drops its cached lists.
CREATE TRIGGER vehicle_shares_changed AFTER INSERT OR UPDATE OR DELETE ON vehicle_shares
  FOR EACH STATEMENT EXECUTE FUNCTION evdra_notify_vehicles_changed();
