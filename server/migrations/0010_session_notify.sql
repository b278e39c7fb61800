-- Hand-written (see README.md). A server process on PostgreSQL keeps what the session check read in
-- memory while it listens on the channel `session_changes` (server/src/db/change-feed.ts); these
-- triggers announce on that channel every committed change to what the check reads: a session
-- deleted or changed (its expiry), an admin changed or removed, a setting changed. Not the
-- once-a-minute "last seen" of a session, nor an admin's last accepted TOTP step or unconfirmed
-- secret, which the check does not read. pg_notify sends one notification per transaction for
-- identical payloads, so a statement touching many rows announces once.
CREATE FUNCTION session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER admin_sessions_changed AFTER UPDATE ON admin_sessions FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_seen_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_seen_at'))
  EXECUTE FUNCTION session_changed();
--> statement-breakpoint
CREATE TRIGGER admin_sessions_deleted AFTER DELETE ON admin_sessions FOR EACH ROW EXECUTE FUNCTION session_changed();
--> statement-breakpoint
CREATE TRIGGER admin_sessions_truncated AFTER TRUNCATE ON admin_sessions FOR EACH STATEMENT EXECUTE FUNCTION session_changed();
--> statement-breakpoint
CREATE TRIGGER admins_changed AFTER UPDATE ON admins FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'totp_last_step' - 'totp_pending_secret') IS DISTINCT FROM (to_jsonb(NEW) - 'totp_last_step' - 'totp_pending_secret'))
  EXECUTE FUNCTION session_changed();
--> statement-breakpoint
CREATE TRIGGER admins_deleted AFTER DELETE ON admins FOR EACH ROW EXECUTE FUNCTION session_changed();
--> statement-breakpoint
CREATE TRIGGER admins_truncated AFTER TRUNCATE ON admins FOR EACH STATEMENT EXECUTE FUNCTION session_changed();
--> statement-breakpoint
CREATE TRIGGER settings_changed AFTER INSERT OR UPDATE OR DELETE ON settings FOR EACH ROW EXECUTE FUNCTION session_changed();
--> statement-breakpoint
CREATE TRIGGER settings_truncated AFTER TRUNCATE ON settings FOR EACH STATEMENT EXECUTE FUNCTION session_changed();
