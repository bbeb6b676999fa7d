-- pgvector for embeddings, pg_trgm for fuzzy keyword search. Both exist in PGlite (as extensions
-- loaded by the client), in Aurora PostgreSQL and in any Postgres with pgvector installed.
CREATE EXTENSION IF NOT EXISTS vector;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
