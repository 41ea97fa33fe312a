import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createLogger } from '#src/lib/logger.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { createViewCounter, maxPendingStepsPerForm } from './forms.analytics.ts'
import type { FormsDeps } from './forms.deps.ts'
import { formStepCounts } from './forms.schema.ts'

// Drop-off (issue 19): the page reports each question and page a visit reaches; the counts gather
// in memory with the views and are written per form, hour and step. Analytics give the form's
// pages and questions in order with how many visits reached each and how many went no further.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp({ FORM_MIN_FILL_SECONDS: '0', FORM_VIEW_FLUSH_MS: '50' })
})
afterAll(async () => {
	await t?.close()
})

type Field = { id: string; kind: string; label: string }
type Form = { id: string; fields: Field[] }
type Step = {
	id: string
	kind: 'page' | 'question'
	label: string
	page: number
	reached: number
	dropOff: number | null
}

async function publishedForm(token: string, json: Record<string, unknown>): Promise<Form> {
	const created = await t.request('POST', '/dashboard/forms', { token, json: { newDatabase: {}, ...json } })
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	const published = await t.request('PATCH', `/dashboard/forms/${created.body.id}`, {
		token,
		json: { published: true },
	})
	expect(published.status).toBe(200)
	return published.body
}

function idOf(form: Form, label: string): string {
	const found = form.fields.find((field) => field.label === label)
	if (!found) {
		throw new Error(`no field ${label}`)
	}
	return found.id
}

async function beacon(events: { formId: string; kind: string; step?: string }[]) {
	const response = await t.request('POST', '/api/views', { json: { events } })
	expect(response.status).toBe(202)
}

async function stepsOf(token: string, form: Form): Promise<Step[]> {
	const analytics = await t.request('GET', `/dashboard/forms/${form.id}/analytics?timeZone=UTC`, { token })
	expect(analytics.status).toBe(200)
	return analytics.body.steps
}

describe('drop-off', () => {
	test('a three-page form whose visits stop on page 2: reached and drop-off per page and question', async () => {
		const { token } = await t.signUp()
		const form = await publishedForm(token, { name: 'Careers', template: 'job_application' })
		const pageOne = ['Full name', 'Email', 'Phone', 'Which role are you applying for?', 'Where are you based?']
		const experience = idOf(form, 'Your experience')
		for (let visit = 0; visit < 10; visit += 1) {
			const events = [
				{ formId: form.id, kind: 'view' },
				...pageOne.map((label) => ({ formId: form.id, kind: 'reach', step: idOf(form, label) })),
			]
			if (visit < 6) {
				events.push({ formId: form.id, kind: 'reach', step: experience })
				events.push({ formId: form.id, kind: 'reach', step: idOf(form, 'Years of relevant experience') })
			}
			if (visit < 3) {
				events.push({ formId: form.id, kind: 'reach', step: idOf(form, 'Résumé') })
			}
			await beacon(events)
		}
		// Steps that are no question or page of the form count nothing: made up, a heading, another form's.
		const other = await publishedForm(token, { name: 'Other' })
		await beacon([
			{ formId: form.id, kind: 'reach', step: 'made-up' },
			{ formId: form.id, kind: 'reach', step: idOf(form, 'Apply to join us') },
			{ formId: form.id, kind: 'reach', step: other.fields[0]?.id ?? '' },
		])
		await t.services.forms.views.flush()

		const steps = await stepsOf(token, form)
		const pages = steps.filter((step) => step.kind === 'page')
		expect(pages).toEqual([
			{ id: 'start', kind: 'page', label: 'Apply to join us', page: 1, reached: 10, dropOff: 0 },
			{ id: experience, kind: 'page', label: 'Your experience', page: 2, reached: 6, dropOff: 0 },
			{ id: idOf(form, 'Availability'), kind: 'page', label: 'Availability', page: 3, reached: 0, dropOff: null },
		])
		const byLabel = new Map(steps.map((step) => [step.label, step]))
		expect(byLabel.get('Full name')).toMatchObject({ kind: 'question', page: 1, reached: 10, dropOff: 0 })
		// 10 reached the last question of page 1, 6 the next page.
		expect(byLabel.get('Where are you based?')).toMatchObject({ reached: 10, dropOff: 0.4 })
		expect(byLabel.get('Years of relevant experience')).toMatchObject({ page: 2, reached: 6, dropOff: 0.5 })
		expect(byLabel.get('Résumé')).toMatchObject({ reached: 3, dropOff: 1 })
		expect(byLabel.get('Earliest start date')).toMatchObject({ page: 3, reached: 0, dropOff: null })
		// Content is no step; every question is, in the form's order.
		const questions = form.fields.filter((field) => !['heading', 'paragraph', 'page_break'].includes(field.kind))
		expect(steps.filter((step) => step.kind === 'question').map((step) => step.id)).toEqual(
			questions.map((field) => field.id),
		)
		const stored = await t.db.select().from(formStepCounts).where(eq(formStepCounts.formId, form.id))
		expect(stored.map((row) => row.step).sort()).toEqual(
			[
				...pageOne.map((label) => idOf(form, label)),
				experience,
				idOf(form, 'Years of relevant experience'),
				idOf(form, 'Résumé'),
			].sort(),
		)
		expect(await t.db.select().from(formStepCounts).where(eq(formStepCounts.formId, other.id))).toEqual([])

		// Another day's range has nothing.
		const before = await t.request('GET', `/dashboard/forms/${form.id}/analytics?from=2020-01-01&to=2020-01-31`, {
			token,
		})
		expect(before.body.steps.every((step: Step) => step.reached === 0 || step.id === 'start')).toBe(true)
	})

	test('after the last question the next step is the submission', async () => {
		const { token } = await t.signUp()
		const form = await publishedForm(token, { name: 'Newsletter' })
		const name = idOf(form, 'Name')
		for (let visit = 0; visit < 4; visit += 1) {
			await beacon([
				{ formId: form.id, kind: 'view' },
				{ formId: form.id, kind: 'reach', step: name },
			])
		}
		const page = await t.request('GET', `/api/forms/${form.id}`)
		const submitted = await t.request('POST', '/api/submissions', {
			json: {
				formId: form.id,
				answers: { [name]: 'Ada' },
				idempotencyKey: randomUUID(),
				renderToken: page.body.renderToken,
			},
		})
		expect(submitted.status, JSON.stringify(submitted.body)).toBe(201)
		await t.services.forms.views.flush()
		expect(await stepsOf(token, form)).toEqual([
			{ id: 'start', kind: 'page', label: 'Page 1', page: 1, reached: 4, dropOff: 0 },
			{ id: name, kind: 'question', label: 'Name', page: 1, reached: 4, dropOff: 0.75 },
		])
	})

	test('an unpublished form counts no steps; without visits every step reads null', async () => {
		const { token } = await t.signUp()
		const created = await t.request('POST', '/dashboard/forms', { token, json: { name: 'Draft', newDatabase: {} } })
		const form = created.body as Form
		await beacon([{ formId: form.id, kind: 'reach', step: idOf(form, 'Name') }])
		await t.services.forms.views.flush()
		expect(await stepsOf(token, form)).toEqual([
			{ id: 'start', kind: 'page', label: 'Page 1', page: 1, reached: 0, dropOff: null },
			{ id: idOf(form, 'Name'), kind: 'question', label: 'Name', page: 1, reached: 0, dropOff: null },
		])
	})

	test(`at most ${maxPendingStepsPerForm} distinct steps of a form wait in memory: one more writes them out`, async () => {
		const { token } = await t.signUp()
		const form = await publishedForm(token, { name: 'Bounded', template: 'contact' })
		// A counter of its own that would not flush for an hour by itself.
		const counter = createViewCounter({
			db: t.db,
			log: createLogger('silent'),
			settings: { viewFlushMs: 3_600_000 },
		} as unknown as FormsDeps)
		const [first, second] = [idOf(form, 'Name'), idOf(form, 'Email')]
		const made = Array.from({ length: maxPendingStepsPerForm - 1 }, (_, index) => `made-up-${index}`)
		const held = [first, ...made].map((step) => ({ formId: form.id, kind: 'reach' as const, step }))
		for (let index = 0; index < held.length; index += 20) {
			counter.record({ events: held.slice(index, index + 20) })
		}
		const countOf = async (step: string) =>
			(
				await t.db
					.select()
					.from(formStepCounts)
					.where(and(eq(formStepCounts.formId, form.id), eq(formStepCounts.step, step)))
			)[0]?.reached ?? 0
		expect(await countOf(first)).toBe(0)
		counter.record({ events: [{ formId: form.id, kind: 'reach', step: second }] })
		// The early flush runs in the background: wait for it, without flushing ourselves.
		const deadline = Date.now() + 5000
		while ((await countOf(first)) === 0 && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 20))
		}
		expect(await countOf(first)).toBe(1)
		// The step that did not fit starts the next batch, written at the next flush.
		expect(await countOf(second)).toBe(0)
		await counter.flush()
		expect(await countOf(second)).toBe(1)
	})
})
