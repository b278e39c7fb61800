-- Hand-written (see README.md). A server process keeps the public site's reads in memory (approved
-- questions, one question, comment pages: server/src/modules/site/site.service.ts) while it listens
-- on the channel `session_changes` (server/src/db/change-feed.ts, whose payload names the table);
-- these statement triggers announce there every committed write to what those reads answer: issues,
-- comments, books, and of users only what a comment shows of its author (nickname, avatar) or a
-- deletion. Not a sign-in's date nor points. A statement announces once whatever rows it touched,
-- and pg_notify sends one notification per transaction for identical payloads. The function is
-- migration 0010's session_changed: it notifies that channel with the table's name, all either needs.
CREATE TRIGGER issues_public_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON issues
  FOR EACH STATEMENT EXECUTE FUNCTION session_changed();
--> statement-breakpoint
CREATE TRIGGER comments_public_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON comments
  FOR EACH STATEMENT EXECUTE FUNCTION session_changed();
--> statement-breakpoint
CREATE TRIGGER books_public_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON books
  FOR EACH STATEMENT EXECUTE FUNCTION session_changed();
--> statement-breakpoint
CREATE TRIGGER users_public_changed AFTER UPDATE OF nickname, avatar OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION session_changed();
