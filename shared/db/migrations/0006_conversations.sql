CREATE TABLE "conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner" text,
	"title" text NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "qa_history" ADD COLUMN "conversation_id" uuid;--> statement-breakpoint
INSERT INTO "conversations" ("id", "title", "created_at", "updated_at") SELECT "id", left("question", 80), "created_at", "created_at" FROM "qa_history";--> statement-breakpoint
UPDATE "qa_history" SET "conversation_id" = "id";--> statement-breakpoint
ALTER TABLE "qa_history" ALTER COLUMN "conversation_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "conversations_owner_updated" ON "conversations" USING btree ("owner","updated_at");--> statement-breakpoint
ALTER TABLE "qa_history" ADD CONSTRAINT "qa_history_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "qa_history_conversation_created" ON "qa_history" USING btree ("conversation_id","created_at");