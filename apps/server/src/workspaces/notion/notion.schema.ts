import { pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * The pace of each Notion workspace, shared by every instance on this database
 * (notion.limiter.ts, decision 025). A row per Notion workspace, made by its first call.
 */
export const notionRateLimits = pgTable('notion_rate_limits', {
	workspaceKey: text('workspace_key').primaryKey(),
	/** The earliest start of the next call once any burst is spent: the next free slot. */
	allowedAt: timestamp('allowed_at', { withTimezone: true, precision: 6 }).notNull(),
	/** No call starts before this (a 429 or 529 answered with Retry-After). */
	pausedUntil: timestamp('paused_until', { withTimezone: true, precision: 6 }),
})
