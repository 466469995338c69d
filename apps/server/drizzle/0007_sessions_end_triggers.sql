-- Sessions end in the same transaction as the change that ends them, whatever code path makes it:
-- a user leaving the Active status gets a new session epoch; any epoch change revokes every
-- refresh token of the user. Every server process (LISTEN evdra_sessions) hears which user ('u:ID')
-- or session family ('f:UUID') changed, so it drops what it cached about them at once.
CREATE OR REPLACE FUNCTION evdra_user_sessions_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'Active' AND NEW.status <> 'Active' THEN
    NEW.session_epoch := OLD.session_epoch + 1;
  END IF;
  IF NEW.session_epoch <> OLD.session_epoch THEN
    UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = NEW.id AND revoked_at IS NULL;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_sessions_end BEFORE UPDATE OF status, session_epoch ON users
  FOR EACH ROW EXECUTE FUNCTION evdra_user_sessions_end();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_notify_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('evdra_sessions', 'u:' || OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_sessions_notify AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION evdra_notify_user_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION evdra_notify_families_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE fam uuid;
BEGIN
  FOR fam IN SELECT DISTINCT n.family_id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.revoked_at IS NOT NULL AND o.revoked_at IS NULL
  LOOP
    PERFORM pg_notify('evdra_sessions', 'f:' || fam);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER refresh_tokens_revoked_notify AFTER UPDATE ON refresh_tokens
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION evdra_notify_families_revoked();
