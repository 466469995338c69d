-- Issue 54: a user's conversations and a vehicle's documents page by keyset. The buyer's side of the
-- inbox walks (buyer_id, updated_at, id) backwards in the list's order (latest activity first), so a
-- page reads its own rows, not all of the buyer's; it replaces the (buyer_id) index it extends, which
-- serves nothing the new one does not (the users' cascade, a buyer's interests). A vehicle's documents
-- come newest first by id: (vehicle_id, id) is that order (the (vehicle_id, type, id) index stays for
-- the history report, which sorts by type).
CREATE INDEX IF NOT EXISTS "interests_buyer_keyset_idx" ON "interests" USING btree ("buyer_id","updated_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "interests_buyer_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "vehicle_documents_vehicle_keyset_idx" ON "vehicle_documents" USING btree ("vehicle_id","id");
