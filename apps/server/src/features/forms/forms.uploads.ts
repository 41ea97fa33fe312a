import { formatBytes, isAcceptedFile } from '@blocksmith/contracts/form-files.ts'
import type { FormUpload } from '@blocksmith/contracts/forms.ts'
import type { DirectUploadResponse } from '@blocksmith/contracts/uploads.ts'
import { createDirectUpload } from '#src/core/uploads/uploads.service.ts'
import { AppError } from '#src/lib/errors.ts'
import { enforceRateLimit } from '#src/lib/rate-limit.ts'
import type { FormsDeps } from './forms.deps.ts'
import { formUploadLimits, formUploadScope, uploadRulesOf } from './forms.files.ts'
import { closedMessageOf, findPublicForm, isUnlocked } from './forms.public.ts'

// A visitor's file for a file or signature question (forms.files.ts says how files travel).

/** Announces a visitor's file for a file field of a published form. */
export async function createFormUpload(
	deps: FormsDeps,
	idOrSlug: string,
	input: FormUpload,
	clientIp: string,
): Promise<DirectUploadResponse> {
	const { form, database } = await findPublicForm(deps, idOrSlug)
	const closed = await closedMessageOf(deps, form, database)
	if (closed !== null) {
		throw new AppError('FORM_CLOSED', { detail: closed })
	}
	if (!isUnlocked(deps, form, input.unlockToken)) {
		throw new AppError('PASSWORD_REQUIRED')
	}
	const field = form.fields.find(
		(candidate) => candidate.id === input.fieldId && (candidate.kind === 'files' || candidate.kind === 'signature'),
	)
	if (!field || field.hidden) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field: 'fieldId', message: 'This form has no file or signature field with this id.' }],
		})
	}
	if (deps.rateLimits) {
		await enforceRateLimit(deps.db, `form-upload:${form.id}:${clientIp}`, formUploadLimits.perIp)
		await enforceRateLimit(deps.db, `form-upload:${form.id}`, formUploadLimits.perForm)
	}
	const rules = uploadRulesOf(field)
	if (input.byteSize > rules.maxFileBytes) {
		throw new AppError('PAYLOAD_TOO_LARGE', {
			detail: `"${field.label}" takes files of up to ${formatBytes(rules.maxFileBytes)}.`,
			errors: [{ field: 'byteSize', message: `At most ${rules.maxFileBytes} bytes.` }],
		})
	}
	if (!isAcceptedFile(rules.accept, input.filename, input.contentType)) {
		throw new AppError('UNSUPPORTED_MEDIA_TYPE', {
			detail: `"${field.label}" takes ${rules.accept.join(', ')} files only.`,
			errors: [{ field: 'contentType', message: 'This file type is not accepted here.' }],
		})
	}
	try {
		return await createDirectUpload(
			{ ...deps, maxBytes: deps.uploadMaxBytes },
			{ orgId: form.organizationId, userId: null, scope: formUploadScope(form.id, field.id) },
			input,
		)
	} catch (error) {
		// The plan's storage is full (or the subscription stopped): the visitor is told the form
		// takes no files now, and nothing of the organization's plan.
		if (error instanceof AppError && (error.code === 'PLAN_LIMIT_REACHED' || error.code === 'SUBSCRIPTION_INACTIVE')) {
			throw new AppError('UNAVAILABLE', { detail: 'This form cannot take files right now.' })
		}
		throw error
	}
}
