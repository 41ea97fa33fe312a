CREATE TABLE "form_step_counts" (
	"form_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"step" text NOT NULL,
	"reached" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "form_step_counts_form_id_hour_step_pk" PRIMARY KEY("form_id","hour","step")
);
--> statement-breakpoint
ALTER TABLE "forms" ADD COLUMN "layout" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "workspace_writes" ADD COLUMN "attempt_log" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "form_step_counts" ADD CONSTRAINT "form_step_counts_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;