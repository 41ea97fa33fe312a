ALTER TABLE "forms" ADD COLUMN "redirect_url" text;--> statement-breakpoint
ALTER TABLE "forms" ADD COLUMN "redirect_with_answers" boolean DEFAULT false NOT NULL;