CREATE TABLE "vehicle_month_costs" (
	"vehicle_id" integer NOT NULL,
	"month" date NOT NULL,
	"liters" numeric(14, 2) DEFAULT 0 NOT NULL,
	"fuel" numeric(14, 2) DEFAULT 0 NOT NULL,
	"expenses" numeric(14, 2) DEFAULT 0 NOT NULL,
	"insurance" numeric(14, 2) DEFAULT 0 NOT NULL,
	"revisions" numeric(14, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "vehicle_month_costs_vehicle_id_month_pk" PRIMARY KEY("vehicle_id","month")
);
--> statement-breakpoint
CREATE INDEX "vehicle_month_costs_month_idx" ON "vehicle_month_costs" USING btree ("month");