// Time tracking: the time databases (which database holds entries and how its properties map),
// the timer, entries (with delete and undo) and the weekly timesheet, under /dashboard/{tool}_time.
// `{tool}` is the database's workspace tool; each path exists once per tool, so an entry or a
// database is only reached through its own tool. The header's timer, whatever the tool, is
// /dashboard/time/timer.

import { idSchema, okSchema } from '@blocksmith/contracts/common.ts'
import {
	anyTimerSchema,
	createEntrySchema,
	createTimeDatabaseSchema,
	currentTimerSchema,
	listEntriesQuerySchema,
	saveTimeMappingSchema,
	setTimesheetCellSchema,
	startTimerSchema,
	timeDatabaseSchema,
	timeEntrySchema,
	timesheetQuerySchema,
	timesheetSchema,
	updateEntrySchema,
} from '@blocksmith/contracts/time.ts'
import { type WorkspaceTool, workspaceToolSchema } from '@blocksmith/contracts/workspaces.ts'
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { type MemberEnv, requireMember, requireSession } from '#src/core/auth/auth.middleware.ts'
import type { Auth } from '#src/core/auth/auth.ts'
import {
	bearerRoute,
	commonProblems,
	createRouter,
	jsonBody,
	jsonResponse,
	problemResponse,
	type RouteSpec,
} from '#src/lib/openapi.ts'
import { deleteEntry, restoreEntry } from './time.delete.ts'
import type { TimeCtx, TimeDeps } from './time.deps.ts'
import { createEntry, listEntries, updateEntry } from './time.entries.ts'
import { createTimeDatabase, getTimeDatabase, listTimeDatabases, removeMapping, saveMapping } from './time.service.ts'
import { anyTimer, continueEntry, currentTimer, startTimer, stopTimer } from './time.timer.ts'
import { readTimesheet, setTimesheetCell } from './time.timesheet.ts'

const idParams = z.object({ id: idSchema })
const { 400: bad, 404: notFound } = commonProblems
const running = problemResponse('A timer is already running, or the database changed since it was mapped')

function timeRoute<R extends RouteSpec>(tool: WorkspaceTool, spec: R) {
	return bearerRoute(`/dashboard/${tool}_time`, 'Time tracking', spec)
}

function routesFor(tool: WorkspaceTool) {
	return {
		databases: timeRoute(tool, {
			method: 'get',
			path: '/databases',
			summary: `${tool} databases that can hold time entries, each with its saved mapping and a suggested one`,
			responses: { 200: jsonResponse(z.array(timeDatabaseSchema), 'Databases') },
		}),
		database: timeRoute(tool, {
			method: 'get',
			path: '/databases/{id}',
			summary: 'One database: its saved mapping, a suggested one, and what each is missing',
			request: { params: idParams },
			responses: { 200: jsonResponse(timeDatabaseSchema, 'The database'), 404: notFound },
		}),
		saveMapping: timeRoute(tool, {
			method: 'put',
			path: '/databases/{id}',
			summary: "Save how the database's properties map to an entry (checked against its properties)",
			request: { params: idParams, body: jsonBody(saveTimeMappingSchema) },
			responses: { 200: jsonResponse(timeDatabaseSchema, 'Saved'), 400: bad, 404: notFound },
		}),
		removeMapping: timeRoute(tool, {
			method: 'delete',
			path: '/databases/{id}',
			summary: 'Stop using the database for time tracking (its rows stay)',
			request: { params: idParams },
			responses: { 200: jsonResponse(okSchema, 'Removed'), 404: notFound },
		}),
		timer: timeRoute(tool, {
			method: 'get',
			path: '/timer',
			summary: "The caller's running timer in this tool's databases, or null",
			responses: { 200: jsonResponse(currentTimerSchema, 'The timer') },
		}),
		start: timeRoute(tool, {
			method: 'post',
			path: '/timer/start',
			summary: 'Start the timer: a row with its start is written to the database through the write queue',
			request: { body: jsonBody(startTimerSchema) },
			responses: { 201: jsonResponse(timeEntrySchema, 'Running'), 400: bad, 409: running },
		}),
		stop: timeRoute(tool, {
			method: 'post',
			path: '/timer/stop',
			summary: "Stop the caller's timer: its row gets the end (and duration) after the start is delivered",
			responses: { 200: jsonResponse(timeEntrySchema, 'Stopped'), 404: problemResponse('No timer running') },
		}),
		entries: timeRoute(tool, {
			method: 'get',
			path: '/entries',
			summary: "The caller's entries tracked here, newest first",
			request: { query: listEntriesQuerySchema },
			responses: { 200: jsonResponse(z.array(timeEntrySchema), 'Entries'), 400: bad },
		}),
		createEntry: timeRoute(tool, {
			method: 'post',
			path: '/entries',
			summary: 'Add a finished entry by hand (start, and end or duration): its row is written through the write queue',
			request: { body: jsonBody(createEntrySchema) },
			responses: { 201: jsonResponse(timeEntrySchema, 'Added'), 400: bad, 409: running },
		}),
		updateEntry: timeRoute(tool, {
			method: 'patch',
			path: '/entries/{id}',
			summary: "Change an entry (only its own person can); its row follows the entry's earlier writes",
			request: { params: idParams, body: jsonBody(updateEntrySchema) },
			responses: {
				200: jsonResponse(timeEntrySchema, 'Changed'),
				400: bad,
				403: problemResponse("Another person's entry"),
				404: notFound,
				409: problemResponse('Changed meanwhile, or the database changed since it was mapped'),
			},
		}),
		continueEntry: timeRoute(tool, {
			method: 'post',
			path: '/entries/{id}/continue',
			summary: "Start the timer again with a past entry's database, project, task, tags and description",
			request: { params: idParams },
			responses: {
				201: jsonResponse(timeEntrySchema, 'Running'),
				403: problemResponse("Another person's entry"),
				404: notFound,
				409: running,
			},
		}),
		deleteEntry: timeRoute(tool, {
			method: 'delete',
			path: '/entries/{id}',
			summary:
				"Delete an entry (only its own person can; a running one is stopped first): hidden at once, its row's delete queued after the entry's earlier writes",
			request: { params: idParams },
			responses: {
				200: jsonResponse(timeEntrySchema, 'Deleted (undo with …/restore)'),
				403: problemResponse("Another person's entry"),
				404: notFound,
				409: problemResponse('Changed meanwhile'),
			},
		}),
		restoreEntry: timeRoute(tool, {
			method: 'post',
			path: '/entries/{id}/restore',
			summary:
				'Undo a delete: the entry is back at once, its row restored with its values after the delete is delivered',
			request: { params: idParams },
			responses: {
				200: jsonResponse(timeEntrySchema, 'Restored'),
				403: problemResponse("Another person's entry"),
				404: notFound,
				409: problemResponse('Changed meanwhile'),
			},
		}),
		timesheet: timeRoute(tool, {
			method: 'get',
			path: '/timesheet',
			summary:
				"The caller's week in one database: a row per project and task, seconds per local day in their time zone (midnight and DST crossings split, a running entry up to now), totals and overlaps; rows typed in the workspace count too",
			request: { query: timesheetQuerySchema },
			responses: { 200: jsonResponse(timesheetSchema, 'The week'), 400: bad, 404: notFound },
		}),
		setTimesheetCell: timeRoute(tool, {
			method: 'put',
			path: '/timesheet/cell',
			summary:
				'Set one day of a project/task row to a total (typed as 1:30, 1.5h, 90m): an empty cell gets an entry placed where the day is free (from 09:00), a cell of one entry made here changes its length (0 deletes it), a cell of several entries only grows (an entry for the difference). Answers the week',
			request: { body: jsonBody(setTimesheetCellSchema) },
			responses: {
				200: jsonResponse(timesheetSchema, 'The week, changed'),
				400: bad,
				404: notFound,
				409: problemResponse('A cell of several entries (or one not made here) made smaller: edit its entries'),
			},
		}),
		stopEntry: timeRoute(tool, {
			method: 'post',
			path: '/entries/{id}/stop',
			summary: 'Stop a running entry by id (only its own person can)',
			request: { params: idParams },
			responses: {
				200: jsonResponse(timeEntrySchema, 'Stopped'),
				403: problemResponse("Another person's timer"),
				404: notFound,
				409: problemResponse('Already stopped'),
			},
		}),
	}
}

/** The header's timer, whatever the tool: under /dashboard/time, which no workspace tool is named. */
const anyTimerRoute = createRoute({
	method: 'get',
	path: '/dashboard/time/timer',
	summary:
		"The caller's running timer in any tool's databases, with its tool, database name and project name, or nulls",
	tags: ['Time tracking'],
	security: [{ bearer: [] }],
	responses: { 200: jsonResponse(anyTimerSchema, 'The timer'), 401: commonProblems[401] },
})

/** Only a built-in workspace can get a new database from us. */
const createDatabaseRoute = timeRoute('local', {
	method: 'post',
	path: '/databases',
	summary: 'Create a well-formed time entries database in a built-in workspace, its mapping saved',
	request: { body: jsonBody(createTimeDatabaseSchema) },
	responses: { 201: jsonResponse(timeDatabaseSchema, 'Created'), 400: bad, 402: problemResponse('Plan limit') },
})

export function createTimeRoutes(deps: { auth: Auth; time: TimeDeps }) {
	const router = createRouter<MemberEnv>()
	const session = requireSession(deps.auth)
	const member = requireMember(deps.time.db)
	const ctx = (c: Context<MemberEnv>): TimeCtx => ({
		...deps.time,
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})
	const id = (c: Context) => c.req.param('id') as string

	for (const tool of workspaceToolSchema.options) {
		const routes = routesFor(tool)
		router.use(`/dashboard/${tool}_time/*`, session, member)
		router.openapi(routes.databases, async (c) => c.json(await listTimeDatabases(ctx(c), tool), 200))
		router.openapi(routes.database, async (c) => c.json(await getTimeDatabase(ctx(c), tool, id(c)), 200))
		router.openapi(routes.saveMapping, async (c) =>
			c.json(await saveMapping(ctx(c), tool, id(c), c.req.valid('json').mapping), 200),
		)
		router.openapi(routes.removeMapping, async (c) => {
			await removeMapping(ctx(c), tool, id(c))
			return c.json({ success: true as const }, 200)
		})
		router.openapi(routes.timer, async (c) => c.json({ entry: await currentTimer(ctx(c), tool) }, 200))
		router.openapi(routes.start, async (c) => c.json(await startTimer(ctx(c), tool, c.req.valid('json')), 201))
		router.openapi(routes.stop, async (c) => c.json(await stopTimer(ctx(c), tool), 200))
		router.openapi(routes.entries, async (c) => c.json(await listEntries(ctx(c), tool, c.req.valid('query')), 200))
		router.openapi(routes.createEntry, async (c) => c.json(await createEntry(ctx(c), tool, c.req.valid('json')), 201))
		router.openapi(routes.updateEntry, async (c) =>
			c.json(await updateEntry(ctx(c), tool, id(c), c.req.valid('json')), 200),
		)
		router.openapi(routes.continueEntry, async (c) => c.json(await continueEntry(ctx(c), tool, id(c)), 201))
		router.openapi(routes.stopEntry, async (c) => c.json(await stopTimer(ctx(c), tool, id(c)), 200))
		router.openapi(routes.timesheet, async (c) => c.json(await readTimesheet(ctx(c), tool, c.req.valid('query')), 200))
		router.openapi(routes.setTimesheetCell, async (c) =>
			c.json(await setTimesheetCell(ctx(c), tool, c.req.valid('json')), 200),
		)
		router.openapi(routes.deleteEntry, async (c) => c.json(await deleteEntry(ctx(c), tool, id(c)), 200))
		router.openapi(routes.restoreEntry, async (c) => c.json(await restoreEntry(ctx(c), tool, id(c)), 200))
	}
	router.use(anyTimerRoute.path, session, member)
	router.openapi(anyTimerRoute, async (c) => c.json(await anyTimer(ctx(c)), 200))
	router.openapi(createDatabaseRoute, async (c) => c.json(await createTimeDatabase(ctx(c), c.req.valid('json')), 201))
	return router
}
