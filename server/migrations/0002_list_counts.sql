CREATE TABLE "list_counts" (
	"list" text NOT NULL,
	"flag" boolean DEFAULT false NOT NULL,
	"kind" smallint DEFAULT 0 NOT NULL,
	"type_id" varchar(24) DEFAULT '' NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "list_counts_list_flag_kind_type_id_pk" PRIMARY KEY("list","flag","kind","type_id")
);
--> statement-breakpoint
-- One function for every list: the trigger's arguments name the list and the columns (or '-')
-- that fill flag, kind and type_id. Each write statement adds up its rows per key from the
-- transition tables and upserts the differences, keys in a fixed order so that two writers
-- never wait on each other's counter rows in opposite orders.
CREATE FUNCTION "list_counts_track"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  keys text := format('%s, %s, %s',
    CASE WHEN TG_ARGV[1] = '-' THEN 'false' ELSE quote_ident(TG_ARGV[1]) END,
    CASE WHEN TG_ARGV[2] = '-' THEN '0::smallint' ELSE quote_ident(TG_ARGV[2]) END,
    CASE WHEN TG_ARGV[3] = '-' THEN '''''' ELSE quote_ident(TG_ARGV[3]) END);
  changes text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM list_counts WHERE list = TG_ARGV[0];
    RETURN NULL;
  END IF;
  changes := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %s, 1 FROM new_rows', keys)
    WHEN 'DELETE' THEN format('SELECT %s, -1 FROM old_rows', keys)
    ELSE format('SELECT %s, 1 FROM new_rows UNION ALL SELECT %s, -1 FROM old_rows', keys, keys)
  END;
  EXECUTE format(
    'INSERT INTO list_counts AS c (list, flag, kind, type_id, n)
     SELECT %L, flag, kind, type_id, sum(d) FROM (%s) AS t(flag, kind, type_id, d)
     GROUP BY flag, kind, type_id HAVING sum(d) <> 0 ORDER BY flag, kind, type_id
     ON CONFLICT (list, flag, kind, type_id) DO UPDATE SET n = c.n + excluded.n',
    TG_ARGV[0], changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_count_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('users', 'enabled', '-', '-');--> statement-breakpoint
CREATE TRIGGER "users_count_update" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('users', 'enabled', '-', '-');--> statement-breakpoint
CREATE TRIGGER "users_count_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('users', 'enabled', '-', '-');--> statement-breakpoint
CREATE TRIGGER "users_count_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('users');--> statement-breakpoint
CREATE TRIGGER "issues_count_insert" AFTER INSERT ON "issues" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('issues', 'issue_status', '-', 'type_id');--> statement-breakpoint
CREATE TRIGGER "issues_count_update" AFTER UPDATE ON "issues" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('issues', 'issue_status', '-', 'type_id');--> statement-breakpoint
CREATE TRIGGER "issues_count_delete" AFTER DELETE ON "issues" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('issues', 'issue_status', '-', 'type_id');--> statement-breakpoint
CREATE TRIGGER "issues_count_truncate" AFTER TRUNCATE ON "issues" FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('issues');--> statement-breakpoint
CREATE TRIGGER "comments_count_insert" AFTER INSERT ON "comments" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('comments', '-', 'comment_type', 'type_id');--> statement-breakpoint
CREATE TRIGGER "comments_count_update" AFTER UPDATE ON "comments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('comments', '-', 'comment_type', 'type_id');--> statement-breakpoint
CREATE TRIGGER "comments_count_delete" AFTER DELETE ON "comments" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('comments', '-', 'comment_type', 'type_id');--> statement-breakpoint
CREATE TRIGGER "comments_count_truncate" AFTER TRUNCATE ON "comments" FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('comments');--> statement-breakpoint
CREATE TRIGGER "books_count_insert" AFTER INSERT ON "books" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('books', '-', '-', 'type_id');--> statement-breakpoint
CREATE TRIGGER "books_count_update" AFTER UPDATE ON "books" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('books', '-', '-', 'type_id');--> statement-breakpoint
CREATE TRIGGER "books_count_delete" AFTER DELETE ON "books" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('books', '-', '-', 'type_id');--> statement-breakpoint
CREATE TRIGGER "books_count_truncate" AFTER TRUNCATE ON "books" FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('books');--> statement-breakpoint
CREATE TRIGGER "interviews_count_insert" AFTER INSERT ON "interviews" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('interviews', '-', '-', 'type_id');--> statement-breakpoint
CREATE TRIGGER "interviews_count_update" AFTER UPDATE ON "interviews" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('interviews', '-', '-', 'type_id');--> statement-breakpoint
CREATE TRIGGER "interviews_count_delete" AFTER DELETE ON "interviews" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('interviews', '-', '-', 'type_id');--> statement-breakpoint
CREATE TRIGGER "interviews_count_truncate" AFTER TRUNCATE ON "interviews" FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track('interviews');--> statement-breakpoint
-- The rows already there. Taken under a share lock, so no write slips in between the count and
-- the triggers (the migration runs in one transaction).
LOCK TABLE "users", "issues", "comments", "books", "interviews" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "list_counts" ("list", "flag", "n") SELECT 'users', "enabled", count(*) FROM "users" GROUP BY "enabled";--> statement-breakpoint
INSERT INTO "list_counts" ("list", "flag", "type_id", "n") SELECT 'issues', "issue_status", "type_id", count(*) FROM "issues" GROUP BY "issue_status", "type_id";--> statement-breakpoint
INSERT INTO "list_counts" ("list", "kind", "type_id", "n") SELECT 'comments', "comment_type", "type_id", count(*) FROM "comments" GROUP BY "comment_type", "type_id";--> statement-breakpoint
INSERT INTO "list_counts" ("list", "type_id", "n") SELECT 'books', "type_id", count(*) FROM "books" GROUP BY "type_id";--> statement-breakpoint
INSERT INTO "list_counts" ("list", "type_id", "n") SELECT 'interviews', "type_id", count(*) FROM "interviews" GROUP BY "type_id";
