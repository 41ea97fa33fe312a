import { randomUUID } from 'node:crypto'
import {
	type FormTemplate,
	isTemplateQuestion,
	templateFieldInput,
	templateQuestions,
} from '@blocksmith/contracts/form-templates.ts'
import { type FormField, fieldKindsByPropertyType, formFieldSchema } from '@blocksmith/contracts/forms.ts'
import type { Property, PropertyInput } from '@blocksmith/contracts/workspaces.ts'
import { and, asc, eq } from 'drizzle-orm'
import { AppError, found } from '#src/lib/errors.ts'
import type { WorkspaceCtx } from '#src/workspaces/workspaces.deps.ts'
import { workspaceDatabases, workspaces } from '#src/workspaces/workspaces.schema.ts'
import { createLocalDatabase, createLocalWorkspace } from '#src/workspaces/workspaces.service.ts'

// A template's questions as a form's fields, and the built-in database a new form can get made for
// it (the template's properties, or a lone "Name" title when starting from scratch). The caller
// runs all of it in one transaction with the form itself (forms.service.ts).

/** The name of the built-in workspace made for a form when the organization has none. */
const formsWorkspaceName = 'Forms'

/** The properties a template's questions write: the title first (as databases list it), then in the form's order. */
export function templatePropertyInputs(template: FormTemplate): PropertyInput[] {
	const questions = templateQuestions(template)
	const ordered = [
		...questions.filter((question) => question.property.type === 'title'),
		...questions.filter((question) => question.property.type !== 'title'),
	]
	return ordered.map((question) => ({
		name: question.property.name,
		type: question.property.type,
		...(question.property.format ? { format: question.property.format } : {}),
		...(question.kind === 'select' || question.kind === 'multi_select'
			? { options: (question.choices ?? []).map((name) => ({ name })) }
			: {}),
	}))
}

/** A database started from scratch: one title, asked as "Name". */
export const scratchPropertyInputs: PropertyInput[] = [{ name: 'Name', type: 'title' }]

/**
 * A template's items as fields of a form on a database with `properties`: each question takes the
 * property of its name (case-insensitive) when the property's type allows its kind and no earlier
 * question took it; the others are kept with the answers only. Content writes nothing.
 */
export function templateFields(template: FormTemplate, properties: Property[]): FormField[] {
	const taken = new Set<string>()
	return template.items.map((item) => {
		let propertyId: string | null = null
		if (isTemplateQuestion(item)) {
			const wanted = item.property.name.toLowerCase()
			const property = properties.find(
				(candidate) =>
					candidate.name.toLowerCase() === wanted &&
					!taken.has(candidate.id) &&
					(fieldKindsByPropertyType[candidate.type] ?? []).includes(item.kind),
			)
			if (property) {
				taken.add(property.id)
				propertyId = property.id
			}
		}
		return formFieldSchema.parse(templateFieldInput(item, randomUUID(), propertyId))
	})
}

/**
 * The built-in workspace a new database goes into: the one asked for (it must be a built-in
 * workspace of the organization), else the organization's first, made when there is none.
 */
async function workspaceForDatabase(ctx: WorkspaceCtx, workspaceId: string | undefined): Promise<string> {
	if (workspaceId !== undefined) {
		const [workspace] = await ctx.db
			.select({ id: workspaces.id })
			.from(workspaces)
			.where(
				and(eq(workspaces.id, workspaceId), eq(workspaces.organizationId, ctx.orgId), eq(workspaces.tool, 'local')),
			)
		if (!workspace) {
			throw new AppError('VALIDATION_FAILED', {
				detail: 'Pick one of your built-in workspaces for the new database.',
				errors: [{ field: 'newDatabase.workspaceId', message: 'No such built-in workspace.' }],
			})
		}
		return workspace.id
	}
	const [first] = await ctx.db
		.select({ id: workspaces.id })
		.from(workspaces)
		.where(and(eq(workspaces.organizationId, ctx.orgId), eq(workspaces.tool, 'local')))
		.orderBy(asc(workspaces.createdAt), asc(workspaces.id))
		.limit(1)
	return first?.id ?? (await createLocalWorkspace(ctx, formsWorkspaceName)).id
}

/** `name`, or `name 2`, `name 3`… : the first no database of the workspace has (case-insensitive). */
async function freeDatabaseName(ctx: WorkspaceCtx, workspaceId: string, name: string): Promise<string> {
	const rows = await ctx.db
		.select({ name: workspaceDatabases.name })
		.from(workspaceDatabases)
		.where(eq(workspaceDatabases.workspaceId, workspaceId))
	const taken = new Set(rows.map((row) => row.name.toLowerCase()))
	let candidate = name
	for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) {
		candidate = `${name.slice(0, 190)} ${n}`
	}
	return candidate
}

/** Makes the built-in database of a new form, named after it; `ctx.db` should be the form's transaction. */
export async function createDatabaseForForm(
	ctx: WorkspaceCtx,
	input: { name: string; workspaceId: string | undefined; template: FormTemplate | null },
) {
	const workspaceId = await workspaceForDatabase(ctx, input.workspaceId)
	const database = await createLocalDatabase(ctx, {
		workspaceId,
		name: await freeDatabaseName(ctx, workspaceId, input.name),
		properties: input.template ? templatePropertyInputs(input.template) : scratchPropertyInputs,
	})
	const [record] = await ctx.db.select().from(workspaceDatabases).where(eq(workspaceDatabases.id, database.id))
	return found(record)
}
