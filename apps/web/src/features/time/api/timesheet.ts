import { type SetTimesheetCell, type Timesheet, timesheetSchema } from '@blocksmith/contracts/time.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api } from '#src/lib/api-client.ts'

// The weekly timesheet's API: the week's grid of the caller's time, one cell set at a time. The
// time databases and the running timer come from time.ts, shared with the timer page.

export const timeBase = (tool: WorkspaceTool) => `/dashboard/${tool}_time`

export type TimesheetParams = {
	tool: WorkspaceTool
	databaseId: string
	/** Any day of the week, YYYY-MM-DD. */
	date: string
	weekStart: number
	timeZone: string
}

export const timesheetKeys = {
	week: (params: TimesheetParams) => ['time-timesheet', 'week', params] as const,
}

/** A running entry counts up on screen; the week is read again every minute meanwhile to stay exact. */
export function timesheetQuery(params: TimesheetParams, isRunning = false) {
	return queryOptions({
		queryKey: timesheetKeys.week(params),
		queryFn: ({ signal }): Promise<Timesheet> =>
			api(`${timeBase(params.tool)}/timesheet`, {
				query: {
					databaseId: params.databaseId,
					date: params.date,
					weekStart: params.weekStart,
					timeZone: params.timeZone,
				},
				schema: timesheetSchema,
				signal,
			}),
		placeholderData: keepPreviousData,
		refetchInterval: isRunning ? 60_000 : false,
	})
}

/**
 * Sets one day of one row to a total, and answers the week as it is now (starting on the cell's
 * `weekStart`). A 409 means the cell holds several entries and was made smaller: the grid says
 * so in place rather than as a toast.
 */
export async function setTimesheetCell(input: { tool: WorkspaceTool; cell: SetTimesheetCell }): Promise<Timesheet> {
	return api(`${timeBase(input.tool)}/timesheet/cell`, { method: 'PUT', json: input.cell, schema: timesheetSchema })
}
