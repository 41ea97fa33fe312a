import { AppError } from '#src/lib/errors.ts'
import type { PublicGrant } from '#src/workspaces/workspaces.deps.ts'
import type { FormsDeps } from './forms.deps.ts'
import { findPublicForm, isUnlocked } from './forms.public.ts'

// What a published form lets anonymous visitors read of its workspace (workspaces.public.ts).

/**
 * What a published form lets visitors read: the related databases of its relation fields
 * (titles only) and, with a people field, the workspace's people. The scope is
 * `form:<id>` or, for a password-protected form, `form:<id>.<unlock token>`.
 */
export async function formGrant(deps: FormsDeps, scope: string): Promise<PublicGrant | null> {
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
	const properties = new Map(database.properties.map((property) => [property.id, property]))
	const databases = new Map<string, string[]>()
	let hasPeople = false
	for (const field of form.fields) {
		const property = properties.get(field.propertyId)
		if (field.kind === 'relation' && property?.relationDatabaseId) {
			databases.set(property.relationDatabaseId, [])
		}
		hasPeople ||= field.kind === 'people'
	}
	return { orgId: form.organizationId, databases, peopleWorkspaceId: hasPeople ? database.workspaceId : null }
}
