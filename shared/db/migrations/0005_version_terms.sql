ALTER TABLE "document_versions" ADD COLUMN "terms" "tsvector";--> statement-breakpoint
UPDATE "document_versions" v SET "terms" = (
  SELECT array_to_tsvector(array_agg(DISTINCT u.lexeme)) FROM "nodes" n, unnest(n.search_vector) AS u
  WHERE n.document_id = v.document_id AND n.version = v.version
) WHERE v.status = 'ready';
