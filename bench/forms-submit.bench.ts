// POST /api/submissions and POST /api/views under load, on PGlite and on PostgreSQL, next to a
// bare Hono handler that parses the same JSON bodies, measured in the same run, and submissions
// next to their ceiling (ceiling-submissions.server.ts: Hono doing only the two-row INSERT
// transaction, on the same kind of database), measured just before the real server. The real server
// runs in its own process as `npm start` runs it and its form is set up through the real API;
// only the load generator runs here. Every submission carries its own idempotency key, and
// afterwards the server must hold exactly one answer per key it acknowledged: a benchmark that
// loses answers fails. Figures go to stdout and to bench/results/.
import { randomBytes, randomUUID } from 'node:crypto'
import os from 'node:os'
import type autocannon from 'autocannon'
import type { FormAnalytics, PublicForm, SubmissionsPage } from '../packages/contracts/src/forms.ts'
import type { Database } from '../packages/contracts/src/workspaces.ts'
import {
	aboutRun,
	createThrowAwayDatabase,
	findPostgres,
	hasFailures,
	type LoadMeasurement,
	measureLoad,
	positiveIntegerFromEnv,
	printAligned,
	progress,
	type RunningServer,
	type RunStart,
	round,
	runBenchmark,
	scratchFolder,
	signUp,
	startBareHono,
	startBlocksmithServer,
	startCeilingServer,
	wasInterrupted,
	writeResults,
} from './bench-kit.ts'

const submitPath = '/api/submissions'
const viewsPath = '/api/views'

const settings = {
	connections: positiveIntegerFromEnv('BENCH_CONNECTIONS', 50),
	durationSeconds: positiveIntegerFromEnv('BENCH_SECONDS', 10),
	warmupSeconds: 2,
	pipelining: 1,
	// At warn the figures show the request path, not pino's I/O. Rate limits off because 50
	// clients answering one form from one address is exactly what they stop, and no minimum
	// fill time because a benchmark client answers in microseconds. Production as `npm start`.
	serverEnv: {
		NODE_ENV: 'production',
		LOG_LEVEL: 'warn',
		RATE_LIMITS: 'false',
		FORM_MIN_FILL_SECONDS: '0',
	},
	/** How long to watch the delivery backlog once the load stops (a figure; still behind does not fail). */
	drainSeconds: positiveIntegerFromEnv('BENCH_DRAIN_SECONDS', 30),
	/** How long view counts may take to reach the database (the server flushes them every 5 s). */
	viewsFlushWaitSeconds: 20,
}

/** What an answer holds, by the part it plays; the bare run sends the same shapes under made-up ids. */
type AnswerRole = 'title' | 'number' | 'text'

/** What request bodies are built from: the real form's, or made-up ids of the same sizes. */
type FormTarget = { formId: string; renderToken: string; fields: Array<{ id: string; role: AnswerRole }> }

/**
 * The keys sent and what came back. A key still in flight when a run stops was abandoned by
 * the load generator: the server may or may not have stored it.
 */
type SubmissionTally = { inFlight: Map<string, string>; created: number; duplicates: number; nextNumber: number }

/** View beacons sent and answered with a 2xx; the difference was in flight when a run stopped. */
type ViewTally = { sent: number; accepted: number }

type SubmissionsCheck = {
	/** 201s during warm-up, run and the probe before them. */
	acknowledged: number
	/** 200s during the load: a key answered as already stored, which unique keys never should be. */
	duplicatesDuringLoad: number
	/** Keys in flight when a run stopped, sent again: the server says whether it had stored them. */
	inFlightAtStop: { sentAgain: number; alreadyStored: number; storedNow: number; refused: number }
	/** Answers the server holds for the form, and how many it should (every key acknowledged once). */
	stored: number
	expected: number
	deliveries: {
		/** Delivery states right after the load, then once nothing is pending or the wait ran out. */
		whenLoadStopped: Record<string, number>
		afterWaiting: Record<string, number>
		waitedSeconds: number
		caughtUp: boolean
		/** The backlog's pace once the load stopped; null when there was none. */
		deliveredPerSecondAfterLoad: number | null
	}
	problems: string[]
}

type ViewsCheck = {
	acknowledged: number
	inFlightAtStop: number
	counted: number
	/** Each question's drop-off count (every beacon reached them all). */
	reached: number[]
	problems: string[]
}

type ServerRuns = {
	database: 'PGlite' | 'PostgreSQL'
	/** The two-row INSERT transaction alone on the same kind of database, measured just before. */
	ceiling: LoadMeasurement
	submissions: LoadMeasurement
	submissionStatusCodes: Record<string, number>
	submissionsCheck: SubmissionsCheck
	views: LoadMeasurement
	/** Bare Hono's views just before and just after this server's: the beacon's baseline. */
	viewsBare: { before: LoadMeasurement; after: LoadMeasurement; requestsPerSecond: number }
	viewsCheck: ViewsCheck
	form: { database: string; fields: string[] }
}

async function main(start: RunStart): Promise<number> {
	const postgres = await findPostgres()
	progress(
		`${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s per run, ${os.cpus().length} CPUs`,
	)

	// The baseline is measured before and after the real server, so drift on a busy machine
	// shows up instead of silently skewing the ratio.
	const bareBefore = await measureBare('before')
	const pglite = await measureBlocksmith('PGlite', undefined)
	const postgresRuns = postgres.url ? await measureBlocksmith('PostgreSQL', postgres.url) : undefined
	const bareAfter = await measureBare('after')

	const servers = [pglite, postgresRuns].filter((runs) => runs !== undefined)
	const baseline = {
		submissions: (bareBefore.submissions.requestsPerSecond + bareAfter.submissions.requestsPerSecond) / 2,
	}
	const loadFailures = [
		bareBefore.submissions,
		...servers.flatMap((runs) => [
			runs.ceiling,
			runs.submissions,
			runs.views,
			runs.viewsBare.before,
			runs.viewsBare.after,
		]),
		bareAfter.submissions,
	].filter(hasFailures)
	const checkFailures = servers.flatMap((runs) => [
		...runs.submissionsCheck.problems.map((problem) => `${runs.submissions.name}: ${problem}`),
		...runs.viewsCheck.problems.map((problem) => `${runs.views.name}: ${problem}`),
	])

	printTable([
		{ run: bareBefore.submissions },
		...servers.flatMap((runs) => [
			{ run: runs.ceiling, vsBare: runs.ceiling.requestsPerSecond / baseline.submissions },
			{
				run: runs.submissions,
				vsBare: runs.submissions.requestsPerSecond / baseline.submissions,
				vsCeiling: runs.submissions.requestsPerSecond / runs.ceiling.requestsPerSecond,
			},
		]),
		{ run: bareAfter.submissions },
		...servers.flatMap((runs) => [
			{ run: runs.viewsBare.before },
			{ run: runs.views, vsBare: runs.views.requestsPerSecond / runs.viewsBare.requestsPerSecond },
			{ run: runs.viewsBare.after },
		]),
	])
	for (const runs of servers) {
		printChecks(runs)
	}
	console.log(
		`baseline drift: after/before = ${(bareAfter.submissions.requestsPerSecond / bareBefore.submissions.requestsPerSecond).toFixed(2)} (submissions), ` +
			`${servers.map((runs) => `${(runs.viewsBare.after.requestsPerSecond / runs.viewsBare.before.requestsPerSecond).toFixed(2)} (views around ${runs.database})`).join(', ')}; ` +
			`load average at start ${start.loadAverageAtStart.toFixed(2)}`,
	)

	const report = {
		benchmark: 'forms-submit',
		description: `POST ${submitPath} (a unique idempotency key each) and POST ${viewsPath} (a view and the three questions it reached per beacon) on a published form, against a bare Hono handler parsing the same bodies at the same paths`,
		passed: loadFailures.length === 0 && checkFailures.length === 0,
		...aboutRun(start, ['apps/', 'packages/']),
		settings: {
			connections: settings.connections,
			durationSeconds: settings.durationSeconds,
			warmupSeconds: settings.warmupSeconds,
			pipelining: settings.pipelining,
			server: settings.serverEnv,
			deliveriesWatchedSeconds: settings.drainSeconds,
			loadGenerator: `autocannon in the benchmark process; each server in its own process on 127.0.0.1`,
		},
		baseline: {
			submissions: {
				requestsPerSecond: round(baseline.submissions, 1),
				before: bareBefore.submissions,
				after: bareAfter.submissions,
			},
		},
		runs: servers.flatMap((runs) => [
			{
				...runs.ceiling,
				endpoint: `POST ${submitPath} (ceiling-submissions.server.ts)`,
				database: runs.database,
				ratioToBare: round(runs.ceiling.requestsPerSecond / baseline.submissions, 3),
			},
			{
				...runs.submissions,
				endpoint: `POST ${submitPath}`,
				database: runs.database,
				ratioToBare: round(runs.submissions.requestsPerSecond / baseline.submissions, 3),
				ratioToCeiling: round(runs.submissions.requestsPerSecond / runs.ceiling.requestsPerSecond, 3),
				statusCodes: runs.submissionStatusCodes,
				form: runs.form,
				check: runs.submissionsCheck,
			},
			{
				...runs.views,
				endpoint: `POST ${viewsPath}`,
				database: runs.database,
				ratioToBare: round(runs.views.requestsPerSecond / runs.viewsBare.requestsPerSecond, 3),
				bareAround: runs.viewsBare,
				check: runs.viewsCheck,
			},
		]),
		...(postgres.url ? {} : { postgresSkipped: postgres.reason }),
	}
	writeResults(report)

	if (loadFailures.length > 0) {
		console.error(
			`FAILED: errors (timeouts included) or non-2xx answers in ${loadFailures.map((run) => run.name).join(', ')}`,
		)
	}
	for (const failure of checkFailures) {
		console.error(`FAILED: ${failure}`)
	}
	return loadFailures.length + checkFailures.length > 0 ? 1 : 0
}

async function measureBare(when: 'before' | 'after'): Promise<{ submissions: LoadMeasurement }> {
	const server = await startBareHono()
	try {
		const target = madeUpTarget()
		const submissions = await measureLoad(
			`submissions · bare Hono (${when})`,
			settings,
			submissionLoad(server, target, newSubmissionTally()),
		)
		return { submissions: submissions.measurement }
	} finally {
		await server.stop()
	}
}

/**
 * The ceiling: only the submission's two-row INSERT transaction, on a database of its own of the
 * same kind (a throw-away PostgreSQL database, or PGlite in a fresh data folder), loaded with
 * the same bodies as the real server (made-up ids: it checks nothing).
 */
async function measureCeiling(database: 'PGlite' | 'PostgreSQL', postgresUrl: string | undefined) {
	const store = postgresUrl ? await createThrowAwayDatabase(postgresUrl) : undefined
	const folder = postgresUrl ? undefined : scratchFolder()
	const server = await startCeilingServer(
		`submissions ceiling (${database})`,
		'ceiling-submissions.server.ts',
		store ? { DATABASE_URL: store.url } : { DATA_DIR: folder?.dir ?? '' },
	)
	try {
		const submissions = await measureLoad(
			`submissions · ceiling · ${database}`,
			settings,
			submissionLoad(server, madeUpTarget(), newSubmissionTally()),
		)
		return submissions.measurement
	} finally {
		await server.stop()
		await store?.drop()
		await folder?.remove()
	}
}

/** Made-up ids and a token of the real ones' sizes, so every server gets requests of the same size. */
function madeUpTarget(): FormTarget {
	return {
		formId: randomUUID(),
		renderToken: `${Date.now()}.${randomBytes(32).toString('base64url')}`,
		fields: [
			{ id: randomUUID(), role: 'title' },
			{ id: randomUUID(), role: 'number' },
			{ id: randomUUID(), role: 'text' },
		],
	}
}

/** The real server on a fresh data folder, and on a throw-away PostgreSQL database when given one. */
async function measureBlocksmith(
	database: 'PGlite' | 'PostgreSQL',
	postgresUrl: string | undefined,
): Promise<ServerRuns> {
	const ceiling = await measureCeiling(database, postgresUrl)
	const server = await startBlocksmithServer({ postgresUrl, env: settings.serverEnv })
	const bare = await startBareHono()
	try {
		const setup = await setUpForm(server.url)
		const submissionTally = newSubmissionTally()
		// One answer before the load: a form the answers do not fit fails here, not as 50 × 10 s of 400s.
		await probeSubmission(server.url, setup.target, submissionTally)

		// Views first: the deliveries the submissions queue run on after the load and would skew them.
		// The beacon's work is a few microseconds, so its ratio swings with the machine's pace
		// over the minutes between the first and last bare runs: it is compared with bare Hono
		// measured right before and right after it (an idle bare server meanwhile costs nothing).
		const viewTally = newViewTally()
		const bareBefore = await measureLoad(
			`views · bare Hono (before ${database})`,
			settings,
			viewLoad(bare, madeUpTarget(), newViewTally()),
		)
		const views = await measureLoad(`views · ${database}`, settings, viewLoad(server, setup.target, viewTally))
		const bareAfter = await measureLoad(
			`views · bare Hono (after ${database})`,
			settings,
			viewLoad(bare, madeUpTarget(), newViewTally()),
		)
		const viewsBare = {
			before: bareBefore.measurement,
			after: bareAfter.measurement,
			requestsPerSecond: round(
				(bareBefore.measurement.requestsPerSecond + bareAfter.measurement.requestsPerSecond) / 2,
				1,
			),
		}
		const viewsCheck = await checkViews(server.url, setup, viewTally)

		const submissions = await measureLoad(
			`submissions · ${database}`,
			settings,
			submissionLoad(server, setup.target, submissionTally),
		)
		const submissionsCheck = await checkSubmissions(server.url, setup, submissionTally)

		const hasProblems =
			hasFailures(views.measurement) ||
			hasFailures(submissions.measurement) ||
			viewsCheck.problems.length + submissionsCheck.problems.length > 0
		if (hasProblems && !wasInterrupted()) {
			const output = server.outputTail()
			console.error(
				output ? `${database}: the server's last output:\n${output}` : `${database}: the server logged nothing at warn`,
			)
		}
		return {
			database,
			ceiling,
			submissions: submissions.measurement,
			submissionStatusCodes: submissions.statusCounts,
			submissionsCheck,
			views: views.measurement,
			viewsBare,
			viewsCheck,
			form: setup.described,
		}
	} finally {
		await bare.stop()
		await server.stop()
	}
}

// ---- the form, through the real API -------------------------------------------------------------

type FormSetup = {
	token: string
	formId: string
	target: FormTarget
	described: { database: string; fields: string[] }
}

/**
 * A new account, a sample local workspace and a published form on one of its databases, trimmed
 * to a title, a number and a text field (only the title required), so answers are simple.
 */
async function setUpForm(baseUrl: string): Promise<FormSetup> {
	const token = await signUp(baseUrl)
	const call = apiCaller(baseUrl, token)
	const { workspace } = await call<{ workspace: { id: string } }>('POST', '/dashboard/workspaces/sample', 201)
	const databases = await call<Database[]>('GET', `/dashboard/local/databases?workspaceId=${workspace.id}`, 200)
	const hasType = (database: Database, type: string) => database.properties.some((p) => p.type === type)
	// The sample's Projects has all three kinds; any database with a title will do otherwise.
	const database =
		databases.find((candidate) => hasType(candidate, 'number') && hasType(candidate, 'rich_text')) ?? databases[0]
	if (!database) {
		throw new Error('the sample workspace has no databases')
	}
	const created = await call<{ id: string; fields: Array<{ id: string; propertyId: string; kind: string }> }>(
		'POST',
		'/dashboard/forms',
		201,
		{ name: 'Bench form', databaseId: database.id },
	)
	const typeOf = new Map(database.properties.map((property) => [property.id, property.type]))
	const title = created.fields.find((field) => typeOf.get(field.propertyId) === 'title')
	const number = created.fields.find((field) => field.kind === 'number')
	const text = created.fields.find(
		(field) => (field.kind === 'short_text' || field.kind === 'long_text') && field !== title,
	)
	if (!title) {
		throw new Error(`the form on "${database.name}" has no title field`)
	}
	const kept = [title, number, text].filter((field) => field !== undefined)
	await call('PATCH', `/dashboard/forms/${created.id}`, 200, {
		fields: kept.map((field) => ({ ...field, required: field === title })),
		published: true,
	})

	const page = await call<PublicForm>('GET', `/api/forms/${created.id}`, 200)
	if (!page.acceptingResponses || !page.fields) {
		throw new Error(`the published form does not take answers: ${JSON.stringify(page)}`)
	}
	const roleOf = (id: string): AnswerRole => (id === title.id ? 'title' : id === number?.id ? 'number' : 'text')
	return {
		token,
		formId: page.id,
		target: {
			formId: page.id,
			renderToken: page.renderToken,
			fields: page.fields.map((field) => ({ id: field.id, role: roleOf(field.id) })),
		},
		described: {
			database: database.name,
			fields: page.fields.map((field) => `${field.label} (${field.kind}${field.required ? ', required' : ''})`),
		},
	}
}

/** A JSON call with the bearer token that must answer `expected`; anything else stops the run. */
function apiCaller(baseUrl: string, token: string) {
	return async <T = unknown>(method: string, pathAndQuery: string, expected: number, body?: unknown): Promise<T> => {
		const response = await fetch(`${baseUrl}${pathAndQuery}`, {
			method,
			headers: {
				authorization: `Bearer ${token}`,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			...(body === undefined ? {} : { body: JSON.stringify(body) }),
		})
		if (response.status !== expected) {
			throw new Error(`${method} ${pathAndQuery}: ${response.status} ${await response.text()}`)
		}
		return (await response.json()) as T
	}
}

// ---- the load ---------------------------------------------------------------------------------

function newSubmissionTally(): SubmissionTally {
	return { inFlight: new Map(), created: 0, duplicates: 0, nextNumber: 1 }
}

function newViewTally(): ViewTally {
	return { sent: 0, accepted: 0 }
}

/** A submission's body under a key of its own: a counter, prefixed per server so keys never repeat. */
function submissionBody(target: FormTarget, key: string, number: number): string {
	const answers: Record<string, unknown> = {}
	for (const field of target.fields) {
		answers[field.id] =
			field.role === 'title' ? `Bench ${number}` : field.role === 'number' ? number : 'Sent by the forms benchmark'
	}
	return JSON.stringify({ formId: target.formId, answers, idempotencyKey: key, renderToken: target.renderToken })
}

/**
 * Each request gets its body as it is sent (autocannon's setupRequest), so every one carries a
 * new idempotency key; the per-request context pairs the answer with its key (one request in
 * flight per connection). The bare run builds its bodies the same way, so the load generator
 * does the same work in both.
 */
function submissionLoad(server: RunningServer, target: FormTarget, tally: SubmissionTally): autocannon.Options {
	const keyPrefix = `bench-${randomBytes(4).toString('hex')}`
	return {
		url: server.url,
		// A visitor's browser waits far longer than autocannon's 10 s default (and the form page
		// retries with the same key); a slower answer shows in p99 and max, not as a lost request.
		timeout: 30,
		requests: [
			{
				method: 'POST',
				path: submitPath,
				headers: { 'content-type': 'application/json' },
				setupRequest: (request, context) => {
					const number = tally.nextNumber++
					const key = `${keyPrefix}-${number}`
					const body = submissionBody(target, key, number)
					;(context as { key?: string }).key = key
					tally.inFlight.set(key, body)
					return { ...request, body }
				},
				onResponse: (status, _body, context) => {
					const key = (context as { key?: string }).key
					if (key) {
						tally.inFlight.delete(key)
					}
					if (status === 201) {
						tally.created++
					} else if (status === 200) {
						tally.duplicates++
					}
				},
			},
		],
	}
}

/**
 * View beacons for the form, each as a paged visit sends them: the view and the three questions it
 * reached (drop-off). The body is the same each time, built per request only to count what was sent.
 */
function viewLoad(server: RunningServer, target: FormTarget, tally: ViewTally): autocannon.Options {
	const body = JSON.stringify({
		events: [
			{ formId: target.formId, kind: 'view' },
			...target.fields.map((field) => ({ formId: target.formId, kind: 'reach', step: field.id })),
		],
	})
	return {
		url: server.url,
		requests: [
			{
				method: 'POST',
				path: viewsPath,
				headers: { 'content-type': 'application/json' },
				setupRequest: (request) => {
					tally.sent++
					return { ...request, body }
				},
				onResponse: (status) => {
					if (status >= 200 && status < 300) {
						tally.accepted++
					}
				},
			},
		],
	}
}

async function probeSubmission(baseUrl: string, target: FormTarget, tally: SubmissionTally): Promise<void> {
	const number = tally.nextNumber++
	const response = await postSubmission(baseUrl, submissionBody(target, `bench-probe-${number}`, number))
	if (response.status !== 201) {
		throw new Error(`a first submission was refused: ${response.status} ${response.text}`)
	}
	tally.created++
}

async function postSubmission(baseUrl: string, body: string): Promise<{ status: number; text: string }> {
	const response = await fetch(`${baseUrl}${submitPath}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body,
	})
	return { status: response.status, text: await response.text() }
}

// ---- what the server kept ---------------------------------------------------------------------

/**
 * Every key the server acknowledged must be stored exactly once, and nothing else. Keys still in
 * flight when a run stopped are sent again first: the server answers 200 if it had stored one
 * (the first request got through) and 201 if not (it stores it now), so afterwards each of them
 * is stored once too, and the count must come out exact. Then the delivery backlog is watched.
 */
async function checkSubmissions(baseUrl: string, setup: FormSetup, tally: SubmissionTally): Promise<SubmissionsCheck> {
	const readPage = () =>
		apiCaller(baseUrl, setup.token)<SubmissionsPage>('GET', `/dashboard/forms/${setup.formId}/submissions?limit=1`, 200)
	const stoppedAt = Date.now()
	const atStop = await readPage()
	const problems: string[] = []
	const inFlightAtStop = { sentAgain: 0, alreadyStored: 0, storedNow: 0, refused: 0 }
	for (const body of tally.inFlight.values()) {
		inFlightAtStop.sentAgain++
		const response = await postSubmission(baseUrl, body)
		if (response.status === 200) {
			inFlightAtStop.alreadyStored++
		} else if (response.status === 201) {
			inFlightAtStop.storedNow++
		} else {
			inFlightAtStop.refused++
		}
	}
	if (inFlightAtStop.refused > 0) {
		problems.push(`${inFlightAtStop.refused} submissions sent again were refused`)
	}
	if (tally.duplicates > 0) {
		problems.push(`${tally.duplicates} submissions under new keys were answered as duplicates`)
	}
	const afterResending = await readPage()
	const stored = afterResending.total
	const expected = tally.created + inFlightAtStop.sentAgain - inFlightAtStop.refused
	if (stored !== expected) {
		problems.push(`the server holds ${stored} answers; it acknowledged ${expected}`)
	}

	// Deliveries run concurrently with the load; the backlog it leaves is a figure, not a
	// failure (every answer is stored, and the sweep re-queues what is left). A failed local
	// write is a failure: nothing outside the server can refuse it.
	progress(`${setup.formId}: waiting up to ${settings.drainSeconds} s for the deliveries to catch up`)
	let counts = afterResending.counts
	for (;;) {
		if ((counts.pending ?? 0) === 0 || Date.now() - stoppedAt > settings.drainSeconds * 1000 || wasInterrupted()) {
			break
		}
		await new Promise((resolve) => setTimeout(resolve, 250))
		counts = (await readPage()).counts
	}
	const waitedSeconds = (Date.now() - stoppedAt) / 1000
	const undelivered = (counts.failed ?? 0) + (counts.dead ?? 0)
	if (undelivered > 0) {
		problems.push(`${undelivered} deliveries failed`)
	}
	const deliveredSince = (counts.delivered ?? 0) - (atStop.counts.delivered ?? 0)
	return {
		acknowledged: tally.created,
		duplicatesDuringLoad: tally.duplicates,
		inFlightAtStop,
		stored,
		expected,
		deliveries: {
			whenLoadStopped: atStop.counts,
			afterWaiting: counts,
			waitedSeconds: round(waitedSeconds, 1),
			caughtUp: (counts.pending ?? 0) === 0,
			deliveredPerSecondAfterLoad: (atStop.counts.pending ?? 0) > 0 ? round(deliveredSince / waitedSeconds, 1) : null,
		},
		problems,
	}
}

/**
 * Views are counted in memory and flushed in batches, and a beacon in flight when a run stopped
 * may or may not have counted: the count must reach every acknowledged beacon and stay within
 * those plus the ones in flight.
 */
async function checkViews(baseUrl: string, setup: FormSetup, tally: ViewTally): Promise<ViewsCheck> {
	const call = apiCaller(baseUrl, setup.token)
	const inFlightAtStop = tally.sent - tally.accepted
	const deadline = Date.now() + settings.viewsFlushWaitSeconds * 1000
	let counted = 0
	let reached: number[] = []
	for (;;) {
		const analytics = await call<FormAnalytics>('GET', `/dashboard/forms/${setup.formId}/analytics`, 200)
		counted = analytics.views
		// Every beacon also reached each question: each question's count must match the views'.
		reached = analytics.steps.filter((step) => step.kind === 'question').map((step) => step.reached)
		const isDone = counted >= tally.accepted && reached.every((count) => count >= tally.accepted)
		if (isDone || Date.now() > deadline || wasInterrupted()) {
			break
		}
		await new Promise((resolve) => setTimeout(resolve, 500))
	}
	const problems: string[] = []
	for (const [name, count] of [
		['views', counted] as const,
		...reached.map((count) => ['reaches of a question', count] as const),
	]) {
		if (count < tally.accepted) {
			problems.push(
				`${count} ${name} counted after ${settings.viewsFlushWaitSeconds} s; ${tally.accepted} acknowledged`,
			)
		} else if (count > tally.accepted + inFlightAtStop) {
			problems.push(`${count} ${name} counted; only ${tally.accepted + inFlightAtStop} were sent`)
		}
	}
	if (reached.length !== setup.target.fields.length) {
		problems.push(`${reached.length} questions in drop-off; the form has ${setup.target.fields.length}`)
	}
	return { acknowledged: tally.accepted, inFlightAtStop, counted, reached, problems }
}

/** The load runs as a table: requests/s over the bare baseline's, and submissions over their ceiling's. */
function printTable(rows: Array<{ run: LoadMeasurement; vsBare?: number; vsCeiling?: number }>): void {
	const header = ['', 'req/s', 'mean ms', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'non-2xx', 'vs bare', 'vs ceiling']
	const ratio = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(3))
	printAligned(
		header,
		rows.map(({ run, vsBare, vsCeiling }) => [
			run.name,
			Math.round(run.requestsPerSecond).toLocaleString('en-US'),
			run.latencyMs.mean.toFixed(2),
			run.latencyMs.p50.toFixed(2),
			run.latencyMs.p99.toFixed(2),
			run.latencyMs.max.toFixed(1),
			String(run.errors + run.warmup.errors),
			String(run.non2xx + run.warmup.non2xx),
			ratio(vsBare),
			ratio(vsCeiling),
		]),
	)
}

function printChecks(runs: ServerRuns): void {
	const number = (value: number) => value.toLocaleString('en-US')
	const check = runs.submissionsCheck
	const { deliveries } = check
	const states = (counts: Record<string, number>) =>
		Object.entries(counts)
			.map(([state, count]) => `${number(count)} ${state}`)
			.join(', ')
	console.log(
		`${runs.database}: ${number(check.acknowledged)} submissions acknowledged` +
			` + ${check.inFlightAtStop.sentAgain} in flight when a run stopped, sent again` +
			` (${check.inFlightAtStop.alreadyStored} already stored, ${check.inFlightAtStop.storedNow} stored then):` +
			` ${number(check.stored)} stored, ${number(check.expected)} expected`,
	)
	console.log(
		`${runs.database}: deliveries when the load stopped: ${states(deliveries.whenLoadStopped)}` +
			(deliveries.deliveredPerSecondAfterLoad === null
				? ''
				: `; ${deliveries.waitedSeconds} s later: ${states(deliveries.afterWaiting)} (${deliveries.deliveredPerSecondAfterLoad}/s)`),
	)
	console.log(
		`${runs.database}: ${number(runs.viewsCheck.acknowledged)} views acknowledged + ${runs.viewsCheck.inFlightAtStop}` +
			` in flight when a run stopped: ${number(runs.viewsCheck.counted)} counted, each question reached ` +
			`${runs.viewsCheck.reached.map((count) => number(count)).join(' / ')} times`,
	)
}

await runBenchmark('the server', main)
