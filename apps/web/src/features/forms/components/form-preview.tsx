import { type ChoiceScope, type PublicForm, searchOnlyChoices } from '@blocksmith/contracts/forms.ts'
import type { Row, WorkspaceUser } from '@blocksmith/contracts/workspaces.ts'
import { CircleSlash } from 'lucide-react'
import { useCallback, useRef } from 'react'
import { api } from '#src/lib/api-client.ts'
import { searchRows } from '#src/workspaces/api/workspaces.ts'
import { FormView, type LoadChoices } from './form-view.tsx'
import { ThemeRoot } from './theme-root.tsx'

type FormPreviewProps = {
	form: PublicForm
	workspaceId: string
	/** Each relation or people field's "Choices visitors may see", which the public form never carries. */
	scopes?: Readonly<Record<string, ChoiceScope>>
}

/** The choices a scope lets through, as the public reads give them (search only: 10 after two letters). */
function scoped<T extends { id: string }>(choices: T[], scope: ChoiceScope | undefined, search: string): T[] {
	if (scope?.mode === 'subset') {
		const allowed = new Set(scope.ids)
		return choices.filter((choice) => allowed.has(choice.id))
	}
	if (scope?.mode === 'search') {
		return search.trim().length < searchOnlyChoices.minChars ? [] : choices.slice(0, searchOnlyChoices.maxResults)
	}
	return choices
}

/**
 * The draft as visitors will see it, to try out: nothing is sent. People and linked rows come
 * from the dashboard's own reads (the public ones answer only for a published form).
 */
export function FormPreview({ form, workspaceId, scopes = {} }: FormPreviewProps) {
	const people = useRef<Promise<WorkspaceUser[]> | null>(null)
	// Read through a ref, so that the loader keeps its identity; the view restarts when a scope changes.
	const scopesRef = useRef(scopes)
	scopesRef.current = scopes
	const loadChoices = useCallback<LoadChoices>(
		async (field, search) => {
			const scope = scopesRef.current[field.id]
			if (field.kind === 'people') {
				people.current ??= api<WorkspaceUser[]>(`/dashboard/${form.tool}/users`, { query: { workspaceId } }).catch(
					(error: unknown) => {
						people.current = null
						throw error
					},
				)
				const needle = search.trim().toLowerCase()
				const everyone = (await people.current)
					.filter((user) => user.type === 'person' && (!needle || user.name.toLowerCase().includes(needle)))
					.map((user) => ({ id: user.id, label: user.name }))
				return scoped(everyone, scope, search)
			}
			if (!field.relationDatabaseId) {
				return []
			}
			// A relation holds the rows' workspace ids (Notion page ids), as the public choices do.
			const rows =
				scope?.mode === 'filter'
					? (
							await api<{ rows: Row[] }>(
								`/dashboard/${form.tool}/databases/${encodeURIComponent(field.relationDatabaseId)}/rows`,
								{
									query: { limit: 20, search: search.trim() || undefined, filter: JSON.stringify(scope.filters) },
								},
							)
						).rows
					: await searchRows({ tool: form.tool, databaseId: field.relationDatabaseId, search })
			return scoped(
				rows.map((row) => ({ id: row.externalId, label: row.title || 'Untitled' })),
				scope,
				search,
			)
		},
		[form.tool, workspaceId],
	)
	// What a visitor has typed into the preview resets when the fields' set, kinds or defaults
	// change; wording edits show at once without losing it.
	const structure = JSON.stringify(
		(form.fields ?? []).map((field) => [
			field.id,
			field.kind,
			field.includeTime,
			field.defaultValue,
			// A changed scope changes the choices offered: they load again.
			scopes[field.id] ?? null,
		]),
	)
	const { theme } = form
	// Closed, the page shows only the closed message; the preview still shows the fields to edit
	// them, with a note saying what visitors get.
	const isClosed = !form.acceptingResponses
	return (
		// Dark as chosen; a light form in a dark dashboard shows dark (the dashboard's mode reaches in).
		<div
			className={`rounded-xl p-3 ${theme.mode === 'dark' ? 'dark' : ''} ${theme.backgroundColor ? '' : 'bg-muted/40'}`}
			style={theme.backgroundColor ? { backgroundColor: theme.backgroundColor } : undefined}
		>
			{isClosed ? (
				<p
					role="note"
					className="mb-3 flex items-start gap-2 rounded-lg border border-warning/40 bg-background p-2.5 text-foreground text-sm"
				>
					<CircleSlash aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />
					<span>
						The form is closed: visitors see the closed message
						{form.closedMessage ? <> (“{form.closedMessage}”)</> : null} instead of these fields.
					</span>
				</p>
			) : null}
			<ThemeRoot theme={theme}>
				<FormView
					key={structure}
					form={isClosed ? { ...form, acceptingResponses: true } : form}
					mode="preview"
					loadChoices={loadChoices}
					headingLevel={2}
				/>
			</ThemeRoot>
			{theme.showBranding ? (
				<p className="mt-3 text-center text-muted-foreground text-xs">Made with Blocksmith</p>
			) : null}
		</div>
	)
}
