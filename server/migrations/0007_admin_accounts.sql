CREATE TABLE "admin_logins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"admin_id" varchar(24) NOT NULL,
	"at" bigint NOT NULL,
	"ip" text NOT NULL,
	"user_agent" text NOT NULL,
	"succeeded" boolean NOT NULL,
	"result" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_recovery_codes" (
	"admin_id" varchar(24) NOT NULL,
	"code_hash" varchar(64) PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_challenges" (
	"id_hash" varchar(64) PRIMARY KEY NOT NULL,
	"admin_id" varchar(24) NOT NULL,
	"remember" boolean NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_sessions" ADD COLUMN "last_seen_at" bigint;--> statement-breakpoint
ALTER TABLE "admin_sessions" ADD COLUMN "ip" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_sessions" ADD COLUMN "user_agent" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "login_key" text;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "totp_secret" text;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "totp_pending_secret" text;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "totp_last_step" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "login_key" text;--> statement-breakpoint
ALTER TABLE "admin_logins" ADD CONSTRAINT "admin_logins_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_recovery_codes" ADD CONSTRAINT "admin_recovery_codes_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_challenges" ADD CONSTRAINT "login_challenges_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_logins_admin_id_at_idx" ON "admin_logins" USING btree ("admin_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "admin_logins_at_idx" ON "admin_logins" USING btree ("at");--> statement-breakpoint
CREATE INDEX "admin_recovery_codes_admin_id_idx" ON "admin_recovery_codes" USING btree ("admin_id");--> statement-breakpoint
CREATE INDEX "login_challenges_expires_at_idx" ON "login_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "admins_login_key_key" ON "admins" USING btree ("login_key");--> statement-breakpoint
CREATE UNIQUE INDEX "users_login_key_key" ON "users" USING btree ("login_key");--> statement-breakpoint
CREATE INDEX "users_login_key_collision_idx" ON "users" USING btree ("id") WHERE "users"."login_key" like '% #%';--> statement-breakpoint
-- Hand-written: sessions that exist already were last seen, as far as anyone knows, when made.
-- login_key is not computed here: SQL has no Unicode skeleton; the migration runner fills it
-- right after this migration (server/src/db/login-keys.ts).
UPDATE "admin_sessions" SET "last_seen_at" = "created_at" WHERE "last_seen_at" IS NULL;
