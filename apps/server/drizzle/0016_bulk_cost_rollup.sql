-- The monthly cost rollup (0004) learns bulk inserts: an INSERT statement adds its rows to
-- vehicle_month_costs in one grouped upsert (a statement trigger with a transition table) instead of
-- one upsert per row, so an import of 20,000 records costs one statement per chunk, not 20,000.
-- Updates and deletes keep their row triggers. The sums are the same either way.
CREATE OR REPLACE FUNCTION evdra_rollup_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'fuel_entries' THEN
    INSERT INTO vehicle_month_costs AS c (vehicle_id, month, liters, fuel, expenses, insurance, revisions)
    SELECT vehicle_id, date_trunc('month', date)::date, sum(liters), sum(fuel_price), 0, 0, 0
      FROM new_rows GROUP BY 1, 2
    ON CONFLICT (vehicle_id, month) DO UPDATE SET liters = c.liters + excluded.liters, fuel = c.fuel + excluded.fuel;
  ELSIF TG_TABLE_NAME = 'expenses' THEN
    INSERT INTO vehicle_month_costs AS c (vehicle_id, month, liters, fuel, expenses, insurance, revisions)
    SELECT vehicle_id, date_trunc('month', date)::date, 0, 0, sum(amount), 0, 0
      FROM new_rows GROUP BY 1, 2
    ON CONFLICT (vehicle_id, month) DO UPDATE SET expenses = c.expenses + excluded.expenses;
  ELSIF TG_TABLE_NAME = 'insurances' THEN
    INSERT INTO vehicle_month_costs AS c (vehicle_id, month, liters, fuel, expenses, insurance, revisions)
    SELECT vehicle_id, date_trunc('month', start_date)::date, 0, 0, 0, sum(price), 0
      FROM new_rows GROUP BY 1, 2
    ON CONFLICT (vehicle_id, month) DO UPDATE SET insurance = c.insurance + excluded.insurance;
  ELSIF TG_TABLE_NAME = 'revisions' THEN
    INSERT INTO vehicle_month_costs AS c (vehicle_id, month, liters, fuel, expenses, insurance, revisions)
    SELECT vehicle_id, date_trunc('month', date)::date, 0, 0, 0, 0, sum(price)
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
CREATE TRIGGER fuel_entries_rollup AFTER DELETE OR UPDATE OF vehicle_id, date, liters, fuel_price ON fuel_entries
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_fuel();
--> statement-breakpoint
CREATE TRIGGER expenses_rollup AFTER DELETE OR UPDATE OF vehicle_id, date, amount ON expenses
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_expense();
--> statement-breakpoint
CREATE TRIGGER insurances_rollup AFTER DELETE OR UPDATE OF vehicle_id, start_date, price ON insurances
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_insurance();
--> statement-breakpoint
CREATE TRIGGER revisions_rollup AFTER DELETE OR UPDATE OF vehicle_id, date, price ON revisions
  FOR EACH ROW EXECUTE FUNCTION evdra_rollup_revision();
--> statement-breakpoint
CREATE TRIGGER fuel_entries_rollup_ins AFTER INSERT ON fuel_entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_rollup_inserted();
--> statement-breakpoint
CREATE TRIGGER expenses_rollup_ins AFTER INSERT ON expenses
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_rollup_inserted();
--> statement-breakpoint
CREATE TRIGGER insurances_rollup_ins AFTER INSERT ON insurances
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_rollup_inserted();
--> statement-breakpoint
CREATE TRIGGER revisions_rollup_ins AFTER INSERT ON revisions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evdra_rollup_inserted();
