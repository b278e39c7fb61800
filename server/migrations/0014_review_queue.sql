CREATE TABLE "review_decisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"item_id" varchar(24) NOT NULL,
	"author_id" varchar(24) NOT NULL,
	"decision" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"decided_by" varchar(24) NOT NULL,
	"decided_by_login_id" text NOT NULL,
	"decided_at" bigint NOT NULL,
	"reverted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "review_reasons" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_notes" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"admin_id" varchar(24) NOT NULL,
	"admin_login_id" text NOT NULL,
	"body" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_sanctions" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"kind" text NOT NULL,
	"days" smallint,
	"reason" text NOT NULL,
	"by_admin_id" varchar(24) NOT NULL,
	"by_login_id" text NOT NULL,
	"starts_at" bigint NOT NULL,
	"ends_at" bigint,
	"lifted_by" varchar(24),
	"lifted_by_login_id" text,
	"lifted_at" bigint
);
--> statement-breakpoint
CREATE INDEX "review_decisions_item_idx" ON "review_decisions" USING btree ("kind","item_id","decided_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "review_decisions_author_idx" ON "review_decisions" USING btree ("author_id","kind","decision") WHERE "review_decisions"."reverted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "review_reasons_text_key" ON "review_reasons" USING btree ("text");--> statement-breakpoint
CREATE INDEX "user_notes_user_idx" ON "user_notes" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_sanctions_user_idx" ON "user_sanctions" USING btree ("user_id","starts_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_sanctions_open_end_idx" ON "user_sanctions" USING btree ("ends_at") WHERE "user_sanctions"."lifted_at" is null and "user_sanctions"."ends_at" is not null;--> statement-breakpoint
-- Hand-written: the review queue's live events (GET /api/review/events). Every change to what the
-- queue holds is announced on the channel `review_changes`; pg_notify folds equal payloads of one
-- transaction into one, so a batch costs one notification.
CREATE FUNCTION review_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('review_changes', TG_ARGV[0]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER issues_review_insert AFTER INSERT ON "issues" FOR EACH ROW WHEN (NEW.issue_status = false) EXECUTE FUNCTION review_changed('issue');--> statement-breakpoint
CREATE TRIGGER issues_review_update AFTER UPDATE OF issue_status ON "issues" FOR EACH ROW WHEN (OLD.issue_status IS DISTINCT FROM NEW.issue_status) EXECUTE FUNCTION review_changed('issue');--> statement-breakpoint
CREATE TRIGGER issues_review_delete AFTER DELETE ON "issues" FOR EACH ROW WHEN (OLD.issue_status = false) EXECUTE FUNCTION review_changed('issue');--> statement-breakpoint
CREATE TRIGGER review_decisions_notify AFTER INSERT OR UPDATE ON "review_decisions" FOR EACH ROW EXECUTE FUNCTION review_changed('decision');--> statement-breakpoint
CREATE TRIGGER user_sanctions_notify AFTER INSERT OR UPDATE ON "user_sanctions" FOR EACH ROW EXECUTE FUNCTION review_changed('sanction');
--> statement-breakpoint
CREATE TRIGGER moderation_flags_review AFTER INSERT OR UPDATE OF state OR DELETE ON "moderation_flags" FOR EACH ROW EXECUTE FUNCTION review_changed('flag');--> statement-breakpoint
CREATE TRIGGER comments_review_update AFTER UPDATE OF held ON "comments" FOR EACH ROW WHEN (OLD.held IS DISTINCT FROM NEW.held) EXECUTE FUNCTION review_changed('comment');
