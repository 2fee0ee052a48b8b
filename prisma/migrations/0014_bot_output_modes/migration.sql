-- Bots send generated pictures and videos as the chat platforms' own messages: a BOT app shows
-- text, pictures and videos, as new ones are created. Apps whose owner chose otherwise keep it.
UPDATE "app" SET "output_modes" = ARRAY['text', 'image', 'video'] WHERE "type" = 'bot' AND "output_modes" = ARRAY['text'];
