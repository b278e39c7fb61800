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
-- The rows of `source` (a table, or a trigger's transition table) as changes (key, span, start,
-- sign) of list_buckets: each row counts once per key set (columns joined by ',', '' for none)
-- under its key ('column=value' pairs joined by '&', by column name, as keyOf in
-- server/src/db/list-counts.ts builds them), and once per span of hours (1, 24, 768) in the
-- bucket its date (epoch milliseconds) falls in. Shared by the trigger and the back-fill below.
CREATE FUNCTION "list_buckets_changes"(source text, sign integer, date_column text, key_sets text[]) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  keys text;
BEGIN
  SELECT string_agg(format('(%s)', coalesce(
           (SELECT string_agg(format('%L || r.%I::text', c || '=', c), ' || ''&'' || ' ORDER BY c COLLATE "C")
              FROM unnest(string_to_array(s, ',')) AS c),
           '''''')), ', ')
    INTO keys FROM unnest(key_sets) AS s;
  RETURN format(
    'SELECT k.key, s.span, s.start, %s FROM %I r
     CROSS JOIN LATERAL (VALUES %s) AS k(key)
     CROSS JOIN LATERAL (VALUES (1::smallint, floor(r.%4$I / 3600000.0)::int),
                                (24::smallint, (floor(r.%4$I / 3600000.0 / 24) * 24)::int),
                                (768::smallint, (floor(r.%4$I / 3600000.0 / 768) * 768)::int)) AS s(span, start)',
    sign, source, keys, date_column);
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
-- The trigger's arguments name the list, its date column, then its key sets. Statement-level
-- with transition tables, like list_counts_track (migration 0002): every write path (the API,
-- foreign-key cascades, a restore from the recycle bin, the import, the seed, a backup's restore)
-- is counted in its own transaction.
CREATE FUNCTION "list_buckets_track"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  key_sets text[];
  changes text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM list_buckets WHERE list = TG_ARGV[0];
    RETURN NULL;
  END IF;
  key_sets := TG_ARGV[2:];
  changes := CASE TG_OP
    WHEN 'INSERT' THEN list_buckets_changes('new_rows', 1, TG_ARGV[1], key_sets)
    WHEN 'DELETE' THEN list_buckets_changes('old_rows', -1, TG_ARGV[1], key_sets)
    ELSE list_buckets_changes('new_rows', 1, TG_ARGV[1], key_sets) || ' UNION ALL '
      || list_buckets_changes('old_rows', -1, TG_ARGV[1], key_sets)
  END;
  EXECUTE list_buckets_upsert(TG_ARGV[0], changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Named *_paging_* so that on each table they fire after the *_count_* triggers of list_counts:
-- every writer takes the counter rows of both tables in the same order.
CREATE TRIGGER "users_paging_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('users', 'register_date', '', 'enabled');--> statement-breakpoint
CREATE TRIGGER "users_paging_update" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('users', 'register_date', '', 'enabled');--> statement-breakpoint
CREATE TRIGGER "users_paging_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('users', 'register_date', '', 'enabled');--> statement-breakpoint
CREATE TRIGGER "users_paging_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('users');--> statement-breakpoint
CREATE TRIGGER "books_paging_insert" AFTER INSERT ON "books" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('books', 'on_shelf_date', '', 'type_id');--> statement-breakpoint
CREATE TRIGGER "books_paging_update" AFTER UPDATE ON "books" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('books', 'on_shelf_date', '', 'type_id');--> statement-breakpoint
CREATE TRIGGER "books_paging_delete" AFTER DELETE ON "books" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('books', 'on_shelf_date', '', 'type_id');--> statement-breakpoint
CREATE TRIGGER "books_paging_truncate" AFTER TRUNCATE ON "books" FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('books');--> statement-breakpoint
CREATE TRIGGER "interviews_paging_insert" AFTER INSERT ON "interviews" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('interviews', 'on_shelf_date', '', 'type_id');--> statement-breakpoint
CREATE TRIGGER "interviews_paging_update" AFTER UPDATE ON "interviews" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('interviews', 'on_shelf_date', '', 'type_id');--> statement-breakpoint
CREATE TRIGGER "interviews_paging_delete" AFTER DELETE ON "interviews" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('interviews', 'on_shelf_date', '', 'type_id');--> statement-breakpoint
CREATE TRIGGER "interviews_paging_truncate" AFTER TRUNCATE ON "interviews" FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('interviews');--> statement-breakpoint
CREATE TRIGGER "issues_paging_insert" AFTER INSERT ON "issues" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('issues', 'issue_date', '', 'issue_status', 'type_id', 'issue_status,type_id');--> statement-breakpoint
CREATE TRIGGER "issues_paging_update" AFTER UPDATE ON "issues" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('issues', 'issue_date', '', 'issue_status', 'type_id', 'issue_status,type_id');--> statement-breakpoint
CREATE TRIGGER "issues_paging_delete" AFTER DELETE ON "issues" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('issues', 'issue_date', '', 'issue_status', 'type_id', 'issue_status,type_id');--> statement-breakpoint
CREATE TRIGGER "issues_paging_truncate" AFTER TRUNCATE ON "issues" FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('issues');--> statement-breakpoint
CREATE TRIGGER "comments_paging_insert" AFTER INSERT ON "comments" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('comments', 'comment_date', 'comment_type', 'comment_type,type_id');--> statement-breakpoint
CREATE TRIGGER "comments_paging_update" AFTER UPDATE ON "comments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('comments', 'comment_date', 'comment_type', 'comment_type,type_id');--> statement-breakpoint
CREATE TRIGGER "comments_paging_delete" AFTER DELETE ON "comments" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('comments', 'comment_date', 'comment_type', 'comment_type,type_id');--> statement-breakpoint
CREATE TRIGGER "comments_paging_truncate" AFTER TRUNCATE ON "comments" FOR EACH STATEMENT EXECUTE FUNCTION list_buckets_track('comments');--> statement-breakpoint
-- The rows already there, under a share lock so that no write slips in between the count and the
-- triggers (the migration runs in one transaction).
LOCK TABLE "users", "books", "interviews", "issues", "comments" IN SHARE MODE;--> statement-breakpoint
DO $$
BEGIN
  EXECUTE list_buckets_upsert('users', list_buckets_changes('users', 1, 'register_date', ARRAY['', 'enabled']));
  EXECUTE list_buckets_upsert('books', list_buckets_changes('books', 1, 'on_shelf_date', ARRAY['', 'type_id']));
  EXECUTE list_buckets_upsert('interviews', list_buckets_changes('interviews', 1, 'on_shelf_date', ARRAY['', 'type_id']));
  EXECUTE list_buckets_upsert('issues', list_buckets_changes('issues', 1, 'issue_date', ARRAY['', 'issue_status', 'type_id', 'issue_status,type_id']));
  EXECUTE list_buckets_upsert('comments', list_buckets_changes('comments', 1, 'comment_date', ARRAY['comment_type', 'comment_type,type_id']));
END $$;
