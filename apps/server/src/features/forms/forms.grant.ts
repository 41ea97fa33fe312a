import { AppError } from '#src/lib/errors.ts'
import type { PublicGrant, PublicScopeRequest } from '#src/workspaces/workspaces.deps.ts'
import { grantOfFields } from './forms.choices.ts'
import type { FormsDeps } from './forms.deps.ts'
import { findPublicForm, isUnlocked } from './forms.public.ts'

// What a published form lets anonymous visitors read of its workspace (workspaces.public.ts).

/**
 * What a published form lets visitors read: for the relation or people question named by
 * `request.field`, the choices its scope allows (related rows' titles, or people's names);
 * without a question, those of its questions that list every choice (forms.choices.ts). The scope
 * is `form:<id>` or, for a password-protected form, `form:<id>.<unlock token>`.
 */
export async function formGrant(
	deps: FormsDeps,
	scope: string,
	request: PublicScopeRequest = {},
): Promise<PublicGrant | null> {
	const separator = scope.indexOf('.')
	const idOrSlug = separator > 0 ? scope.slice(0, separator) : scope
	const token = separator > 0 ? scope.slice(separator + 1) : undefined
	let found: Awaited<ReturnType<typeof findPublicForm>>
	try {
		found = await findPublicForm(deps, idOrSlug)
	} catch (error) {
		if (error instanceof AppError) {
			return null
		}
		throw error
	}
	const { form, database } = found
	if (!database || !isUnlocked(deps, form, token)) {
		return null
	}
	return grantOfFields(form, database, request.field)
}
