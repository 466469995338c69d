ALTER TABLE "renewals" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "renewals" ADD CONSTRAINT "renewals_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "renewals_created_by_idx" ON "renewals" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "push_outbox_subscription_idx" ON "push_outbox" USING btree ("subscription_id");
