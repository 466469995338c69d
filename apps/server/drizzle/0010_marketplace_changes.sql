CREATE TABLE "vehicle_history" (
	"vehicle_id" integer PRIMARY KEY NOT NULL,
	"services" integer DEFAULT 0 NOT NULL,
	"last_service_date" date,
	"last_service_km" integer,
	"records_since" date,
	"fuel_entries" integer DEFAULT 0 NOT NULL,
	"consumption" numeric(8, 2)
);
