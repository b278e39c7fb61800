CREATE TABLE "audit_chain" (
	"id" smallint PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_chain_gaps" (
	"from_seq" bigint PRIMARY KEY NOT NULL,
	"to_seq" bigint NOT NULL,
	"last_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "security_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"window_start" bigint NOT NULL,
	"first_at" bigint NOT NULL,
	"last_at" bigint NOT NULL,
	"admin_id" text DEFAULT '' NOT NULL,
	"admin_login_id" text DEFAULT '' NOT NULL,
	"address" text NOT NULL,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"status" smallint NOT NULL,
	"reason" text NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_chain_gaps_to_seq_idx" ON "audit_chain_gaps" USING btree ("to_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "security_events_window_key_idx" ON "security_events" USING btree ("window_start","address","method","route","reason","admin_id");--> statement-breakpoint
CREATE INDEX "security_events_last_at_idx" ON "security_events" USING btree ("last_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_seq_idx" ON "audit_log" USING btree ("seq");--> statement-breakpoint
-- Hand-written from here (docs/decisions/0016-audit-hash-chain.md). An entry's hash: sha256 over the
-- previous entry's hash and the entry's canonical form (jsonb's text output of its fields in a fixed order).
CREATE FUNCTION audit_entry_hash(prev text, e audit_log) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(prev || '|' || jsonb_build_array(e.seq, e.id, e.at, e.admin_id, e.admin_login_id, e.action, e.entity, e.entity_id, e.title, e.changes)::text, 'UTF8')), 'hex')
$$;--> statement-breakpoint
-- Runs at commit (deferred), under the head row's lock: the chain's order is the commits' order,
-- whichever process or connection wrote. The first call of a commit links every entry the
-- transaction wrote (the only unlinked ones it can see), in id order, and moves the head once;
-- the calls for its other entries find theirs linked. A row that comes with its hash (a restore)
-- is kept as it is.
CREATE FUNCTION audit_chain_link() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head audit_chain%ROWTYPE;
  entry audit_log%ROWTYPE;
  ids bigint[] := '{}';
  seqs bigint[] := '{}';
  prevs text[] := '{}';
  hashes text[] := '{}';
BEGIN
  PERFORM 1 FROM audit_log WHERE id = NEW.id AND hash IS NULL;
  IF NOT FOUND THEN RETURN NULL; END IF;
  SELECT * INTO head FROM audit_chain WHERE id = 1 FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO audit_chain (id, seq, hash) VALUES (1, 0, '') ON CONFLICT (id) DO NOTHING;
    SELECT * INTO head FROM audit_chain WHERE id = 1 FOR UPDATE;
  END IF;
  FOR entry IN SELECT * FROM audit_log WHERE seq IS NULL AND hash IS NULL ORDER BY id LOOP
    entry.seq := head.seq + 1;
    entry.prev_hash := head.hash;
    entry.hash := audit_entry_hash(head.hash, entry);
    ids := ids || entry.id;
    seqs := seqs || entry.seq;
    prevs := prevs || entry.prev_hash;
    hashes := hashes || entry.hash;
    head.seq := entry.seq;
    head.hash := entry.hash;
  END LOOP;
  -- One statement for them all: a batch of a thousand entries is not a thousand updates.
  UPDATE audit_log a SET seq = l.seq, prev_hash = l.prev_hash, hash = l.hash
    FROM unnest(ids, seqs, prevs, hashes) AS l(id, seq, prev_hash, hash) WHERE a.id = l.id;
  UPDATE audit_chain SET seq = head.seq, hash = head.hash WHERE id = 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER audit_chain_link AFTER INSERT ON audit_log DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_chain_link();--> statement-breakpoint
-- The entries already there are chained in id order, with no writer in between.
LOCK TABLE audit_log IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
DO $$
DECLARE
  e audit_log%ROWTYPE;
  prev text := '';
  n bigint := 0;
BEGIN
  FOR e IN SELECT * FROM audit_log ORDER BY id LOOP
    n := n + 1;
    e.seq := n;
    e.prev_hash := prev;
    e.hash := audit_entry_hash(prev, e);
    UPDATE audit_log SET seq = e.seq, prev_hash = e.prev_hash, hash = e.hash WHERE id = e.id;
    prev := e.hash;
  END LOOP;
  IF n > 0 THEN INSERT INTO audit_chain (id, seq, hash) VALUES (1, n, prev); END IF;
END
$$;
