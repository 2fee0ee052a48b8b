-- CreateTable
CREATE TABLE "account_chat_day" (
    "account_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "replies" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "account_chat_day_pkey" PRIMARY KEY ("account_id","day")
);

-- AddForeignKey
ALTER TABLE "account_chat_day" ADD CONSTRAINT "account_chat_day_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The count kept as chat_message changes, whatever writes it: +1 when a row starts counting, -1 when
-- it stops (a reply that failed, was censored, or was stopped before any text). Only dialogues of no
-- app count (the console's chats); the day is the China day (UTC+8) of the reply's created_at, which
-- keeps UTC wall time.
CREATE FUNCTION zl_count_console_reply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was integer := 0;
  now_counts integer := 0;
  msg chat_message;
  owner text;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.role = 'assistant' AND (OLD.status = 'streaming' OR (OLD.status IN ('done', 'stopped') AND OLD.content <> '')) THEN
    was := 1;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.role = 'assistant' AND (NEW.status = 'streaming' OR (NEW.status IN ('done', 'stopped') AND NEW.content <> '')) THEN
    now_counts := 1;
  END IF;
  IF was = now_counts THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    msg := OLD;
  ELSE
    msg := NEW;
  END IF;
  SELECT d.account_id INTO owner FROM dialogue d WHERE d.id = msg.dialogue_id AND d.app_id IS NULL;
  IF owner IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO account_chat_day (account_id, day, replies)
  VALUES (owner, (msg.created_at + interval '8 hours')::date, now_counts - was)
  ON CONFLICT (account_id, day) DO UPDATE SET replies = account_chat_day.replies + EXCLUDED.replies;
  RETURN NULL;
END
$$;

CREATE TRIGGER chat_message_count_console_reply
AFTER INSERT OR DELETE OR UPDATE OF status, content ON chat_message
FOR EACH ROW EXECUTE FUNCTION zl_count_console_reply();

-- The replies already given.
INSERT INTO account_chat_day (account_id, day, replies)
SELECT d.account_id, (m.created_at + interval '8 hours')::date, count(*)::integer
FROM chat_message m
JOIN dialogue d ON d.id = m.dialogue_id AND d.app_id IS NULL
WHERE m.role = 'assistant' AND (m.status = 'streaming' OR (m.status IN ('done', 'stopped') AND m.content <> ''))
GROUP BY 1, 2;
