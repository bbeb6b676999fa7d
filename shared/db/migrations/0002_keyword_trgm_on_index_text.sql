DROP INDEX "nodes_content_trgm";--> statement-breakpoint
CREATE INDEX "nodes_index_text_trgm" ON "nodes" USING gin ("index_text" gin_trgm_ops);