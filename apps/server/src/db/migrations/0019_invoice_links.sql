CREATE TABLE "invoice_events" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"document_id" text NOT NULL,
	"kind" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"actor_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_recurrences" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"source_id" text NOT NULL,
	"frequency" text NOT NULL,
	"interval" integer DEFAULT 1 NOT NULL,
	"anchor_date" date NOT NULL,
	"next_date" date,
	"end_date" date,
	"remaining" integer,
	"action" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_document_id" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_stripe_accounts" (
	"profile_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"secret_key" text NOT NULL,
	"webhook_endpoint_id" text,
	"webhook_secret" text,
	"account_name" text,
	"account_id" text,
	"is_live" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_databases" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"database_id" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"last_sync_at" timestamp with time zone,
	"last_sync" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_filters" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"name" text NOT NULL,
	"filter" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_documents" ADD COLUMN "credited_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_documents" ADD COLUMN "row_database_id" text;--> statement-breakpoint
ALTER TABLE "invoice_documents" ADD COLUMN "row_id" text;--> statement-breakpoint
ALTER TABLE "invoice_documents" ADD COLUMN "row_write_id" text;--> statement-breakpoint
ALTER TABLE "invoice_documents" ADD COLUMN "row_state" jsonb;--> statement-breakpoint
ALTER TABLE "invoice_documents" ADD COLUMN "public_token" text;--> statement-breakpoint
ALTER TABLE "invoice_documents" ADD COLUMN "viewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoice_documents" ADD COLUMN "recurrence_id" text;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "invoice_events" ADD CONSTRAINT "invoice_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_events" ADD CONSTRAINT "invoice_events_document_id_invoice_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."invoice_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_events" ADD CONSTRAINT "invoice_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_recurrences" ADD CONSTRAINT "invoice_recurrences_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_recurrences" ADD CONSTRAINT "invoice_recurrences_source_id_invoice_documents_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."invoice_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_recurrences" ADD CONSTRAINT "invoice_recurrences_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_stripe_accounts" ADD CONSTRAINT "invoice_stripe_accounts_profile_id_invoice_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."invoice_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_stripe_accounts" ADD CONSTRAINT "invoice_stripe_accounts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_databases" ADD CONSTRAINT "invoice_databases_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_databases" ADD CONSTRAINT "invoice_databases_database_id_workspace_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."workspace_databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_databases" ADD CONSTRAINT "invoice_databases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_filters" ADD CONSTRAINT "invoice_filters_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_filters" ADD CONSTRAINT "invoice_filters_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_events_document_idx" ON "invoice_events" USING btree ("document_id","at");--> statement-breakpoint
CREATE INDEX "invoice_recurrences_organization_idx" ON "invoice_recurrences" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "invoice_recurrences_due_idx" ON "invoice_recurrences" USING btree ("next_date") WHERE "invoice_recurrences"."is_active";--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_databases_organization_idx" ON "invoice_databases" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "invoice_filters_organization_idx" ON "invoice_filters" USING btree ("organization_id");--> statement-breakpoint
ALTER TABLE "invoice_documents" ADD CONSTRAINT "invoice_documents_row_database_id_workspace_databases_id_fk" FOREIGN KEY ("row_database_id") REFERENCES "public"."workspace_databases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_documents_public_token_idx" ON "invoice_documents" USING btree ("public_token");--> statement-breakpoint
CREATE INDEX "invoice_documents_row_idx" ON "invoice_documents" USING btree ("row_database_id","row_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_payments_external_idx" ON "invoice_payments" USING btree ("external_id");