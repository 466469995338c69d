CREATE TABLE "interests" (
	"id" serial PRIMARY KEY NOT NULL,
	"listing_id" integer NOT NULL,
	"buyer_id" integer NOT NULL,
	"hidden_for_buyer" boolean DEFAULT false NOT NULL,
	"hidden_for_seller" boolean DEFAULT false NOT NULL,
	"buyer_read_id" integer DEFAULT 0 NOT NULL,
	"seller_read_id" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"id" serial PRIMARY KEY NOT NULL,
	"vehicle_id" integer NOT NULL,
	"seller_id" integer NOT NULL,
	"price" numeric(12, 2) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"photo_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"buyer_id" integer,
	"sold_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"interest_id" integer NOT NULL,
	"sender_id" integer,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vehicle_history" (
	"vehicle_id" integer PRIMARY KEY NOT NULL,
	"services" integer DEFAULT 0 NOT NULL,
	"last_service_date" date,
	"last_service_km" integer,
	"records_since" date,
	"fuel_entries" integer DEFAULT 0 NOT NULL,
	"consumption" numeric(8, 2)
);
--> statement-breakpoint
ALTER TABLE "interests" ADD CONSTRAINT "interests_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interests" ADD CONSTRAINT "interests_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_messages" ADD CONSTRAINT "market_messages_interest_id_interests_id_fk" FOREIGN KEY ("interest_id") REFERENCES "public"."interests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_messages" ADD CONSTRAINT "market_messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "interests_listing_buyer_idx" ON "interests" USING btree ("listing_id","buyer_id");--> statement-breakpoint
CREATE INDEX "interests_buyer_idx" ON "interests" USING btree ("buyer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "listings_active_vehicle_idx" ON "listings" USING btree ("vehicle_id") WHERE "listings"."active";--> statement-breakpoint
CREATE INDEX "listings_active_idx" ON "listings" USING btree ("active","id");--> statement-breakpoint
CREATE INDEX "listings_seller_idx" ON "listings" USING btree ("seller_id");--> statement-breakpoint
CREATE INDEX "market_messages_interest_idx" ON "market_messages" USING btree ("interest_id","id");