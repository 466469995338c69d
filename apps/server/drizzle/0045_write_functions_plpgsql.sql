-- Issue 54: three functions every record write runs from its triggers were LANGUAGE sql, which
-- PostgreSQL plans again at each call (a function of more than one statement, or of an INSERT, is
-- never inlined). In plpgsql their plans are kept for the connection's life. The same statements:
-- evdra_bump_record_versions with evdra_bump_analytics took 0.53–0.77 ms a call, now 0.36–0.40
-- (pgbench, a transaction of the call alone, on the SCALE=1 set).
CREATE OR REPLACE FUNCTION evdra_bump_analytics(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_generation AS g (bucket, gen)
  SELECT b.bucket, nextval('analytics_generation_seq')
    FROM (SELECT DISTINCT (id % 16)::smallint AS bucket FROM unnest(ids) AS id WHERE id IS NOT NULL) b
   ORDER BY b.bucket
  ON CONFLICT (bucket) DO UPDATE SET gen = excluded.gen;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_bump_record_versions(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO vehicle_record_versions AS rv (vehicle_id, owner_id, version)
  SELECT v.id, v.owner_id, nextval('record_version_seq') FROM vehicles v
   WHERE v.id IN (SELECT DISTINCT unnest(ids)) ORDER BY v.id
  ON CONFLICT (vehicle_id) DO UPDATE SET version = excluded.version, owner_id = excluded.owner_id;
  PERFORM evdra_bump_analytics(ids);
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_add_month_cost(v integer, m date, cur text, l numeric, f numeric, e numeric, i numeric, r numeric)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO vehicle_month_costs AS c (vehicle_id, month, currency, liters, fuel, expenses, insurance, revisions)
  VALUES (v, date_trunc('month', m)::date, cur, l, f, e, i, r)
  ON CONFLICT (vehicle_id, month, currency) DO UPDATE SET
    liters = c.liters + excluded.liters,
    fuel = c.fuel + excluded.fuel,
    expenses = c.expenses + excluded.expenses,
    insurance = c.insurance + excluded.insurance,
    revisions = c.revisions + excluded.revisions;
END $$;
