-- Issue 54: the reminder job finds tonight's policies and renewals by the day they end (the next 30
-- days) among every one ever entered: with these it reads only those, instead of scanning the table.
-- Partial: an item whose reminder is off is never due.
CREATE INDEX IF NOT EXISTS "insurances_reminder_end_idx" ON "insurances" USING btree ("end_date") WHERE "insurances"."reminder_enabled";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "renewals_reminder_until_idx" ON "renewals" USING btree ("valid_until") WHERE "renewals"."reminder_enabled";
