import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { controlClasses } from '#src/components/ui/control-classes.ts'
import {
	describedBy,
	type FormChoice,
	GroupFrame,
	type LoadChoices,
	OptionRow,
	type ReferenceFieldProps,
} from './field-frame.tsx'
import { chosenOf } from './field-values.ts'

export type { LoadChoices }

// People and relation fields: the choices live in the workspace (members, rows of the related
// database), so they are searched rather than listed in full. Several may be chosen; the answer
// is their ids. What is chosen stays at the top of the list whatever the search shows. A
// search-only question (its owner's choice) lists nothing until two letters are typed, then at
// most ten matches, in an ARIA combobox.

/** A wait after typing before searching, so a word is one request rather than one per letter. */
const searchDelayMs = 250

/** The server sends at most this many choices (workspaces.public.ts). */
const choicesLimit = 100

type Loaded = { status: 'loading' } | { status: 'ready'; choices: FormChoice[] } | { status: 'failed' }

/** A people or relation question: a searchable list, or (search-only) a combobox that lists nothing until searched. */
export function ReferenceField(props: ReferenceFieldProps) {
	if (!props.field.searchOnly) {
		return <ListedField {...props} />
	}
	return (
		<Suspense fallback={<div className="h-16" />}>
			<SearchOnlyField {...props} />
		</Suspense>
	)
}

// Only forms with a search-only question load its combobox.
const SearchOnlyField = lazy(() =>
	import('./search-choices.tsx').then((module) => ({ default: module.SearchOnlyField })),
)

function ListedField(props: ReferenceFieldProps) {
	const { field, value, onChange, controlId, loadChoices } = props
	const selected = chosenOf(value)
	const [search, setSearch] = useState('')
	// A new object asks again, even for the same words (the Retry button).
	const [request, setRequest] = useState({ query: '' })
	const query = request.query
	const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' })
	// Names of everything seen, so a choice keeps its name when a later search no longer lists it.
	const labels = useRef(new Map<string, string>())
	// The choices come from the field's kind and database only: in the builder's preview a new
	// label (a new field object on every keystroke) must not read them again.
	const latestField = useRef(field)
	latestField.current = field
	const { id: fieldId, kind, relationDatabaseId } = field

	useEffect(() => {
		if (search === query) {
			return
		}
		const timer = setTimeout(() => setRequest({ query: search }), searchDelayMs)
		return () => clearTimeout(timer)
	}, [search, query])

	useEffect(() => {
		if (!loadChoices) {
			return
		}
		const controller = new AbortController()
		setLoaded({ status: 'loading' })
		const source = { ...latestField.current, id: fieldId, kind, relationDatabaseId }
		loadChoices(source, request.query, controller.signal).then(
			(choices) => {
				for (const choice of choices) {
					labels.current.set(choice.id, choice.label)
				}
				setLoaded({ status: 'ready', choices })
			},
			(error: unknown) => {
				if (!controller.signal.aborted && (error as Error).name !== 'AbortError') {
					setLoaded({ status: 'failed' })
				}
			},
		)
		return () => controller.abort()
	}, [loadChoices, fieldId, kind, relationDatabaseId, request])

	const listId = `${controlId}-choices`
	const results = loaded.status === 'ready' ? loaded.choices : []
	const rows: FormChoice[] = [
		...selected.map((id) => ({ id, label: labels.current.get(id) ?? id })),
		...results.filter((choice) => !selected.includes(choice.id)),
	]
	const toggle = (id: string, isChecked: boolean) =>
		onChange(isChecked ? [...selected, id] : selected.filter((candidate) => candidate !== id))
	const noun = field.kind === 'people' ? 'people' : 'items'

	let status: string | null = null
	if (!loadChoices) {
		status = `The ${noun} to choose from appear on the published form.`
	} else if (loaded.status === 'loading') {
		status = 'Loading choices…'
	} else if (loaded.status === 'ready' && loaded.choices.length === 0) {
		status = query ? `Nothing matches “${query}”.` : `There are no ${noun} to choose from.`
	} else if (loaded.status === 'ready' && loaded.choices.length >= choicesLimit) {
		status = `Showing the first ${choicesLimit}. Search to find others.`
	}

	return (
		<GroupFrame {...props}>
			<input
				id={controlId}
				type="search"
				value={search}
				aria-label={`Search ${field.label}`}
				aria-controls={listId}
				aria-describedby={describedBy(props)}
				aria-invalid={props.error ? true : undefined}
				placeholder={field.placeholder || 'Search…'}
				autoComplete="off"
				className={`${controlClasses} h-10 py-1 sm:h-9 pointer-coarse:h-10`}
				onChange={(event) => setSearch(event.target.value)}
			/>
			{selected.length > 0 ? <p className="text-[13px] text-muted-foreground">{selected.length} chosen</p> : null}
			<div id={listId} className="grid max-h-64 gap-1.5 overflow-y-auto overscroll-contain p-0.5">
				{rows.map((choice) => (
					<OptionRow
						key={choice.id}
						type="checkbox"
						name={field.id}
						value={choice.id}
						checked={selected.includes(choice.id)}
						onChange={(event) => toggle(choice.id, event.target.checked)}
					>
						{choice.label}
					</OptionRow>
				))}
			</div>
			<p role="status" className="text-[13px] text-muted-foreground empty:hidden">
				{status}
			</p>
			{loaded.status === 'failed' ? (
				<p role="alert" className="flex flex-wrap items-center gap-x-2 text-[13px] text-error">
					Couldn't load the choices.
					<button
						type="button"
						className="text-link underline-offset-4 hover:underline"
						onClick={() => setRequest({ query })}
					>
						Try again
					</button>
				</p>
			) : null}
		</GroupFrame>
	)
}
