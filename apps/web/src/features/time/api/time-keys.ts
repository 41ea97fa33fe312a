import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'

// The time queries' keys, on their own: the app's frame (the header timer, the tabs' channel)
// uses them without loading the time API and its schemas.

export const timeKeys = {
	all: ['time'] as const,
	databases: ['time', 'databases'] as const,
	/** The running timer, per tool and across tools: both read again whenever one changes. */
	timers: ['time', 'timer'] as const,
	timer: (tool: WorkspaceTool) => ['time', 'timer', tool] as const,
	anyTimer: ['time', 'timer', 'any'] as const,
	entries: ['time', 'entries'] as const,
	entryList: (tool: WorkspaceTool, databaseId: string) => ['time', 'entries', tool, databaseId] as const,
}
