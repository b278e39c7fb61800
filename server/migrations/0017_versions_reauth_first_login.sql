ALTER TABLE "admin_sessions" ADD COLUMN "reauth_at" bigint;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "must_change_password" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "interviews" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "issues" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "types" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "must_change_password" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Hand-written (README.md): every update of a versioned record that changes it bumps its version,
-- whatever path writes it; the trigger's arguments name the columns that are bookkeeping rather
-- than the record (counters, last sign-in, the TOTP replay step, the canonical name).
CREATE FUNCTION bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ignored text[] := coalesce(TG_ARGV::text[], '{}'::text[]) || '{version}'::text[];
BEGIN
  IF (to_jsonb(NEW) - ignored) IS DISTINCT FROM (to_jsonb(OLD) - ignored) THEN
    NEW.version := OLD.version + 1;
  ELSE
    NEW.version := OLD.version;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER admins_version BEFORE UPDATE ON admins FOR EACH ROW EXECUTE FUNCTION bump_version('totp_last_step', 'totp_pending_secret', 'login_key');
--> statement-breakpoint
CREATE TRIGGER types_version BEFORE UPDATE ON types FOR EACH ROW EXECUTE FUNCTION bump_version();
--> statement-breakpoint
CREATE TRIGGER users_version BEFORE UPDATE ON users FOR EACH ROW EXECUTE FUNCTION bump_version('last_login_date', 'login_key');
--> statement-breakpoint
CREATE TRIGGER books_version BEFORE UPDATE ON books FOR EACH ROW EXECUTE FUNCTION bump_version('scan_number', 'comment_number');
--> statement-breakpoint
CREATE TRIGGER interviews_version BEFORE UPDATE ON interviews FOR EACH ROW EXECUTE FUNCTION bump_version();
--> statement-breakpoint
CREATE TRIGGER issues_version BEFORE UPDATE ON issues FOR EACH ROW EXECUTE FUNCTION bump_version('scan_number', 'comment_number');
