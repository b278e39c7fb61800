CREATE TABLE "list_buckets" (
	"list" text NOT NULL,
	"key" text NOT NULL,
	"span" smallint NOT NULL,
	"start" integer NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "list_buckets_list_key_span_start_pk" PRIMARY KEY("list","key","span","start")
);
--> statement-breakpoint
ALTER TABLE "list_days" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "list_days" CASCADE;--> statement-breakpoint
CREATE INDEX "issues_status_date_idx" ON "issues" USING btree ("issue_status","issue_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "users_enabled_register_date_idx" ON "users" USING btree ("enabled","register_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- list_days (migration 0003) counted the user list by day only; list_buckets counts every list
-- by hour, day and 32 days, per combination of its counted filters. Its triggers go first.
DROP TRIGGER "users_days_insert" ON "users";--> statement-breakpoint
DROP TRIGGER "users_days_update" ON "users";--> statement-breakpoint
DROP TRIGGER "users_days_delete" ON "users";--> statement-breakpoint
DROP TRIGGER "users_days_truncate" ON "users";--> statement-breakpoint
DROP FUNCTION "list_days_track"();--> statement-breakpoint
-- The rows of `source` (a FROM item: a table, a trigger's transition table or a subquery, as
-- `r`) as changes (key, span, start, weight) of list_buckets: each row counts `weight` once per
-- key set (columns joined by ',', '' for none) under its key ('column=value' pairs joined by '&',
-- by column name, as bucketKey in server/src/db/list-counts.ts builds them), and once per span of
-- hours (1, 24, 768) in the bucket its date (epoch milliseconds) falls in. Used to write the
-- triggers and the back-fill below.
CREATE FUNCTION "list_buckets_changes"(source text, weight text, date_column text, key_sets text[]) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  keys text;
BEGIN
  SELECT string_agg(format('(%s)', coalesce(
           (SELECT string_agg(format('%L || r.%I::text', c || '=', c), ' || ''&'' || ' ORDER BY c COLLATE "C")
              FROM unnest(string_to_array(s, ',')) AS c),
           '''''')), ', ')
    INTO keys FROM unnest(key_sets) AS s;
  RETURN format(
    'SELECT k.key, s.span, s.start, %s FROM %s AS r
     CROSS JOIN LATERAL (VALUES %s) AS k(key)
     CROSS JOIN LATERAL (VALUES (1::smallint, floor(r.%4$I / 3600000.0)::int),
                                (24::smallint, (floor(r.%4$I / 3600000.0 / 24) * 24)::int),
                                (768::smallint, (floor(r.%4$I / 3600000.0 / 768) * 768)::int)) AS s(span, start)',
    weight, source, keys, date_column);
END $$;
--> statement-breakpoint
-- The statement that adds `changes` to the buckets of `list`: summed per bucket, upserted in key
-- order, so that two writers never wait on each other's bucket rows in opposite orders.
CREATE FUNCTION "list_buckets_upsert"(list text, changes text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT format(
    'INSERT INTO list_buckets AS b (list, key, span, start, n)
     SELECT %L, key, span, start, sum(d) FROM (%s) AS t(key, span, start, d)
     GROUP BY key, span, start HAVING sum(d) <> 0 ORDER BY key, span, start
     ON CONFLICT (list, key, span, start) DO UPDATE SET n = b.n + excluded.n',
    list, changes)
$$;
--> statement-breakpoint
-- Makes the trigger function `<table>_paging` and its triggers on insert, update, delete and
-- truncate of `tbl`: statement-level with transition tables, like list_counts_track (migration
-- 0002), so that every write path (the API, foreign-key cascades, a restore from the recycle bin,
-- the import, the seed, a backup's restore) is counted in its own transaction. The function's
-- statements are written out here, once, rather than built on every write: PL/pgSQL then plans
-- them once per connection (a single-row insert: about 0.1 ms of counting instead of 1.3 ms).
-- The triggers are named *_paging_* so that on each table they fire after the *_count_* ones of
-- list_counts: every writer takes the counter rows of both tables in the same order.
CREATE FUNCTION "list_buckets_install"(list text, tbl text, date_column text, key_sets text[]) RETURNS void
LANGUAGE plpgsql AS $install$
DECLARE
  fn text := tbl || '_paging';
  columns text;
  net text;
BEGIN
  -- An update counts only the rows whose date or keys it changed: old and new rows are first
  -- netted per (date, key columns), so that one touching other columns (a parent's
  -- commentNumber, a sign-in's last date) adds up a few rows and writes no bucket.
  SELECT string_agg(DISTINCT quote_ident(c), ', ') INTO columns
    FROM (SELECT date_column AS c UNION ALL SELECT unnest(string_to_array(s, ',')) FROM unnest(key_sets) AS s) AS k;
  net := format('(SELECT %1$s, sum(d) AS d FROM (SELECT %1$s, 1 AS d FROM new_rows UNION ALL SELECT %1$s, -1 FROM old_rows) AS u
                  GROUP BY %1$s HAVING sum(d) <> 0)', columns);
  EXECUTE format(
    $f$CREATE FUNCTION %I() RETURNS trigger LANGUAGE plpgsql AS $body$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        %s;
      ELSIF TG_OP = 'DELETE' THEN
        %s;
      ELSIF TG_OP = 'UPDATE' THEN
        %s;
      ELSE
        DELETE FROM list_buckets WHERE list = %L;
      END IF;
      RETURN NULL;
    END $body$ $f$,
    fn,
    list_buckets_upsert(list, list_buckets_changes('new_rows', '1', date_column, key_sets)),
    list_buckets_upsert(list, list_buckets_changes('old_rows', '-1', date_column, key_sets)),
    list_buckets_upsert(list, list_buckets_changes(net, 'r.d', date_column, key_sets)),
    list);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()',
    tbl || '_paging_insert', tbl, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()',
    tbl || '_paging_update', tbl, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()',
    tbl || '_paging_delete', tbl, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION %I()',
    tbl || '_paging_truncate', tbl, fn);
END $install$;
--> statement-breakpoint
-- Each list's key sets: the combinations of filters whose pages defineList finds through the
-- buckets (`buckets` in the list's repository). The comment list always has its comment type.
SELECT list_buckets_install('users', 'users', 'register_date', ARRAY['', 'enabled']);--> statement-breakpoint
SELECT list_buckets_install('books', 'books', 'on_shelf_date', ARRAY['', 'type_id']);--> statement-breakpoint
SELECT list_buckets_install('interviews', 'interviews', 'on_shelf_date', ARRAY['', 'type_id']);--> statement-breakpoint
SELECT list_buckets_install('issues', 'issues', 'issue_date', ARRAY['', 'issue_status', 'type_id', 'issue_status,type_id']);--> statement-breakpoint
SELECT list_buckets_install('comments', 'comments', 'comment_date', ARRAY['comment_type', 'comment_type,type_id']);--> statement-breakpoint
-- The rows already there, under a share lock so that no write slips in between the count and the
-- triggers (the migration runs in one transaction).
LOCK TABLE "users", "books", "interviews", "issues", "comments" IN SHARE MODE;--> statement-breakpoint
DO $$
BEGIN
  EXECUTE list_buckets_upsert('users', list_buckets_changes('users', '1', 'register_date', ARRAY['', 'enabled']));
  EXECUTE list_buckets_upsert('books', list_buckets_changes('books', '1', 'on_shelf_date', ARRAY['', 'type_id']));
  EXECUTE list_buckets_upsert('interviews', list_buckets_changes('interviews', '1', 'on_shelf_date', ARRAY['', 'type_id']));
  EXECUTE list_buckets_upsert('issues', list_buckets_changes('issues', '1', 'issue_date', ARRAY['', 'issue_status', 'type_id', 'issue_status,type_id']));
  EXECUTE list_buckets_upsert('comments', list_buckets_changes('comments', '1', 'comment_date', ARRAY['comment_type', 'comment_type,type_id']));
END $$;
