CREATE TABLE "trash" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"entity" text NOT NULL,
	"entity_id" varchar(24) NOT NULL,
	"title" text NOT NULL,
	"cascaded" integer NOT NULL,
	"rows" jsonb NOT NULL,
	"deleted_by" varchar(24) NOT NULL,
	"deleted_by_login_id" text NOT NULL,
	"deleted_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "trash_deleted_at_idx" ON "trash" USING btree ("deleted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trash_entity_deleted_at_idx" ON "trash" USING btree ("entity","deleted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trash_expires_at_idx" ON "trash" USING btree ("expires_at");