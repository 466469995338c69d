ALTER TABLE "expenses" ADD COLUMN "currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "exchange_rate" numeric(20, 12) DEFAULT 1;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "rate_date" date;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "rate_source" text DEFAULT 'ECB' NOT NULL;--> statement-breakpoint
ALTER TABLE "expenses" ADD COLUMN "rate_currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "fuel_entries" ADD COLUMN "currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "fuel_entries" ADD COLUMN "exchange_rate" numeric(20, 12) DEFAULT 1;--> statement-breakpoint
ALTER TABLE "fuel_entries" ADD COLUMN "rate_date" date;--> statement-breakpoint
ALTER TABLE "fuel_entries" ADD COLUMN "rate_source" text DEFAULT 'ECB' NOT NULL;--> statement-breakpoint
ALTER TABLE "fuel_entries" ADD COLUMN "rate_currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "insurances" ADD COLUMN "currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "insurances" ADD COLUMN "exchange_rate" numeric(20, 12) DEFAULT 1;--> statement-breakpoint
ALTER TABLE "insurances" ADD COLUMN "rate_date" date;--> statement-breakpoint
ALTER TABLE "insurances" ADD COLUMN "rate_source" text DEFAULT 'ECB' NOT NULL;--> statement-breakpoint
ALTER TABLE "insurances" ADD COLUMN "rate_currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "renewals" ADD COLUMN "currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "renewals" ADD COLUMN "exchange_rate" numeric(20, 12) DEFAULT 1;--> statement-breakpoint
ALTER TABLE "renewals" ADD COLUMN "rate_date" date;--> statement-breakpoint
ALTER TABLE "renewals" ADD COLUMN "rate_source" text DEFAULT 'ECB' NOT NULL;--> statement-breakpoint
ALTER TABLE "renewals" ADD COLUMN "rate_currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "exchange_rate" numeric(20, 12) DEFAULT 1;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "rate_date" date;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "rate_source" text DEFAULT 'ECB' NOT NULL;--> statement-breakpoint
ALTER TABLE "revisions" ADD COLUMN "rate_currency" text DEFAULT 'EUR' NOT NULL;
--> statement-breakpoint
-- Every record so far was in euros, its owner's currency (every account was in euros): rate 1, from
-- its own day. The update also gives each vehicle a new records version (0020's statement triggers),
-- so no process answers a record list it kept without the new fields.
UPDATE fuel_entries SET rate_date = date;
--> statement-breakpoint
UPDATE expenses SET rate_date = date;
--> statement-breakpoint
UPDATE insurances SET rate_date = start_date;
--> statement-breakpoint
UPDATE revisions SET rate_date = date;
--> statement-breakpoint
UPDATE renewals SET rate_date = coalesce(valid_from, created_at::date);
--> statement-breakpoint
-- The monthly cost rollup (0004, 0016, 0018) sums each record in its owner's currency: the amount times
-- its exchange rate, to the cent (numeric rounds half away from zero, as the domain's convertMoney).
-- A record without a rate (a renewal without a price) counts as before.
CREATE OR REPLACE FUNCTION evdra_owner_amount(amount numeric, rate numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$ SELECT round(amount * coalesce(rate, 1), 2) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_fuel() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM evdra_add_month_cost(OLD.vehicle_id, OLD.date, -OLD.liters, -evdra_owner_amount(OLD.fuel_price, OLD.exchange_rate), 0, 0, 0); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM evdra_add_month_cost(NEW.vehicle_id, NEW.date, NEW.liters, evdra_owner_amount(NEW.fuel_price, NEW.exchange_rate), 0, 0, 0); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_expense() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM evdra_add_month_cost(OLD.vehicle_id, OLD.date, 0, 0, -evdra_owner_amount(OLD.amount, OLD.exchange_rate), 0, 0); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM evdra_add_month_cost(NEW.vehicle_id, NEW.date, 0, 0, evdra_owner_amount(NEW.amount, NEW.exchange_rate), 0, 0); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_insurance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM evdra_add_month_cost(OLD.vehicle_id, OLD.start_date, 0, 0, 0, -evdra_owner_amount(OLD.price, OLD.exchange_rate), 0); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM evdra_add_month_cost(NEW.vehicle_id, NEW.start_date, 0, 0, 0, evdra_owner_amount(NEW.price, NEW.exchange_rate), 0); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM evdra_add_month_cost(OLD.vehicle_id, OLD.date, 0, 0, 0, 0, -evdra_owner_amount(OLD.price, OLD.exchange_rate)); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM evdra_add_month_cost(NEW.vehicle_id, NEW.date, 0, 0, 0, 0, evdra_owner_amount(NEW.price, NEW.exchange_rate)); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_renewal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.price IS NOT NULL THEN
    PERFORM evdra_add_month_cost(OLD.vehicle_id, coalesce(OLD.valid_from, OLD.created_at::date), 0, 0, -evdra_owner_amount(OLD.price, OLD.exchange_rate), 0, 0);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.price IS NOT NULL THEN
    PERFORM evdra_add_month_cost(NEW.vehicle_id, coalesce(NEW.valid_from, NEW.created_at::date), 0, 0, evdra_owner_amount(NEW.price, NEW.exchange_rate), 0, 0);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'fuel_entries' THEN
    INSERT INTO vehicle_month_costs AS c (vehicle_id, month, liters, fuel, expenses, insurance, revisions)
    SELECT vehicle_id, date_trunc('month', date)::date, sum(liters), sum(evdra_owner_amount(fuel_price, exchange_rate)), 0, 0, 0
      FROM new_rows GROUP BY 1, 2
    ON CONFLICT (vehicle_id, month) DO UPDATE SET liters = c.liters + excluded.liters, fuel = c.fuel + excluded.fuel;
  ELSIF TG_TABLE_NAME = 'expenses' THEN
    INSERT INTO vehicle_month_costs AS c (vehicle_id, month, liters, fuel, expenses, insurance, revisions)
    SELECT vehicle_id, date_trunc('month', date)::date, 0, 0, sum(evdra_owner_amount(amount, exchange_rate)), 0, 0
      FROM new_rows GROUP BY 1, 2
    ON CONFLICT (vehicle_id, month) DO UPDATE SET expenses = c.expenses + excluded.expenses;
  ELSIF TG_TABLE_NAME = 'insurances' THEN
    INSERT INTO vehicle_month_costs AS c (vehicle_id, month, liters, fuel, expenses, insurance, revisions)
    SELECT vehicle_id, date_trunc('month', start_date)::date, 0, 0, 0, sum(evdra_owner_amount(price, exchange_rate)), 0
      FROM new_rows GROUP BY 1, 2
    ON CONFLICT (vehicle_id, month) DO UPDATE SET insurance = c.insurance + excluded.insurance;
  ELSIF TG_TABLE_NAME = 'revisions' THEN
    INSERT INTO vehicle_month_costs AS c (vehicle_id, month, liters, fuel, expenses, insurance, revisions)
    SELECT vehicle_id, date_trunc('month', date)::date, 0, 0, 0, 0, sum(evdra_owner_amount(price, exchange_rate))
      FROM new_rows GROUP BY 1, 2
    ON CONFLICT (vehicle_id, month) DO UPDATE SET revisions = c.revisions + excluded.revisions;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER fuel_entries_rollup ON fuel_entries;
--> statement-breakpoint
DROP TRIGGER expenses_rollup ON expenses;
--> statement-breakpoint
DROP TRIGGER insurances_rollup ON insurances;
--> statement-breakpoint
DROP TRIGGER revisions_rollup ON revisions;
--> statement-breakpoint
DROP TRIGGER renewals_rollup ON renewals;
--> statement-breakpoint
CREATE TRIGGER fuel_entries_rollup AFTER DELETE OR UPDATE OF vehicle_id, date, liters, fuel_price, exchange_rate ON fuel_entries
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_fuel();
--> statement-breakpoint
CREATE TRIGGER expenses_rollup AFTER DELETE OR UPDATE OF vehicle_id, date, amount, exchange_rate ON expenses
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_expense();
--> statement-breakpoint
CREATE TRIGGER insurances_rollup AFTER DELETE OR UPDATE OF vehicle_id, start_date, price, exchange_rate ON insurances
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_insurance();
--> statement-breakpoint
CREATE TRIGGER revisions_rollup AFTER DELETE OR UPDATE OF vehicle_id, date, price, exchange_rate ON revisions
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_revision();
--> statement-breakpoint
CREATE TRIGGER renewals_rollup AFTER INSERT OR DELETE OR UPDATE OF vehicle_id, valid_from, price, exchange_rate ON renewals
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_renewal();
