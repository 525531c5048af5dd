-- A condition a statement must hold, checked inside it (issue 16: group commit, ADR 023).
-- A group of bets may write COMMIT right behind its write statement (one round trip less), so
-- whatever the group decided from its reads has to be checked by that statement itself: when the
-- condition is not true the statement fails with `message` (SQLSTATE P0004, assert_failure), the
-- transaction rolls back and every bet of the group is placed one by one.
CREATE FUNCTION sorte_assert(ok boolean, message text) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION USING ERRCODE = 'assert_failure', MESSAGE = message;
  END IF;
  RETURN true;
END
$$;
