CREATE TABLE "invoice_counters" (
	"organization_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"kind" text NOT NULL,
	"period" text NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "invoice_counters_profile_id_kind_period_pk" PRIMARY KEY("profile_id","kind","period")
);
--> statement-breakpoint
CREATE TABLE "invoice_numbers" (
	"organization_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"number" text NOT NULL,
	"kind" text NOT NULL,
	"period" text NOT NULL,
	"counter" integer NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_numbers_profile_id_number_pk" PRIMARY KEY("profile_id","number")
);
--> statement-breakpoint
CREATE TABLE "invoice_profiles" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"name" text NOT NULL,
	"legal_name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"logo_blob_id" text,
	"details" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_tax_rates" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"profile_id" text NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"rate" text NOT NULL,
	"exemption_reason" text,
	"exemption_reason_code" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_counters" ADD CONSTRAINT "invoice_counters_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_counters" ADD CONSTRAINT "invoice_counters_profile_id_invoice_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."invoice_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_numbers" ADD CONSTRAINT "invoice_numbers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_numbers" ADD CONSTRAINT "invoice_numbers_profile_id_invoice_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."invoice_profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_profiles" ADD CONSTRAINT "invoice_profiles_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_profiles" ADD CONSTRAINT "invoice_profiles_logo_blob_id_blobs_id_fk" FOREIGN KEY ("logo_blob_id") REFERENCES "public"."blobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_profiles" ADD CONSTRAINT "invoice_profiles_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_tax_rates" ADD CONSTRAINT "invoice_tax_rates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_tax_rates" ADD CONSTRAINT "invoice_tax_rates_profile_id_invoice_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."invoice_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_profiles_organization_idx" ON "invoice_profiles" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_profiles_default_idx" ON "invoice_profiles" USING btree ("organization_id") WHERE "invoice_profiles"."is_default";--> statement-breakpoint
CREATE INDEX "invoice_tax_rates_profile_idx" ON "invoice_tax_rates" USING btree ("profile_id");