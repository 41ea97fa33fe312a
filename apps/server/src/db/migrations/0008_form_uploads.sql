ALTER TABLE "blobs" ADD COLUMN "scope" text;--> statement-breakpoint
ALTER TABLE "blobs" ADD COLUMN "claimed_by" text;--> statement-breakpoint
CREATE INDEX "blobs_unclaimed_idx" ON "blobs" USING btree ("created_at") WHERE "blobs"."scope" is not null and "blobs"."claimed_by" is null;