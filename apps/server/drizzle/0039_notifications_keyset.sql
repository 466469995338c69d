-- Issue 54: a user's notifications page by keyset, newest first on (created_at, id). With the id in
-- the index a page is one backward range read in the list's order from its cursor on: on
-- (user_id, created_at) PostgreSQL bounded the range by created_at only, then filtered the row
-- comparison and sorted each page by id within equal times (an incremental sort). 1M notifications,
-- a user with 5,000, second runs of the named statement: a first page of 30 0.57-0.63 ms before,
-- 0.41-0.44 ms after; a page 4,000 deep 0.30-0.40 / 0.19-0.26 ms; the plain 200 1.18-1.87 / 1.02-1.28
-- ms. It replaces (user_id, created_at), whose reads it serves.
CREATE INDEX IF NOT EXISTS "notifications_user_keyset_idx" ON "notifications" USING btree ("user_id","created_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "notifications_user_idx";
