-- Issue 54: a user's conversations and a vehicle's documents page by keyset, each walking an index in
-- the list's order, so a page reads its own rows, not all of the user's or the car's.
--
-- The inbox is the user's conversations as a buyer and as a seller, latest activity first. The seller
-- was only on the listing: a seller's page joined every listing of theirs to its conversations and
-- sorted them all (4,000 conversations on 200 cars: 14.6 ms, and 39.5 ms when the planner chose a scan
-- of all listings). A conversation's seller is its listing's, which never changes: kept on the row
-- (filled on insert by a trigger, so every writer, a restore of an older backup included, sets it),
-- each side is one backward range of (party, updated_at, id). Those replace the (buyer_id) index the
-- buyer's one extends.
ALTER TABLE "interests" ADD COLUMN "seller_id" integer;--> statement-breakpoint
UPDATE "interests" i SET "seller_id" = l."seller_id" FROM "listings" l WHERE l."id" = i."listing_id";--> statement-breakpoint
ALTER TABLE "interests" ALTER COLUMN "seller_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "interests" ADD CONSTRAINT "interests_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_interest_seller() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT seller_id INTO NEW.seller_id FROM listings WHERE id = NEW.listing_id;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER interests_seller BEFORE INSERT OR UPDATE OF listing_id ON interests
  FOR EACH ROW EXECUTE FUNCTION evdra_interest_seller();--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "interests_buyer_keyset_idx" ON "interests" USING btree ("buyer_id","updated_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "interests_seller_keyset_idx" ON "interests" USING btree ("seller_id","updated_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "interests_buyer_idx";--> statement-breakpoint
-- A vehicle's documents come newest first by id: (vehicle_id, id) is that order (the (vehicle_id,
-- type, id) index stays for the history report, which sorts by type). Without it a page walked the
-- primary key skipping other cars' papers (a 5,000-paper car among 1M: 1.76 ms against 0.38 ms; a car
-- with a few papers walked the whole key).
CREATE INDEX IF NOT EXISTS "vehicle_documents_vehicle_keyset_idx" ON "vehicle_documents" USING btree ("vehicle_id","id");
