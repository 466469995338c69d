ALTER TABLE "vehicle_month_costs" ADD COLUMN "currency" text DEFAULT 'EUR' NOT NULL;--> statement-breakpoint
ALTER TABLE "vehicle_month_costs" DROP CONSTRAINT "vehicle_month_costs_vehicle_id_month_pk";--> statement-breakpoint
ALTER TABLE "vehicle_month_costs" ADD CONSTRAINT "vehicle_month_costs_vehicle_id_month_currency_pk" PRIMARY KEY("vehicle_id","month","currency");
--> statement-breakpoint
-- The monthly cost rollup keeps one row per vehicle, month and currency: each record counts, at its
-- rate, in its owner's currency when the rate was set (rate_currency), so an owner who changes
-- currency keeps both sums apart, never added as one. Analytics convert each to the reader's.
CREATE OR REPLACE FUNCTION evdra_add_month_cost(v integer, m date, cur text, l numeric, f numeric, e numeric, i numeric, r numeric)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO vehicle_month_costs AS c (vehicle_id, month, currency, liters, fuel, expenses, insurance, revisions)
  VALUES (v, date_trunc('month', m)::date, cur, l, f, e, i, r)
  ON CONFLICT (vehicle_id, month, currency) DO UPDATE SET
    liters = c.liters + excluded.liters,
    fuel = c.fuel + excluded.fuel,
    expenses = c.expenses + excluded.expenses,
    insurance = c.insurance + excluded.insurance,
    revisions = c.revisions + excluded.revisions;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_fuel() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM evdra_add_month_cost(OLD.vehicle_id, OLD.date, OLD.rate_currency, -OLD.liters, -evdra_owner_amount(OLD.fuel_price, OLD.exchange_rate), 0, 0, 0); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM evdra_add_month_cost(NEW.vehicle_id, NEW.date, NEW.rate_currency, NEW.liters, evdra_owner_amount(NEW.fuel_price, NEW.exchange_rate), 0, 0, 0); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_expense() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM evdra_add_month_cost(OLD.vehicle_id, OLD.date, OLD.rate_currency, 0, 0, -evdra_owner_amount(OLD.amount, OLD.exchange_rate), 0, 0); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM evdra_add_month_cost(NEW.vehicle_id, NEW.date, NEW.rate_currency, 0, 0, evdra_owner_amount(NEW.amount, NEW.exchange_rate), 0, 0); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_insurance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM evdra_add_month_cost(OLD.vehicle_id, OLD.start_date, OLD.rate_currency, 0, 0, 0, -evdra_owner_amount(OLD.price, OLD.exchange_rate), 0); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM evdra_add_month_cost(NEW.vehicle_id, NEW.start_date, NEW.rate_currency, 0, 0, 0, evdra_owner_amount(NEW.price, NEW.exchange_rate), 0); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM evdra_add_month_cost(OLD.vehicle_id, OLD.date, OLD.rate_currency, 0, 0, 0, 0, -evdra_owner_amount(OLD.price, OLD.exchange_rate)); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM evdra_add_month_cost(NEW.vehicle_id, NEW.date, NEW.rate_currency, 0, 0, 0, 0, evdra_owner_amount(NEW.price, NEW.exchange_rate)); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_renewal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.price IS NOT NULL THEN
    PERFORM evdra_add_month_cost(OLD.vehicle_id, coalesce(OLD.valid_from, OLD.created_at::date), OLD.rate_currency, 0, 0, -evdra_owner_amount(OLD.price, OLD.exchange_rate), 0, 0);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.price IS NOT NULL THEN
    PERFORM evdra_add_month_cost(NEW.vehicle_id, coalesce(NEW.valid_from, NEW.created_at::date), NEW.rate_currency, 0, 0, evdra_owner_amount(NEW.price, NEW.exchange_rate), 0, 0);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'fuel_entries' THEN
    INSERT INTO vehicle_month_costs AS c (vehicle_id, month, currency, liters, fuel, expenses, insurance, revisions)
    SELECT vehicle_id, date_trunc('month', date)::date, rate_currency, sum(liters), sum(evdra_owner_amount(fuel_price, exchange_rate)), 0, 0, 0
      FROM new_rows GROUP BY 1, 2, 3
    ON CONFLICT (vehicle_id, month, currency) DO UPDATE SET liters = c.liters + excluded.liters, fuel = c.fuel + excluded.fuel;
  ELSIF TG_TABLE_NAME = 'expenses' THEN
    INSERT INTO vehicle_month_costs AS c (vehicle_id, month, currency, liters, fuel, expenses, insurance, revisions)
    SELECT vehicle_id, date_trunc('month', date)::date, rate_currency, 0, 0, sum(evdra_owner_amount(amount, exchange_rate)), 0, 0
      FROM new_rows GROUP BY 1, 2, 3
    ON CONFLICT (vehicle_id, month, currency) DO UPDATE SET expenses = c.expenses + excluded.expenses;
  ELSIF TG_TABLE_NAME = 'insurances' THEN
    INSERT INTO vehicle_month_costs AS c (vehicle_id, month, currency, liters, fuel, expenses, insurance, revisions)
    SELECT vehicle_id, date_trunc('month', start_date)::date, rate_currency, 0, 0, 0, sum(evdra_owner_amount(price, exchange_rate)), 0
      FROM new_rows GROUP BY 1, 2, 3
    ON CONFLICT (vehicle_id, month, currency) DO UPDATE SET insurance = c.insurance + excluded.insurance;
  ELSIF TG_TABLE_NAME = 'revisions' THEN
    INSERT INTO vehicle_month_costs AS c (vehicle_id, month, currency, liters, fuel, expenses, insurance, revisions)
    SELECT vehicle_id, date_trunc('month', date)::date, rate_currency, 0, 0, 0, 0, sum(evdra_owner_amount(price, exchange_rate))
      FROM new_rows GROUP BY 1, 2, 3
    ON CONFLICT (vehicle_id, month, currency) DO UPDATE SET revisions = c.revisions + excluded.revisions;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP FUNCTION evdra_add_month_cost(integer, date, numeric, numeric, numeric, numeric, numeric);
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
CREATE TRIGGER fuel_entries_rollup AFTER DELETE OR UPDATE OF vehicle_id, date, liters, fuel_price, exchange_rate, rate_currency ON fuel_entries
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_fuel();
--> statement-breakpoint
CREATE TRIGGER expenses_rollup AFTER DELETE OR UPDATE OF vehicle_id, date, amount, exchange_rate, rate_currency ON expenses
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_expense();
--> statement-breakpoint
CREATE TRIGGER insurances_rollup AFTER DELETE OR UPDATE OF vehicle_id, start_date, price, exchange_rate, rate_currency ON insurances
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_insurance();
--> statement-breakpoint
CREATE TRIGGER revisions_rollup AFTER DELETE OR UPDATE OF vehicle_id, date, price, exchange_rate, rate_currency ON revisions
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_revision();
--> statement-breakpoint
CREATE TRIGGER renewals_rollup AFTER INSERT OR DELETE OR UPDATE OF vehicle_id, valid_from, price, exchange_rate, rate_currency ON renewals
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_renewal();
--> statement-breakpoint
-- The sums again, by currency, from the records as they are.
DELETE FROM vehicle_month_costs;
--> statement-breakpoint
INSERT INTO vehicle_month_costs (vehicle_id, month, currency, liters, fuel, expenses, insurance, revisions)
SELECT vehicle_id, m, cur, sum(l), sum(f), sum(e), sum(i), sum(r) FROM (
  SELECT vehicle_id, date_trunc('month', date)::date AS m, rate_currency AS cur, liters AS l,
         evdra_owner_amount(fuel_price, exchange_rate) AS f, 0 AS e, 0 AS i, 0 AS r FROM fuel_entries
  UNION ALL SELECT vehicle_id, date_trunc('month', date)::date, rate_currency, 0, 0, evdra_owner_amount(amount, exchange_rate), 0, 0 FROM expenses
  UNION ALL SELECT vehicle_id, date_trunc('month', start_date)::date, rate_currency, 0, 0, 0, evdra_owner_amount(price, exchange_rate), 0 FROM insurances
  UNION ALL SELECT vehicle_id, date_trunc('month', date)::date, rate_currency, 0, 0, 0, 0, evdra_owner_amount(price, exchange_rate) FROM revisions
  UNION ALL SELECT vehicle_id, date_trunc('month', coalesce(valid_from, created_at::date))::date, rate_currency, 0, 0,
         evdra_owner_amount(price, exchange_rate), 0, 0 FROM renewals WHERE price IS NOT NULL
) x GROUP BY vehicle_id, m, cur;
