-- Comment texts' grams go straight into their index instead of through GIN's pending list (docs/decisions/0022).
-- Turned off first, so that nothing is appended to the list after it is emptied.
ALTER INDEX "comments_comment_content_grams_idx" SET (fastupdate = off);--> statement-breakpoint
SELECT gin_clean_pending_list('comments_comment_content_grams_idx'::regclass);
