CREATE TABLE "chart_dashboards" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"tiles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"embed" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chart_figures" (
	"chart_id" text PRIMARY KEY NOT NULL,
	"cache_key" text NOT NULL,
	"figures" jsonb NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chart_projections" (
	"database_id" text PRIMARY KEY NOT NULL,
	"table_name" text NOT NULL,
	"rows_version" bigint NOT NULL,
	"columns" jsonb NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charts" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"tool" text NOT NULL,
	"database_id" text,
	"name" text NOT NULL,
	"config" jsonb NOT NULL,
	"embed" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_databases" ADD COLUMN "rows_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chart_dashboards" ADD CONSTRAINT "chart_dashboards_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chart_dashboards" ADD CONSTRAINT "chart_dashboards_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chart_figures" ADD CONSTRAINT "chart_figures_chart_id_charts_id_fk" FOREIGN KEY ("chart_id") REFERENCES "public"."charts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chart_projections" ADD CONSTRAINT "chart_projections_database_id_workspace_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."workspace_databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charts" ADD CONSTRAINT "charts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charts" ADD CONSTRAINT "charts_database_id_workspace_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."workspace_databases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charts" ADD CONSTRAINT "charts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chart_dashboards_organization_id_idx" ON "chart_dashboards" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "charts_organization_id_idx" ON "charts" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "charts_database_id_idx" ON "charts" USING btree ("database_id");--> statement-breakpoint
-- Every statement that changes rows of a database gives the database a new rows_version, so
-- figures cached for the old one are recomputed. A trigger covers every write path (sync,
-- webhooks, the table editor, deliveries, imports); statement-level with transition tables, so a
-- sync batch of 100 rows bumps its database once. The update's row lock orders the versions by
-- commit: a version read after a commit is never older than that commit's rows.
CREATE SEQUENCE "workspace_rows_version_seq";--> statement-breakpoint
CREATE FUNCTION "workspace_rows_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "workspace_databases" SET "rows_version" = nextval('workspace_rows_version_seq')
	WHERE "id" IN (SELECT DISTINCT "database_id" FROM "changed_rows");
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "workspace_rows_inserted" AFTER INSERT ON "workspace_rows" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "workspace_rows_changed"();--> statement-breakpoint
CREATE TRIGGER "workspace_rows_updated" AFTER UPDATE ON "workspace_rows" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "workspace_rows_changed"();--> statement-breakpoint
CREATE TRIGGER "workspace_rows_deleted" AFTER DELETE ON "workspace_rows" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "workspace_rows_changed"();
