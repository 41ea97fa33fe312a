CREATE TABLE "workspace_databases" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"icon" text,
	"url" text,
	"properties" jsonb NOT NULL,
	"sync_state" text DEFAULT 'idle' NOT NULL,
	"last_synced_at" timestamp with time zone,
	"last_reconciled_at" timestamp with time zone,
	"next_sync_at" timestamp with time zone,
	"last_error" text,
	"row_count" integer DEFAULT 0 NOT NULL,
	"edited_cursor" timestamp (3) with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_rows" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"database_id" text NOT NULL,
	"external_id" text NOT NULL,
	"values" jsonb NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"url" text,
	"created_time" timestamp (3) with time zone NOT NULL,
	"last_edited_time" timestamp (3) with time zone NOT NULL,
	"mirrored_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_writes" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"database_id" text NOT NULL,
	"kind" text NOT NULL,
	"external_row_id" text,
	"values" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"source" text NOT NULL,
	"first_attempt_at" timestamp (3) with time zone,
	"next_attempt_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"tool" text NOT NULL,
	"name" text NOT NULL,
	"icon" text,
	"status" text DEFAULT 'connected' NOT NULL,
	"external_id" text,
	"credentials" text,
	"discovered_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_databases" ADD CONSTRAINT "workspace_databases_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_databases" ADD CONSTRAINT "workspace_databases_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_rows" ADD CONSTRAINT "workspace_rows_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_rows" ADD CONSTRAINT "workspace_rows_database_id_workspace_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."workspace_databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_writes" ADD CONSTRAINT "workspace_writes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_writes" ADD CONSTRAINT "workspace_writes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_writes" ADD CONSTRAINT "workspace_writes_database_id_workspace_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."workspace_databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_databases_workspace_external_idx" ON "workspace_databases" USING btree ("workspace_id","external_id");--> statement-breakpoint
CREATE INDEX "workspace_databases_organization_id_idx" ON "workspace_databases" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "workspace_databases_next_sync_idx" ON "workspace_databases" USING btree ("next_sync_at");--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_rows_database_external_idx" ON "workspace_rows" USING btree ("database_id","external_id");--> statement-breakpoint
CREATE INDEX "workspace_rows_database_created_idx" ON "workspace_rows" USING btree ("database_id","created_time","id");--> statement-breakpoint
CREATE INDEX "workspace_rows_organization_id_idx" ON "workspace_rows" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "workspace_rows_title_idx" ON "workspace_rows" USING btree ("database_id",lower("title"));--> statement-breakpoint
CREATE INDEX "workspace_writes_workspace_state_idx" ON "workspace_writes" USING btree ("workspace_id","state","created_at");--> statement-breakpoint
CREATE INDEX "workspace_writes_database_row_idx" ON "workspace_writes" USING btree ("database_id","external_row_id");--> statement-breakpoint
CREATE INDEX "workspace_writes_organization_id_idx" ON "workspace_writes" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "workspaces_organization_id_idx" ON "workspaces" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "workspaces_external_id_idx" ON "workspaces" USING btree ("external_id");