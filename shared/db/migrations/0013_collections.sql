ALTER TABLE "documents" ADD COLUMN "collection" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
CREATE INDEX "documents_collection" ON "documents" USING btree ("collection");