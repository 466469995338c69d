ALTER TABLE "listings" ADD COLUMN "currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "exchange_rate" numeric(20, 12) DEFAULT 1;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "rate_date" date;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "rate_source" text DEFAULT 'ECB' NOT NULL;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "rate_currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
-- Every listing so far was priced in euros, its seller's currency: rate 1, of the day it was listed.
UPDATE listings SET rate_date = created_at::date;
