CREATE TABLE "ask_throttle" (
	"subject" text PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"updated_ms" bigint NOT NULL,
	"allowed" boolean NOT NULL
);
