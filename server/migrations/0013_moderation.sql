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
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries" USING btree ("created_at");