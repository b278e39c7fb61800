CREATE TABLE "admin_sessions" (
	"id" varchar(32) PRIMARY KEY NOT NULL,
	"admin_id" varchar(24) NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admins" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"login_id" text NOT NULL,
	"password_hash" text NOT NULL,
	"nickname" text NOT NULL,
	"avatar" text NOT NULL,
	"permission" smallint NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "books" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"book_title" text NOT NULL,
	"book_pic" text NOT NULL,
	"download_link" text NOT NULL,
	"book_intro" text NOT NULL,
	"scan_number" integer DEFAULT 0 NOT NULL,
	"comment_number" integer DEFAULT 0 NOT NULL,
	"on_shelf_date" bigint NOT NULL,
	"require_points" integer NOT NULL,
	"type_id" varchar(24) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "captchas" (
	"id" varchar(32) PRIMARY KEY NOT NULL,
	"answer_hash" text NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"issue_id" varchar(24),
	"book_id" varchar(24),
	"type_id" varchar(24) NOT NULL,
	"comment_content" text NOT NULL,
	"comment_date" bigint NOT NULL,
	"comment_type" smallint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interviews" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"interview_title" text NOT NULL,
	"interview_content" text NOT NULL,
	"on_shelf_date" bigint NOT NULL,
	"type_id" varchar(24) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issues" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"issue_title" text NOT NULL,
	"issue_content" text NOT NULL,
	"scan_number" integer DEFAULT 0 NOT NULL,
	"comment_number" integer DEFAULT 0 NOT NULL,
	"issue_status" boolean DEFAULT false NOT NULL,
	"issue_date" bigint NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"type_id" varchar(24) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"failed_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "types" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"type_name" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"ext" varchar(8) NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"login_id" text NOT NULL,
	"password_hash" text NOT NULL,
	"nickname" text NOT NULL,
	"avatar" text NOT NULL,
	"mail" text DEFAULT '' NOT NULL,
	"qq" text DEFAULT '' NOT NULL,
	"wechat" text DEFAULT '' NOT NULL,
	"intro" text DEFAULT '' NOT NULL,
	"points" integer DEFAULT 100 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"register_date" bigint NOT NULL,
	"last_login_date" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_sessions" ADD CONSTRAINT "admin_sessions_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_type_id_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_issue_id_issues_id_fk" FOREIGN KEY ("issue_id") REFERENCES "public"."issues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_type_id_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_type_id_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_type_id_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_sessions_admin_id_idx" ON "admin_sessions" USING btree ("admin_id");--> statement-breakpoint
CREATE INDEX "admin_sessions_expires_at_idx" ON "admin_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "admins_login_id_key" ON "admins" USING btree ("login_id");--> statement-breakpoint
CREATE INDEX "books_on_shelf_date_idx" ON "books" USING btree ("on_shelf_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "books_type_id_on_shelf_date_idx" ON "books" USING btree ("type_id","on_shelf_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "captchas_expires_at_idx" ON "captchas" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "comments_type_date_idx" ON "comments" USING btree ("comment_type","comment_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "comments_type_type_id_date_idx" ON "comments" USING btree ("comment_type","type_id","comment_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "comments_issue_id_date_idx" ON "comments" USING btree ("issue_id","comment_date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "comments"."issue_id" is not null;--> statement-breakpoint
CREATE INDEX "comments_book_id_date_idx" ON "comments" USING btree ("book_id","comment_date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "comments"."book_id" is not null;--> statement-breakpoint
CREATE INDEX "comments_user_id_idx" ON "comments" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "comments_type_id_idx" ON "comments" USING btree ("type_id");--> statement-breakpoint
CREATE INDEX "interviews_on_shelf_date_idx" ON "interviews" USING btree ("on_shelf_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "interviews_type_id_on_shelf_date_idx" ON "interviews" USING btree ("type_id","on_shelf_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "issues_issue_date_idx" ON "issues" USING btree ("issue_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "issues_status_type_date_idx" ON "issues" USING btree ("issue_status","type_id","issue_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "issues_type_id_date_idx" ON "issues" USING btree ("type_id","issue_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "issues_user_id_idx" ON "issues" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "login_failures_key_failed_at_idx" ON "login_failures" USING btree ("key","failed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "types_type_name_key" ON "types" USING btree ("type_name");--> statement-breakpoint
CREATE UNIQUE INDEX "users_login_id_key" ON "users" USING btree ("login_id");--> statement-breakpoint
CREATE INDEX "users_register_date_idx" ON "users" USING btree ("register_date" DESC NULLS LAST,"id" DESC NULLS LAST);