CREATE TABLE "book_unlocks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"book_id" varchar(24) NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "points_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"delta" integer NOT NULL,
	"reason" text NOT NULL,
	"ref_id" varchar(24) DEFAULT '' NOT NULL,
	"balance" integer NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_sessions" (
	"id" varchar(32) PRIMARY KEY NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"password_checked_at" bigint,
	"ip" text DEFAULT '' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "book_unlocks" ADD CONSTRAINT "book_unlocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_unlocks" ADD CONSTRAINT "book_unlocks_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_ledger" ADD CONSTRAINT "points_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sessions" ADD CONSTRAINT "user_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "book_unlocks_user_book_key" ON "book_unlocks" USING btree ("user_id","book_id");--> statement-breakpoint
CREATE INDEX "book_unlocks_book_id_idx" ON "book_unlocks" USING btree ("book_id");--> statement-breakpoint
CREATE INDEX "points_ledger_user_at_idx" ON "points_ledger" USING btree ("user_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "rate_events_key_at_idx" ON "rate_events" USING btree ("key","at");--> statement-breakpoint
CREATE INDEX "user_sessions_user_id_idx" ON "user_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_sessions_expires_at_idx" ON "user_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "users_points_rank_idx" ON "users" USING btree ("points" DESC NULLS LAST,"register_date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "users"."enabled";