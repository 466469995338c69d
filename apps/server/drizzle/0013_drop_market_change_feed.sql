-- GET /api/marketplace/listings no longer keeps a per-process cache, so nobody listens on
-- evdra_market_changed: stop notifying it on every listing and record-summary write.
DROP TRIGGER IF EXISTS listings_changed ON listings;
--> statement-breakpoint
DROP TRIGGER IF EXISTS vehicle_history_changed ON vehicle_history;
--> statement-breakpoint
DROP FUNCTION IF EXISTS evdra_notify_market_changed();
