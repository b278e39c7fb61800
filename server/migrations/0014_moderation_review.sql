CREATE TABLE "moderation_flags" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" varchar(8) NOT NULL,
	"item_id" varchar(24) NOT NULL,
	"reasons" jsonb NOT NULL,
	"state" varchar(8) DEFAULT 'open' NOT NULL,
	"decided_by" varchar(24),
	"decided_at" bigint,
	"reason" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_settings" (
	"id" smallint PRIMARY KEY NOT NULL,
	"hold_first_posts" integer DEFAULT 0 NOT NULL,
	"hold_links_days" integer DEFAULT 0 NOT NULL,
	"words_version" integer DEFAULT 0 NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_words" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"word" text NOT NULL,
	"folded" text NOT NULL,
	"action" varchar(8) NOT NULL,
	"created_by" varchar(24) NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"webhook_id" varchar(24) NOT NULL,
	"event" varchar(16) NOT NULL,
	"payload" jsonb NOT NULL,
	"state" varchar(10) DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"last_status" integer,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"delivered_at" bigint
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" varchar(10) NOT NULL,
	"url" text NOT NULL,
	"secret" text,
	"events" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "review_first" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_flags_state_created_at_idx" ON "moderation_flags" USING btree ("state","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_flags_open_item_key" ON "moderation_flags" USING btree ("kind","item_id") WHERE "moderation_flags"."state" = 'open';--> statement-breakpoint
CREATE INDEX "moderation_flags_item_idx" ON "moderation_flags" USING btree ("kind","item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_words_folded_key" ON "moderation_words" USING btree ("folded");--> statement-breakpoint
CREATE INDEX "moderation_words_created_at_idx" ON "moderation_words" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries" USING btree ("created_at");--> statement-breakpoint
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
