CREATE INDEX "audit_log_entity_id_at_idx" ON "audit_log" USING btree ("entity_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_title_grams_idx" ON "audit_log" USING gin (search_grams("title"));--> statement-breakpoint
-- Hand-written last: the planner's statistics of the new title index expression, so that a
-- 记录 search is planned on it from the first request (PGlite has no autovacuum).
ANALYZE "audit_log";
