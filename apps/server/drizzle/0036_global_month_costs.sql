-- Every vehicle's monthly costs added up (issue 54): the admin's global analytics over a range of
-- months read a dozen rows per month, not one row per car and month (600,000 cars). Kept as
-- vehicle_month_costs is, in the same transaction as the write: a row trigger on the per-vehicle
-- rollup adds each change of it here, so both always hold the same sums. One row per month,
-- currency (the sums' own: each record's amount at its stored rate, in its owner's currency then)
-- and bucket (vehicle id mod 16): the writes of one month spread over 16 rows instead of all
-- waiting on one row's lock.
CREATE TABLE "global_month_costs" (
  "month" date NOT NULL,
  "currency" text NOT NULL,
  "bucket" smallint NOT NULL,
  "liters" numeric(16, 2) DEFAULT 0 NOT NULL,
  "fuel" numeric(16, 2) DEFAULT 0 NOT NULL,
  "expenses" numeric(16, 2) DEFAULT 0 NOT NULL,
  "insurance" numeric(16, 2) DEFAULT 0 NOT NULL,
  "revisions" numeric(16, 2) DEFAULT 0 NOT NULL,
  CONSTRAINT "global_month_costs_pk" PRIMARY KEY ("month", "currency", "bucket")
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_global() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO global_month_costs AS g (month, currency, bucket, liters, fuel, expenses, insurance, revisions)
    VALUES (OLD.month, OLD.currency, OLD.vehicle_id % 16, -OLD.liters, -OLD.fuel, -OLD.expenses, -OLD.insurance, -OLD.revisions)
    ON CONFLICT (month, currency, bucket) DO UPDATE SET
      liters = g.liters + excluded.liters, fuel = g.fuel + excluded.fuel, expenses = g.expenses + excluded.expenses,
      insurance = g.insurance + excluded.insurance, revisions = g.revisions + excluded.revisions;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO global_month_costs AS g (month, currency, bucket, liters, fuel, expenses, insurance, revisions)
    VALUES (NEW.month, NEW.currency, NEW.vehicle_id % 16, NEW.liters, NEW.fuel, NEW.expenses, NEW.insurance, NEW.revisions)
    ON CONFLICT (month, currency, bucket) DO UPDATE SET
      liters = g.liters + excluded.liters, fuel = g.fuel + excluded.fuel, expenses = g.expenses + excluded.expenses,
      insurance = g.insurance + excluded.insurance, revisions = g.revisions + excluded.revisions;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER vehicle_month_costs_global AFTER INSERT OR DELETE OR UPDATE ON vehicle_month_costs
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_global();
--> statement-breakpoint
-- The sums so far, from the per-vehicle rollup as it is.
INSERT INTO global_month_costs (month, currency, bucket, liters, fuel, expenses, insurance, revisions)
SELECT month, currency, vehicle_id % 16, sum(liters), sum(fuel), sum(expenses), sum(insurance), sum(revisions)
  FROM vehicle_month_costs GROUP BY 1, 2, 3;
