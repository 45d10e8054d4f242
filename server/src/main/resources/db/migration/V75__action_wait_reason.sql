-- Why a queued action has not started, as the applier's scheduler last found it: a parent not ended
-- (and whether its recommendation awaits an administrator), a limit, a backoff, space taken by copies
-- in flight. Shown with the action, so that a move applied before its parent does not wait silently.
ALTER TABLE migration_action ADD COLUMN wait_reason VARCHAR(2000);
