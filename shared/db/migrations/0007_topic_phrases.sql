ALTER TABLE "document_versions" ADD COLUMN "topic_phrases" text[];--> statement-breakpoint
CREATE INDEX "document_versions_topic_phrases" ON "document_versions" USING gin ("topic_phrases");