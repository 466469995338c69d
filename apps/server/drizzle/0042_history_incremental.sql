-- Issue 54: a record's insert refreshed its car's record summary (vehicle_history, the marketplace
-- card's history) from every record of the car: a fill-up into a 5,000-fill car counted and averaged
-- its 5,000 fills (2-5 ms of each write at SCALE=1), and an expense did the same. An insert now adds
-- to the summary what it brings: the summary keeps the sum and the count of its fills' consumption
-- figures, so their average follows without reading the others. An update or a delete, which may
-- take away the earliest record or the last service, still refreshes the car from its records.
ALTER TABLE "vehicle_history" ADD COLUMN "consumption_sum" numeric NOT NULL DEFAULT 0;--> statement-breakpoint
ALTER TABLE "vehicle_history" ADD COLUMN "consumption_fills" integer NOT NULL DEFAULT 0;--> statement-breakpoint
UPDATE vehicle_history h SET consumption_sum = f.s, consumption_fills = f.n
  FROM (SELECT vehicle_id, coalesce(sum(consumption_per_100km), 0) AS s, count(consumption_per_100km)::int AS n
          FROM fuel_entries GROUP BY 1) f
 WHERE f.vehicle_id = h.vehicle_id;--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_refresh_history(vid integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO vehicle_history AS h
    (vehicle_id, services, last_service_date, last_service_km, records_since, fuel_entries, consumption,
     consumption_sum, consumption_fills)
  SELECT vid,
         (SELECT count(*) FROM revisions WHERE vehicle_id = vid),
         ls.date, ls.km,
         least((SELECT min(date) FROM revisions WHERE vehicle_id = vid),
               (SELECT min(date) FROM fuel_entries WHERE vehicle_id = vid),
               (SELECT min(date) FROM expenses WHERE vehicle_id = vid),
               (SELECT min(start_date) FROM insurances WHERE vehicle_id = vid)),
         f.n, round(f.s / nullif(f.c, 0), 2), f.s, f.c
    FROM (SELECT count(*) AS n, coalesce(sum(consumption_per_100km), 0) AS s, count(consumption_per_100km)::int AS c
            FROM fuel_entries WHERE vehicle_id = vid) f
    LEFT JOIN LATERAL (
      SELECT date, km FROM revisions WHERE vehicle_id = vid ORDER BY date DESC, id DESC LIMIT 1
    ) ls ON true
  ON CONFLICT (vehicle_id) DO UPDATE SET
    services = excluded.services,
    last_service_date = excluded.last_service_date,
    last_service_km = excluded.last_service_km,
    records_since = excluded.records_since,
    fuel_entries = excluded.fuel_entries,
    consumption = excluded.consumption,
    consumption_sum = excluded.consumption_sum,
    consumption_fills = excluded.consumption_fills;
$$;
--> statement-breakpoint
-- Inserted records, by car: what they add to each summary. A car without a summary yet (a restore
-- fills them as its tables come in) is refreshed whole.
CREATE OR REPLACE FUNCTION evdra_history_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'fuel_entries' THEN
    UPDATE vehicle_history h SET
      records_since = least(h.records_since, n.since),
      fuel_entries = h.fuel_entries + n.fills,
      consumption_sum = h.consumption_sum + n.s,
      consumption_fills = h.consumption_fills + n.c,
      consumption = round((h.consumption_sum + n.s) / nullif(h.consumption_fills + n.c, 0), 2)
      FROM (SELECT vehicle_id, min(date) AS since, count(*)::int AS fills,
                   coalesce(sum(consumption_per_100km), 0) AS s, count(consumption_per_100km)::int AS c
              FROM new_rows GROUP BY 1) n
     WHERE h.vehicle_id = n.vehicle_id;
  ELSIF TG_TABLE_NAME = 'revisions' THEN
    UPDATE vehicle_history h SET
      records_since = least(h.records_since, n.since),
      services = h.services + n.services,
      (last_service_date, last_service_km) = (SELECT r.date, r.km FROM revisions r WHERE r.vehicle_id = h.vehicle_id
                                               ORDER BY r.date DESC, r.id DESC LIMIT 1)
      FROM (SELECT vehicle_id, min(date) AS since, count(*)::int AS services FROM new_rows GROUP BY 1) n
     WHERE h.vehicle_id = n.vehicle_id;
  ELSIF TG_TABLE_NAME = 'expenses' THEN
    UPDATE vehicle_history h SET records_since = least(h.records_since, n.since)
      FROM (SELECT vehicle_id, min(date) AS since FROM new_rows GROUP BY 1) n
     WHERE h.vehicle_id = n.vehicle_id;
  ELSIF TG_TABLE_NAME = 'insurances' THEN
    UPDATE vehicle_history h SET records_since = least(h.records_since, n.since)
      FROM (SELECT vehicle_id, min(start_date) AS since FROM new_rows GROUP BY 1) n
     WHERE h.vehicle_id = n.vehicle_id;
  END IF;
  PERFORM evdra_refresh_history(vehicle_id)
     FROM (SELECT DISTINCT vehicle_id FROM new_rows) s
    WHERE NOT EXISTS (SELECT 1 FROM vehicle_history h WHERE h.vehicle_id = s.vehicle_id);
  RETURN NULL;
END $$;
