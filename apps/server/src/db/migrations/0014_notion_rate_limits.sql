CREATE TABLE "notion_rate_limits" (
	"workspace_key" text PRIMARY KEY NOT NULL,
	"allowed_at" timestamp (6) with time zone NOT NULL,
	"paused_until" timestamp (6) with time zone
);
