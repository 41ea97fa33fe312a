import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import { formSubmissions } from '#src/features/forms/forms.schema.ts'
import { announceFile, fieldOf, publishedEnquiryForm, submitAnswers } from '#src/test/forms.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// Public pages of an organization whose subscription stops: its published form, chart and
// dashboard answer 409 UNAVAILABLE with a neutral detail (nothing of billing), their downloads
// and the form's answers included, and serve again the moment it resumes. A form whose
// organization used up the month's answers reads as closed, yet an answer sent anyway is taken.

let t: TestApp
const dist = mkdtempSync(path.join(os.tmpdir(), 'bs-public-dist-'))

beforeAll(async () => {
	const page = '<!doctype html><html><head><title>Default</title></head><body><div id="root"></div></body></html>'
	writeFileSync(path.join(dist, 'index.html'), page)
	writeFileSync(path.join(dist, 'form.html'), page)
	writeFileSync(path.join(dist, 'chart.html'), page)
	t = await createTestApp({ BILLING_TRIAL_PLAN: 'starter', FORM_MIN_FILL_SECONDS: '0', WEB_DIST_DIR: dist })
})
afterAll(async () => {
	await t.close()
	rmSync(dist, { recursive: true, force: true })
})

const billingWords = /plan|subscri|billing|pay|paus|trial|upgrade|limit|starter/i
const pdf = { name: 'brief.pdf', type: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1.7 a brief') }

async function orgOf(token: string): Promise<string> {
	const details = await t.request('GET', '/dashboard/users/get_org_details', { token })
	return details.body.id as string
}

/** A published form, a published chart (downloads allowed) and a published dashboard showing it. */
async function publishedEverything() {
	const account = await t.signUp()
	const { form, databases } = await publishedEnquiryForm(t, account.token)
	const token = account.token
	const chart = await t.request('POST', '/dashboard/local_charts/charts', {
		token,
		json: { name: 'Projects', databaseId: (databases.Projects as { id: string }).id },
	})
	expect(chart.status).toBe(201)
	const chartId = chart.body.id as string
	const published = await t.request('PATCH', `/dashboard/local_charts/charts/${chartId}`, {
		token,
		json: { published: true, embed: { allowDownloads: true } },
	})
	expect(published.status).toBe(200)
	const dashboard = await t.request('POST', '/dashboard/charts/dashboards', {
		token,
		json: { name: 'Overview', chartIds: [chartId] },
	})
	expect(dashboard.status).toBe(201)
	const dashboardId = dashboard.body.id as string
	await t.request('PATCH', `/dashboard/charts/dashboards/${dashboardId}`, { token, json: { published: true } })
	return { token, form, chartId, dashboardId }
}

/** Every public read of the three, and what they answer. */
async function publicReads(ids: { formId: string; chartId: string; dashboardId: string }) {
	const { formId, chartId, dashboardId } = ids
	const paths = [
		`/api/forms/${formId}`,
		`/forms/${formId}`,
		`/api/local_charts/charts/${chartId}`,
		`/api/local_charts/charts/${chartId}/image.png`,
		`/api/local_charts/charts/${chartId}/image.svg`,
		`/api/local_charts/charts/${chartId}/figures.csv`,
		`/charts/${chartId}`,
		`/api/charts/dashboards/${dashboardId}`,
		`/api/charts/dashboards/${dashboardId}/tiles/0`,
		`/charts/dashboards/${dashboardId}`,
	]
	const responses = []
	for (const pathname of paths) {
		responses.push({ pathname, ...(await t.request('GET', pathname)) })
	}
	return responses
}

const act = (token: string, action: string) =>
	t.request('POST', `/api/subscriptions/${action}`, { token, json: {} }).then((response) => {
		expect(response.status, JSON.stringify(response.body)).toBe(200)
	})

describe('a paused organization', () => {
	test('its form, chart and dashboard answer UNAVAILABLE, answers included, and serve again on resume', async () => {
		const { token, form, chartId, dashboardId } = await publishedEverything()
		const ids = { formId: form.id, chartId, dashboardId }
		// Served, and the state kept in memory: the pause must reach visitors at once all the same.
		for (const read of await publicReads(ids)) {
			expect(read.status, read.pathname).toBe(200)
		}
		const rendered = await t.request('GET', `/api/forms/${form.id}`)
		const answer = (renderToken: string) =>
			t.request('POST', '/api/submissions', {
				ip: '198.51.100.9',
				json: {
					formId: form.id,
					answers: { [fieldOf(form, 'Name').id]: 'Ada' },
					idempotencyKey: randomUUID(),
					renderToken,
				},
			})

		await act(token, 'end_trial_and_bill')
		await act(token, 'pause_subscription')
		for (const read of await publicReads(ids)) {
			expect(read.status, read.pathname).toBe(409)
			// No cache may keep the refusal past the resume.
			expect(read.headers.get('cache-control') ?? '', read.pathname).not.toMatch(/public/)
			const text = typeof read.body === 'string' ? read.body : JSON.stringify(read.body)
			if (read.pathname.startsWith('/api/')) {
				expect(read.body).toMatchObject({ code: 'UNAVAILABLE', detail: 'This page is unavailable right now.' })
				expect(read.body.detail).not.toMatch(billingWords)
			} else {
				// The server-written page carries the same code for its script, and no billing either.
				expect(text, read.pathname).toContain('"code":"UNAVAILABLE"')
				expect(text, read.pathname).not.toMatch(/billing|subscription|paused|upgrade/i)
			}
		}
		// An answer to the page served before the pause: the owner stopped everything, answers too.
		const refused = await answer(rendered.body.renderToken)
		expect(refused.status).toBe(409)
		expect(refused.body).toMatchObject({ code: 'UNAVAILABLE', detail: 'This page is unavailable right now.' })
		const upload = await announceFile(t, form.id, fieldOf(form, 'Attachments').id, pdf)
		expect(upload.status).toBe(409)
		expect(upload.body.code).toBe('UNAVAILABLE')

		await act(token, 'resume_subscription')
		for (const read of await publicReads(ids)) {
			expect(read.status, read.pathname).toBe(200)
		}
		const taken = await answer(rendered.body.renderToken)
		expect(taken.status, JSON.stringify(taken.body)).toBe(201)
	})
})

describe('the month’s answers used up', () => {
	test('the form reads as closed with its own message before anyone types; an answer sent anyway is taken', async () => {
		const account = await t.signUp()
		const orgId = await orgOf(account.token)
		const { form } = await publishedEnquiryForm(t, account.token)
		await t.db.execute(sql`
			insert into ${formSubmissions} (id, organization_id, form_id, idempotency_key, answers)
			select gen_random_uuid()::text, ${orgId}, ${form.id}, gen_random_uuid()::text, '{}'::jsonb
			from generate_series(1, 1000)`)

		const page = await t.request('GET', `/api/forms/${form.id}`)
		expect(page.status).toBe(200)
		expect(page.body).toMatchObject({
			acceptingResponses: false,
			closedMessage: 'This form is closed and no longer accepts answers.',
		})
		expect(JSON.stringify(page.body)).not.toMatch(/plan|upgrade|subscri/i)
		const html = await t.request('GET', `/forms/${form.id}`)
		expect(html.status).toBe(200)
		expect(html.body).toContain('"acceptingResponses":false')

		// Sent from a page served before the limit was reached (or kept open in a tab): never lost.
		const sent = await submitAnswers(t, form, { [fieldOf(form, 'Name').id]: 'Late but kept' })
		expect(sent.status, JSON.stringify(sent.body)).toBe(201)
	})
})

describe('storage full', () => {
	test("a visitor's file is refused with a neutral 409 the form page shows, nothing of the plan", async () => {
		const account = await t.signUp()
		const orgId = await orgOf(account.token)
		const { form } = await publishedEnquiryForm(t, account.token)
		await t.db.insert(blobs).values({
			id: randomUUID(),
			organizationId: orgId,
			key: `${orgId}/${randomUUID()}`,
			filename: 'archive.zip',
			contentType: 'application/zip',
			byteSize: 1024 ** 3,
			checksum: 'AAAAAAAAAAAAAAAAAAAAAA==',
			status: 'uploaded',
		})
		const refused = await announceFile(t, form.id, fieldOf(form, 'Attachments').id, pdf)
		expect(refused.status).toBe(409)
		expect(refused.body).toMatchObject({ code: 'UNAVAILABLE', detail: 'This form cannot take files right now.' })
		expect(refused.body.limit).toBeUndefined()
		// The form itself still takes answers without files.
		const sent = await submitAnswers(t, form, { [fieldOf(form, 'Name').id]: 'No file' })
		expect(sent.status).toBe(201)
	})
})
