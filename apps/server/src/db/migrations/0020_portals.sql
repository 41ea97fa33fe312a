CREATE TABLE "portal_magic_links" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"portal_id" text NOT NULL,
	"member_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_members" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"portal_id" text NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"company_row_id" text,
	"member_row_id" text,
	"person_ref" text,
	"password_hash" text,
	"status" text DEFAULT 'invited' NOT NULL,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portal_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"portal_id" text NOT NULL,
	"member_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portals" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"tool" text NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"custom_domain" text,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"branding" jsonb NOT NULL,
	"access" jsonb NOT NULL,
	"pages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"forms" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"show_invoices" boolean DEFAULT false NOT NULL,
	"charts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"people" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_row_content" (
	"row_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"blocks" jsonb NOT NULL,
	"row_edited_time" timestamp (3) with time zone NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_databases" ADD COLUMN "mirror_content" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "portal_magic_links" ADD CONSTRAINT "portal_magic_links_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_magic_links" ADD CONSTRAINT "portal_magic_links_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_magic_links" ADD CONSTRAINT "portal_magic_links_member_id_portal_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."portal_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_members" ADD CONSTRAINT "portal_members_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_members" ADD CONSTRAINT "portal_members_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD CONSTRAINT "portal_sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD CONSTRAINT "portal_sessions_portal_id_portals_id_fk" FOREIGN KEY ("portal_id") REFERENCES "public"."portals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD CONSTRAINT "portal_sessions_member_id_portal_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."portal_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portals" ADD CONSTRAINT "portals_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portals" ADD CONSTRAINT "portals_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_row_content" ADD CONSTRAINT "workspace_row_content_row_id_workspace_rows_id_fk" FOREIGN KEY ("row_id") REFERENCES "public"."workspace_rows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_row_content" ADD CONSTRAINT "workspace_row_content_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "portal_magic_links_token_hash_idx" ON "portal_magic_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "portal_magic_links_member_idx" ON "portal_magic_links" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "portal_magic_links_organization_id_idx" ON "portal_magic_links" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "portal_members_portal_email_idx" ON "portal_members" USING btree ("portal_id","email");--> statement-breakpoint
CREATE INDEX "portal_members_organization_id_idx" ON "portal_members" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "portal_sessions_token_hash_idx" ON "portal_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "portal_sessions_member_idx" ON "portal_sessions" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "portal_sessions_organization_id_idx" ON "portal_sessions" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "portals_slug_idx" ON "portals" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "portals_custom_domain_idx" ON "portals" USING btree ("custom_domain") WHERE "portals"."custom_domain" is not null;--> statement-breakpoint
CREATE INDEX "portals_organization_id_idx" ON "portals" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "workspace_row_content_organization_id_idx" ON "workspace_row_content" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "workspace_rows_values_idx" ON "workspace_rows" USING gin ("values" jsonb_path_ops);