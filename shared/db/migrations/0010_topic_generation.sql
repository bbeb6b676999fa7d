CREATE TABLE "topic_generation" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "document_versions_topic_phrases";--> statement-breakpoint
CREATE INDEX "document_topics_topic" ON "document_topics" USING btree ("topic_id");--> statement-breakpoint
CREATE INDEX "document_versions_topic_phrases" ON "document_versions" USING gin ("topic_phrases") WITH (fastupdate=false);--> statement-breakpoint
INSERT INTO "topic_generation" ("id", "n") VALUES (true, 0);--> statement-breakpoint
CREATE FUNCTION "topics_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "topic_generation" SET "n" = "n" + 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "topics_generation" AFTER INSERT OR UPDATE OR DELETE ON "topics"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "topics_changed"();--> statement-breakpoint
CREATE TRIGGER "topics_truncated" AFTER TRUNCATE ON "topics" FOR EACH STATEMENT EXECUTE FUNCTION "topics_changed"();
