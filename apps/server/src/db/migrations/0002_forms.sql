CREATE TABLE "form_slugs" (
	"slug" text PRIMARY KEY NOT NULL,
	"form_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"form_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"answers" jsonb NOT NULL,
	"write_id" text,
	"spam" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_view_counts" (
	"form_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"starts" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "form_view_counts_form_id_hour_pk" PRIMARY KEY("form_id","hour")
);
--> statement-breakpoint
CREATE TABLE "forms" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"tool" text NOT NULL,
	"database_id" text,
	"name" text NOT NULL,
	"slug" text,
	"fields" jsonb NOT NULL,
	"page" jsonb NOT NULL,
	"confirmation_message" text NOT NULL,
	"submit_label" text NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"accepting_responses" boolean DEFAULT true NOT NULL,
	"closed_message" text NOT NULL,
	"password_hash" text,
	"password_version" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "form_slugs" ADD CONSTRAINT "form_slugs_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_write_id_workspace_writes_id_fk" FOREIGN KEY ("write_id") REFERENCES "public"."workspace_writes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_view_counts" ADD CONSTRAINT "form_view_counts_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_database_id_workspace_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."workspace_databases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_slugs_form_id_idx" ON "form_slugs" USING btree ("form_id");--> statement-breakpoint
CREATE UNIQUE INDEX "form_submissions_form_id_idempotency_key_idx" ON "form_submissions" USING btree ("form_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "form_submissions_form_id_created_at_idx" ON "form_submissions" USING btree ("form_id","created_at");--> statement-breakpoint
CREATE INDEX "form_submissions_write_id_idx" ON "form_submissions" USING btree ("write_id");--> statement-breakpoint
CREATE INDEX "forms_organization_id_idx" ON "forms" USING btree ("organization_id");