-- Keeps vehicle_month_costs equal to the sums of the record tables: every insert, update or delete
-- of a fuel entry, expense, insurance policy (by start month) or revision adjusts its month's row.
CREATE OR REPLACE FUNCTION evdra_add_month_cost(v integer, m date, l numeric, f numeric, e numeric, i numeric, r numeric)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO vehicle_month_costs AS c (vehicle_id, month, liters, fuel, expenses, insurance, revisions)
  VALUES (v, date_trunc('month', m)::date, l, f, e, i, r)
  ON CONFLICT (vehicle_id, month) DO UPDATE SET
    liters = c.liters + excluded.liters,
    fuel = c.fuel + excluded.fuel,
    expenses = c.expenses + excluded.expenses,
    insurance = c.insurance + excluded.insurance,
    revisions = c.revisions + excluded.revisions;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_fuel() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM evdra_add_month_cost(OLD.vehicle_id, OLD.date, -OLD.liters, -OLD.fuel_price, 0, 0, 0); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM evdra_add_month_cost(NEW.vehicle_id, NEW.date, NEW.liters, NEW.fuel_price, 0, 0, 0); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_expense() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM evdra_add_month_cost(OLD.vehicle_id, OLD.date, 0, 0, -OLD.amount, 0, 0); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM evdra_add_month_cost(NEW.vehicle_id, NEW.date, 0, 0, NEW.amount, 0, 0); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_insurance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM evdra_add_month_cost(OLD.vehicle_id, OLD.start_date, 0, 0, 0, -OLD.price, 0); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM evdra_add_month_cost(NEW.vehicle_id, NEW.start_date, 0, 0, 0, NEW.price, 0); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_rollup_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM evdra_add_month_cost(OLD.vehicle_id, OLD.date, 0, 0, 0, 0, -OLD.price); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM evdra_add_month_cost(NEW.vehicle_id, NEW.date, 0, 0, 0, 0, NEW.price); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER fuel_entries_rollup AFTER INSERT OR DELETE OR UPDATE OF vehicle_id, date, liters, fuel_price ON fuel_entries
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_fuel();
--> statement-breakpoint
CREATE TRIGGER expenses_rollup AFTER INSERT OR DELETE OR UPDATE OF vehicle_id, date, amount ON expenses
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_expense();
--> statement-breakpoint
CREATE TRIGGER insurances_rollup AFTER INSERT OR DELETE OR UPDATE OF vehicle_id, start_date, price ON insurances
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_insurance();
--> statement-breakpoint
CREATE TRIGGER revisions_rollup AFTER INSERT OR DELETE OR UPDATE OF vehicle_id, date, price ON revisions
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_revision();
--> statement-breakpoint
-- Records that existed before this migration.
INSERT INTO vehicle_month_costs (vehicle_id, month, liters, fuel, expenses, insurance, revisions)
SELECT vehicle_id, m, sum(l), sum(f), sum(e), sum(i), sum(r) FROM (
  SELECT vehicle_id, date_trunc('month', date)::date AS m, liters AS l, fuel_price AS f, 0 AS e, 0 AS i, 0 AS r FROM fuel_entries
  UNION ALL SELECT vehicle_id, date_trunc('month', date)::date, 0, 0, amount, 0, 0 FROM expenses
  UNION ALL SELECT vehicle_id, date_trunc('month', start_date)::date, 0, 0, 0, price, 0 FROM insurances
  UNION ALL SELECT vehicle_id, date_trunc('month', date)::date, 0, 0, 0, 0, price FROM revisions
) x GROUP BY vehicle_id, m;
