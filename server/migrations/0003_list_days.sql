CREATE TABLE "list_days" (
	"list" text NOT NULL,
	"span" smallint NOT NULL,
	"day" integer NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "list_days_list_span_day_pk" PRIMARY KEY("list","span","day")
);
--> statement-breakpoint
-- The trigger's arguments name the list and its date column (epoch milliseconds). Each write
-- statement adds up its rows per day and per 32-day block from the transition tables and upserts
-- the differences, in a fixed order, so that two writers never wait on each other's rows in
-- opposite orders. On users these triggers sort after the users_count_* ones of list_counts, so
-- every writer takes the counter rows of both tables in the same order too.
CREATE FUNCTION "list_days_track"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  spans text;
  changes text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM list_days WHERE list = TG_ARGV[0];
    RETURN NULL;
  END IF;
  -- Each row counts on its day (span 1) and on its block of 32 days (span 32).
  spans := format(
    'CROSS JOIN LATERAL (VALUES (1::smallint, floor(r.%1$I / 86400000.0)::int),
                                (32::smallint, (floor(r.%1$I / 86400000.0 / 32) * 32)::int)) AS s(span, day)',
    TG_ARGV[1]);
  changes := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT s.span, s.day, 1 FROM new_rows r %s', spans)
    WHEN 'DELETE' THEN format('SELECT s.span, s.day, -1 FROM old_rows r %s', spans)
    ELSE format('SELECT s.span, s.day, 1 FROM new_rows r %s UNION ALL SELECT s.span, s.day, -1 FROM old_rows r %s', spans, spans)
  END;
  EXECUTE format(
    'INSERT INTO list_days AS d (list, span, day, n)
     SELECT %L, span, day, sum(c) FROM (%s) AS t(span, day, c)
     GROUP BY span, day HAVING sum(c) <> 0 ORDER BY span, day
     ON CONFLICT (list, span, day) DO UPDATE SET n = d.n + excluded.n',
    TG_ARGV[0], changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_days_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_days_track('users', 'register_date');--> statement-breakpoint
CREATE TRIGGER "users_days_update" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_days_track('users', 'register_date');--> statement-breakpoint
CREATE TRIGGER "users_days_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_days_track('users', 'register_date');--> statement-breakpoint
CREATE TRIGGER "users_days_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION list_days_track('users');--> statement-breakpoint
-- The rows already there, under a share lock so that no write slips in between the count and the
-- triggers (the migration runs in one transaction).
LOCK TABLE "users" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "list_days" ("list", "span", "day", "n")
SELECT 'users', s.span, s.day, count(*) FROM "users" r
CROSS JOIN LATERAL (VALUES (1::smallint, floor(r."register_date" / 86400000.0)::int),
                           (32::smallint, (floor(r."register_date" / 86400000.0 / 32) * 32)::int)) AS s(span, day)
GROUP BY 2, 3;
