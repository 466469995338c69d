CREATE TABLE "fx_rates" (
	"base" text DEFAULT 'EUR' NOT NULL,
	"currency" text NOT NULL,
	"date" date NOT NULL,
	"rate" numeric(18, 8) NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fx_rates_base_currency_date_source_pk" PRIMARY KEY("base","currency","date","source"),
	CONSTRAINT "fx_rates_codes_check" CHECK ("fx_rates"."base" ~ '^[A-Z]{3}$' and "fx_rates"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "fx_rates_rate_check" CHECK ("fx_rates"."rate" > 0),
	CONSTRAINT "fx_rates_source_check" CHECK ("fx_rates"."source" in ('ECB', 'MANUAL'))
);
