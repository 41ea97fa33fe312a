CREATE TABLE "time_databases" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"database_id" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "time_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"database_id" text NOT NULL,
	"create_write_id" text NOT NULL,
	"last_write_id" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"description" text,
	"project" text,
	"task" text,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"billable" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_writes" ADD COLUMN "after_write_id" text;--> statement-breakpoint
ALTER TABLE "time_databases" ADD CONSTRAINT "time_databases_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_databases" ADD CONSTRAINT "time_databases_database_id_workspace_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."workspace_databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_databases" ADD CONSTRAINT "time_databases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_entries" ADD CONSTRAINT "time_entries_database_id_workspace_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."workspace_databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "time_databases_organization_database_idx" ON "time_databases" USING btree ("organization_id","database_id");--> statement-breakpoint
CREATE UNIQUE INDEX "time_entries_running_idx" ON "time_entries" USING btree ("organization_id","user_id") WHERE "time_entries"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "time_entries_organization_database_idx" ON "time_entries" USING btree ("organization_id","database_id");--> statement-breakpoint
CREATE INDEX "workspace_writes_after_idx" ON "workspace_writes" USING btree ("after_write_id") WHERE "workspace_writes"."after_write_id" is not null;