-- Hand-written first (server/migrations/README.md): the functions the new indexes are built on.
-- search_grams: every 1-, 2- and 3-character piece of the lower-cased text, in the order they
-- occur (GIN drops the repeats itself). A substring of lower(text) of up to three characters is one
-- of its pieces, and every 3-character piece of a longer one is one of them too, so
-- `search_grams(col) @> search_term_grams(term)` lets through every row that `col ILIKE
-- '%term%'` matches (ILIKE lower-cases both sides with the same lower()). COST 100 (PL/pgSQL's
-- default, said here on purpose) makes the planner find rows through the index rather than
-- compute this for every row it reads; no higher, because it charges a bitmap scan's recheck of
-- this for every row too, and at 1000 it ANDed the 700,000 entries of comment type 1 into every
-- comment search to recheck fewer (53 ms of 100). PARALLEL RESTRICTED keeps a search's scans in
-- its own backend: they read a few thousand rows at most, less than starting parallel workers
-- costs on a busy machine (30-40 ms measured).
CREATE FUNCTION "search_grams"(t text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL RESTRICTED COST 100 AS $$
DECLARE
  l text := lower(t);
  n int := length(l);
  c text[] := string_to_array(l, NULL);
  r text[] := c;
BEGIN
  FOR i IN 1 .. n - 1 LOOP
    r[n + i] := c[i] || c[i + 1];
  END LOOP;
  FOR i IN 1 .. n - 2 LOOP
    r[2 * n - 1 + i] := c[i] || c[i + 1] || c[i + 2];
  END LOOP;
  RETURN r;
END $$;--> statement-breakpoint
-- What a search term asks of search_grams: the lower-cased term itself when it has up to three
-- characters (then containment is the match itself), else each of its 3-character pieces.
CREATE FUNCTION "search_term_grams"(t text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL RESTRICTED AS $$
DECLARE
  l text := lower(t);
  n int := length(l);
  c text[] := string_to_array(l, NULL);
  r text[] := '{}';
BEGIN
  IF n = 0 THEN
    RETURN r;
  END IF;
  IF n <= 3 THEN
    RETURN ARRAY[l];
  END IF;
  FOR i IN 1 .. n - 2 LOOP
    r[i] := c[i] || c[i + 1] || c[i + 2];
  END LOOP;
  RETURN r;
END $$;--> statement-breakpoint
DROP INDEX "books_book_title_trgm_idx";--> statement-breakpoint
DROP INDEX "comments_comment_content_trgm_idx";--> statement-breakpoint
DROP INDEX "interviews_interview_title_trgm_idx";--> statement-breakpoint
DROP INDEX "issues_issue_title_trgm_idx";--> statement-breakpoint
DROP INDEX "users_login_id_trgm_idx";--> statement-breakpoint
DROP INDEX "users_nickname_trgm_idx";--> statement-breakpoint
CREATE INDEX "books_book_title_grams_idx" ON "books" USING gin (search_grams("book_title"));--> statement-breakpoint
CREATE INDEX "comments_comment_content_grams_idx" ON "comments" USING gin (search_grams("comment_content"));--> statement-breakpoint
CREATE INDEX "interviews_interview_title_grams_idx" ON "interviews" USING gin (search_grams("interview_title"));--> statement-breakpoint
CREATE INDEX "issues_issue_title_grams_idx" ON "issues" USING gin (search_grams("issue_title"));--> statement-breakpoint
CREATE INDEX "users_login_id_grams_idx" ON "users" USING gin (search_grams("login_id"));--> statement-breakpoint
CREATE INDEX "users_nickname_grams_idx" ON "users" USING gin (search_grams("nickname"));--> statement-breakpoint
-- Hand-written last: the planner's statistics of the new index expressions, so that a search is
-- planned on them from the first request (PGlite has no autovacuum to gather them later).
ANALYZE "users", "books", "interviews", "issues", "comments";
