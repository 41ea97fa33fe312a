ALTER TABLE "form_submissions" ADD COLUMN "respondent_key" text;--> statement-breakpoint
ALTER TABLE "forms" ADD COLUMN "limits" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "form_submissions_form_id_respondent_key_idx" ON "form_submissions" USING btree ("form_id","respondent_key");