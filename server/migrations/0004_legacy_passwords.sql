ALTER TABLE "admins" ADD COLUMN "password_legacy" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_legacy" boolean DEFAULT false NOT NULL;