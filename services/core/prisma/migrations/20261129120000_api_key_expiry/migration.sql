-- API keys may expire: a key past expires_at authenticates nothing (NULL: it never expires).
ALTER TABLE "api_keys" ADD COLUMN "expires_at" TIMESTAMPTZ(3);
