CREATE TABLE "time_billed" (
	"organization_id" text NOT NULL,
	"database_id" text NOT NULL,
	"external_row_id" text NOT NULL,
	"invoice_ref" text NOT NULL,
	"billed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "time_shares" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"view_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_opened_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "time_views" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"database_id" text NOT NULL,
	"name" text NOT NULL,
	"settings" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "time_databases" ADD COLUMN "rates" jsonb;--> statement-breakpoint
ALTER TABLE "time_entries" ADD COLUMN "person_ref" text;--> statement-breakpoint
ALTER TABLE "time_entries" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "time_billed" ADD CONSTRAINT "time_billed_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_billed" ADD CONSTRAINT "time_billed_database_id_workspace_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."workspace_databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_shares" ADD CONSTRAINT "time_shares_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_shares" ADD CONSTRAINT "time_shares_view_id_time_views_id_fk" FOREIGN KEY ("view_id") REFERENCES "public"."time_views"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_shares" ADD CONSTRAINT "time_shares_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_views" ADD CONSTRAINT "time_views_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_views" ADD CONSTRAINT "time_views_database_id_workspace_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."workspace_databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_views" ADD CONSTRAINT "time_views_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "time_billed_row_idx" ON "time_billed" USING btree ("database_id","external_row_id");--> statement-breakpoint
CREATE UNIQUE INDEX "time_shares_token_hash_idx" ON "time_shares" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "time_shares_view_idx" ON "time_shares" USING btree ("view_id");--> statement-breakpoint
CREATE INDEX "time_views_organization_database_idx" ON "time_views" USING btree ("organization_id","database_id");