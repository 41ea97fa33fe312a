import { Readable } from 'node:stream'
import { isContentKind } from '@blocksmith/contracts/form-kinds.ts'
import { answerText } from '@blocksmith/contracts/form-thanks.ts'
import { and, asc, eq, sql } from 'drizzle-orm'
import Papa from 'papaparse'
import type { ExportContext, ExportContributor } from '#src/core/exports/exports.contributor.ts'
import { archiveName, uniqueName } from '#src/core/exports/exports.names.ts'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import type { FormsCtx, FormsDeps } from './forms.deps.ts'
import { formSlugs, formStepCounts, formSubmissions, forms, formViewCounts, formWebhooks } from './forms.schema.ts'
import { selectSubmissions, toSubmission } from './forms.submissions.ts'

// The forms part of an organization's export (decision 040): under forms/<slug or id>/ each
// form's settings (form.json), every answer (submissions.csv and submissions.json, spam too,
// marked), the files answers carry (files/<submissionId>/<name>) and its counts (analytics.json).
// Deleted forms not purged yet are included, marked deleted: their answers are still kept.
// Never written: the password's hash and the webhooks' signing secrets.

const formsPage = 50
const submissionsPage = 500

type FormRow = typeof forms.$inferSelect

export function createFormsExport(deps: FormsDeps): ExportContributor {
	return { label: 'Forms and answers', run: (context) => exportForms(deps, context) }
}

async function exportForms(deps: FormsDeps, context: ExportContext): Promise<void> {
	const { db, organizationId, archive } = context
	// The submissions list's query, as this organization (no member: nothing here checks a role).
	const ctx: FormsCtx = { ...deps, db, orgId: organizationId, userId: '', role: 'owner' }
	const folders = new Set<string>()
	for (let offset = 0; ; offset += formsPage) {
		const page = await db
			.select()
			.from(forms)
			.where(eq(forms.organizationId, organizationId))
			.orderBy(asc(forms.createdAt), asc(forms.id))
			.limit(formsPage)
			.offset(offset)
		for (const form of page) {
			const folder = `forms/${uniqueName(archiveName(form.slug ?? form.id), folders)}`
			await archive.addJson(`${folder}/form.json`, await settingsOf(context, form))
			const submissionIds = await addSubmissions(ctx, context, form, folder)
			archive.record('submissions', submissionIds)
			archive.record('files', await addFiles(context, form, folder))
			await archive.addJson(`${folder}/analytics.json`, await analyticsOf(context, form.id))
		}
		archive.record(
			'forms',
			page.map((form) => form.id),
		)
		if (page.length < formsPage) {
			break
		}
	}
}

/** The form as saved, without its password's hash; its slugs and webhooks (URLs, never secrets). */
async function settingsOf(context: ExportContext, form: FormRow) {
	const { passwordHash, passwordVersion: _, ...settings } = form
	const slugs = await context.db
		.select({ slug: formSlugs.slug, createdAt: formSlugs.createdAt })
		.from(formSlugs)
		.where(eq(formSlugs.formId, form.id))
		.orderBy(asc(formSlugs.createdAt))
	const webhooks = await context.db
		.select({
			id: formWebhooks.id,
			url: formWebhooks.url,
			enabled: formWebhooks.enabled,
			createdAt: formWebhooks.createdAt,
		})
		.from(formWebhooks)
		.where(and(eq(formWebhooks.formId, form.id), eq(formWebhooks.organizationId, context.organizationId)))
		.orderBy(asc(formWebhooks.createdAt))
	return {
		...settings,
		isDeleted: form.deletedAt !== null,
		hasPassword: passwordHash !== null,
		slugs: slugs.map((row) => row.slug),
		webhooks,
	}
}

/** Pages of the form's answers, oldest first, each as the submissions list shows it. */
async function* submissionPages(ctx: FormsCtx, formId: string) {
	for (let offset = 0; ; offset += submissionsPage) {
		const rows = await selectSubmissions(ctx)
			.where(and(eq(formSubmissions.formId, formId), eq(formSubmissions.organizationId, ctx.orgId)))
			.orderBy(asc(formSubmissions.createdAt), asc(formSubmissions.id))
			.limit(submissionsPage)
			.offset(offset)
		if (rows.length > 0) {
			yield rows.map(toSubmission)
		}
		if (rows.length < submissionsPage) {
			return
		}
	}
}

/**
 * submissions.csv (the columns of the submissions screen's CSV, with the answer's id, spam
 * included and marked by its delivery state) and submissions.json (every answer as stored), each
 * streamed a page at a time. Answers the ids of the submissions written.
 */
async function addSubmissions(ctx: FormsCtx, context: ExportContext, form: FormRow, folder: string) {
	const questions = form.fields.filter((field) => !isContentKind(field.kind))
	const ids: string[] = []
	async function* csv() {
		const header = ['Submission', 'Submitted at', ...questions.map((field) => field.label)]
		yield `\uFEFF${Papa.unparse([[...header, 'Delivery', 'Delivery error', 'Row']], { escapeFormulae: true })}\r\n`
		for await (const page of submissionPages(ctx, form.id)) {
			const records = page.map((submission) => [
				submission.id,
				submission.createdAt,
				...questions.map((field) => answerText(submission.answers[field.id], field)),
				submission.delivery.state,
				submission.delivery.error ?? '',
				submission.delivery.rowUrl ?? '',
			])
			ids.push(...page.map((submission) => submission.id))
			yield `${Papa.unparse(records, { header: false, escapeFormulae: true })}\r\n`
		}
	}
	async function* json() {
		yield '[\n'
		let isFirst = true
		for await (const page of submissionPages(ctx, form.id)) {
			for (const submission of page) {
				yield `${isFirst ? '' : ',\n'}${JSON.stringify(submission)}`
				isFirst = false
			}
		}
		yield '\n]\n'
	}
	await context.archive.addFile(`${folder}/submissions.csv`, Readable.from(csv()))
	await context.archive.addFile(`${folder}/submissions.json`, Readable.from(json()))
	return ids
}

/** The files attached to the form's answers (claimed by them), by answer and name; their blob ids. */
async function addFiles(context: ExportContext, form: FormRow, folder: string): Promise<string[]> {
	const { db, archive, organizationId } = context
	const ids: string[] = []
	const names = new Map<string, Set<string>>()
	for (let offset = 0; ; offset += submissionsPage) {
		const page = await db
			.select({ id: blobs.id, key: blobs.key, filename: blobs.filename, submissionId: formSubmissions.id })
			.from(blobs)
			.innerJoin(formSubmissions, sql`${blobs.claimedBy} = 'form-submission:' || ${formSubmissions.id}`)
			.where(
				and(
					eq(blobs.organizationId, organizationId),
					eq(formSubmissions.organizationId, organizationId),
					eq(formSubmissions.formId, form.id),
					eq(blobs.status, 'uploaded'),
				),
			)
			.orderBy(asc(formSubmissions.id), asc(blobs.createdAt), asc(blobs.id))
			.limit(submissionsPage)
			.offset(offset)
		for (const blob of page) {
			const taken = names.get(blob.submissionId) ?? new Set()
			names.set(blob.submissionId, taken)
			const name = uniqueName(archiveName(blob.filename), taken, blob.id)
			if (await archive.addStored(`${folder}/files/${archiveName(blob.submissionId)}/${name}`, blob.key)) {
				ids.push(blob.id)
			} else {
				context.log.warn({ blobId: blob.id }, 'export: an answer file is missing from storage')
			}
		}
		if (page.length < submissionsPage) {
			return ids
		}
	}
}

/** Views and starts per day (UTC), and how many visits reached each step, over the form's life. */
async function analyticsOf(context: ExportContext, formId: string) {
	const day = sql<string>`to_char(${formViewCounts.hour} at time zone 'UTC', 'YYYY-MM-DD')`
	const days = await context.db
		.select({
			day,
			views: sql<number>`sum(${formViewCounts.views})::int`,
			starts: sql<number>`sum(${formViewCounts.starts})::int`,
		})
		.from(formViewCounts)
		.where(eq(formViewCounts.formId, formId))
		.groupBy(day)
		.orderBy(day)
	const steps = await context.db
		.select({ step: formStepCounts.step, reached: sql<number>`sum(${formStepCounts.reached})::int` })
		.from(formStepCounts)
		.where(eq(formStepCounts.formId, formId))
		.groupBy(formStepCounts.step)
		.orderBy(formStepCounts.step)
	return { days, steps }
}
