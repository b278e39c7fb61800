CREATE TABLE "open_flag_counts" (
	"kind" varchar(8) PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
-- Each write statement on moderation_flags adds up, per kind, the open rows it added and took away
-- (from its transition tables) and upserts the differences, kinds in a fixed order so that two
-- writers never wait on each other's counter rows in opposite orders.
CREATE FUNCTION "open_flag_counts_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM open_flag_counts;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO open_flag_counts AS c (kind, n)
    SELECT kind, count(*) FROM new_rows WHERE state = 'open' GROUP BY kind ORDER BY kind
    ON CONFLICT (kind) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO open_flag_counts AS c (kind, n)
    SELECT kind, -count(*) FROM old_rows WHERE state = 'open' GROUP BY kind ORDER BY kind
    ON CONFLICT (kind) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO open_flag_counts AS c (kind, n)
    SELECT kind, sum(d) FROM (
      SELECT kind, 1 FROM new_rows WHERE state = 'open'
      UNION ALL SELECT kind, -1 FROM old_rows WHERE state = 'open'
    ) AS t(kind, d)
    GROUP BY kind HAVING sum(d) <> 0 ORDER BY kind
    ON CONFLICT (kind) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "moderation_flags_count_insert" AFTER INSERT ON "moderation_flags" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION open_flag_counts_track();--> statement-breakpoint
CREATE TRIGGER "moderation_flags_count_update" AFTER UPDATE ON "moderation_flags" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION open_flag_counts_track();--> statement-breakpoint
CREATE TRIGGER "moderation_flags_count_delete" AFTER DELETE ON "moderation_flags" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION open_flag_counts_track();--> statement-breakpoint
CREATE TRIGGER "moderation_flags_count_truncate" AFTER TRUNCATE ON "moderation_flags" FOR EACH STATEMENT EXECUTE FUNCTION open_flag_counts_track();--> statement-breakpoint
-- The flags already there, counted with no write slipping in between the count and the triggers.
LOCK TABLE "moderation_flags" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "open_flag_counts" ("kind", "n")
SELECT "kind", count(*) FROM "moderation_flags" WHERE "state" = 'open' GROUP BY "kind";
