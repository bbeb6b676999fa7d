ALTER TABLE "document_versions" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "failure_code" text;