CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "books_book_title_trgm_idx" ON "books" USING gin ("book_title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "comments_comment_content_trgm_idx" ON "comments" USING gin ("comment_content" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "interviews_interview_title_trgm_idx" ON "interviews" USING gin ("interview_title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "issues_issue_title_trgm_idx" ON "issues" USING gin ("issue_title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_login_id_trgm_idx" ON "users" USING gin ("login_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_nickname_trgm_idx" ON "users" USING gin ("nickname" gin_trgm_ops);