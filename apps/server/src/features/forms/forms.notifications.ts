import { isContentKind } from '@blocksmith/contracts/form-kinds.ts'
import { type AnswerTextField, answerText, fillPlaceholders } from '@blocksmith/contracts/form-thanks.ts'
import { formNotificationsSchema } from '@blocksmith/contracts/forms.ts'
import { and, eq, inArray } from 'drizzle-orm'
import { members, users } from '#src/core/auth/auth.schema.ts'
import type { FormsDeps } from './forms.deps.ts'
import type { forms } from './forms.schema.ts'

// E-mails on each answer, sent by the mail job (retried there): the members chosen on the form
// get the answers and a link to the submissions; the person who answered, when the form asks
// for it, gets a confirmation at the address they gave, with the form's reply-to.

type FormRecord = typeof forms.$inferSelect

/** An answer on its own line of the mail; a dash for none. */
function answerLine(value: unknown, field: AnswerTextField): string {
	return answerText(value, field) || '—'
}

export async function sendSubmissionMails(
	deps: FormsDeps,
	form: FormRecord,
	answers: Record<string, unknown>,
): Promise<void> {
	const notifications = formNotificationsSchema.parse(form.notifications)
	if (notifications.memberIds.length > 0) {
		const recipients = await deps.db
			.select({ email: users.email })
			.from(members)
			.innerJoin(users, eq(users.id, members.userId))
			.where(and(eq(members.organizationId, form.organizationId), inArray(members.userId, notifications.memberIds)))
		// Every question, with a property or without; content (headings, images…) answers nothing.
		const lines = form.fields
			.filter((field) => !isContentKind(field.kind))
			.map((field) => `${field.label}: ${answerLine(answers[field.id], field)}`)
		const text = [
			`A new answer to "${form.name}":`,
			'',
			...lines,
			'',
			`All answers: ${deps.publicUrl}/forms/${form.id}/submissions`,
		].join('\n')
		for (const recipient of recipients) {
			await deps.mail.send({ to: recipient.email, subject: `New answer to ${form.name}`, text })
		}
	}
	const respondent = notifications.respondent
	const address = respondent.enabled && respondent.fieldId ? answers[respondent.fieldId] : undefined
	if (typeof address === 'string' && address.includes('@')) {
		await deps.mail.send({
			to: address,
			subject: fillPlaceholders(respondent.subject, form.fields, answers),
			text: fillPlaceholders(respondent.message, form.fields, answers),
			...(respondent.replyTo ? { replyTo: respondent.replyTo } : {}),
		})
	}
}
