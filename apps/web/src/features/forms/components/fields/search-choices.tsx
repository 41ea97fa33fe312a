import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react'
import { controlClasses } from '#src/components/ui/control-classes.ts'
import { describedBy, FieldFrame, type FormChoice, type ReferenceFieldProps } from './field-frame.tsx'
import { chosenOf } from './field-values.ts'

// A search-only people or relation question (its owner's choice, so visitors never see the whole
// list): loaded only by forms that have one, to keep the public page small.

/** A wait after typing before searching, so a word is one request rather than one per letter. */
const searchDelayMs = 250

/**
 * What a search-only question needs typed before it asks (`searchOnlyChoices` in contracts/forms.ts,
 * not imported: that module brings zod, which the public page never loads).
 */
const minSearchChars = 2
/** The server gives a search-only question at most this many matches. */
const maxSearchResults = 10

type Search =
	| { status: 'short' }
	| { status: 'searching'; query: string }
	| { status: 'ready'; query: string; choices: FormChoice[] }
	| { status: 'failed'; query: string }

/**
 * A search-only people or relation question: a combobox whose list opens on matches of what is
 * typed (from two letters, at most ten). Each keystroke cancels the search under way and waits
 * a moment before asking again. Arrow keys move through the matches, Enter picks or unpicks
 * one (several may be chosen), Escape closes the list; what is chosen shows above, each with a
 * button to remove it.
 */
export function SearchOnlyField(props: ReferenceFieldProps) {
	const { field, value, onChange, controlId, loadChoices } = props
	const selected = chosenOf(value)
	const [text, setText] = useState('')
	const [search, setSearch] = useState<Search>({ status: 'short' })
	const [isOpen, setIsOpen] = useState(false)
	const [activeIndex, setActiveIndex] = useState(-1)
	const labels = useRef(new Map<string, string>())
	const pending = useRef<{ timer?: ReturnType<typeof setTimeout>; controller?: AbortController }>({})
	const latestField = useRef(field)
	latestField.current = field
	const inputRef = useRef<HTMLInputElement>(null)

	const cancel = useCallback(() => {
		clearTimeout(pending.current.timer)
		pending.current.controller?.abort()
		pending.current = {}
	}, [])
	useEffect(() => cancel, [cancel])

	function ask(typed: string): void {
		cancel()
		const query = typed.trim()
		setActiveIndex(-1)
		if (query.length < minSearchChars || !loadChoices) {
			setSearch({ status: 'short' })
			return
		}
		setSearch({ status: 'searching', query })
		const controller = new AbortController()
		const timer = setTimeout(() => {
			loadChoices(latestField.current, query, controller.signal).then(
				(found) => {
					if (controller.signal.aborted) {
						return
					}
					const choices = found.slice(0, maxSearchResults)
					for (const choice of choices) {
						labels.current.set(choice.id, choice.label)
					}
					setSearch({ status: 'ready', query, choices })
				},
				(error: unknown) => {
					if (!controller.signal.aborted && (error as Error).name !== 'AbortError') {
						setSearch({ status: 'failed', query })
					}
				},
			)
		}, searchDelayMs)
		pending.current = { timer, controller }
	}

	const choices = search.status === 'ready' ? search.choices : []
	const isExpanded = isOpen && choices.length > 0
	const listId = `${controlId}-choices`
	const statusId = `${controlId}-status`
	const optionId = (index: number) => `${controlId}-choice-${index}`
	const noun = field.kind === 'people' ? 'people' : 'items'

	const toggle = (choice: FormChoice) => {
		labels.current.set(choice.id, choice.label)
		onChange(selected.includes(choice.id) ? selected.filter((id) => id !== choice.id) : [...selected, choice.id])
	}

	function onKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
		if (event.nativeEvent.isComposing) {
			return
		}
		const last = choices.length - 1
		if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
			// The list's keys, not the page's (one question at a time moves on with the arrows).
			event.preventDefault()
			if (choices.length === 0) {
				return
			}
			setIsOpen(true)
			const step = event.key === 'ArrowDown' ? 1 : -1
			setActiveIndex((current) => {
				if (!isExpanded || current < 0) {
					return step === 1 ? 0 : last
				}
				return Math.min(last, Math.max(0, current + step))
			})
			return
		}
		const active = isExpanded && activeIndex >= 0 ? choices[activeIndex] : undefined
		if (event.key === 'Enter' && active) {
			// Picks the match instead of sending the form.
			event.preventDefault()
			toggle(active)
			return
		}
		if (event.key === 'Escape' && isExpanded) {
			event.preventDefault()
			setIsOpen(false)
			setActiveIndex(-1)
		}
	}

	let status: string
	if (!loadChoices) {
		status = `Visitors type at least ${minSearchChars} letters to find the ${noun} to choose from.`
	} else if (search.status === 'short') {
		status = `Type at least ${minSearchChars} letters to search.`
	} else if (search.status === 'searching') {
		status = 'Searching…'
	} else if (search.status === 'failed') {
		status = ''
	} else if (search.choices.length === 0) {
		status = `Nothing matches “${search.query}”.`
	} else if (search.choices.length >= maxSearchResults) {
		status = `The first ${maxSearchResults} matches. Type more to narrow them down.`
	} else {
		status = search.choices.length === 1 ? '1 match.' : `${search.choices.length} matches.`
	}

	return (
		<FieldFrame {...props}>
			{selected.length > 0 ? (
				<ul aria-label={`Chosen for ${field.label}`} className="flex flex-wrap gap-1.5">
					{selected.map((id) => {
						const label = labels.current.get(id) ?? id
						return (
							<li
								key={id}
								className="inline-flex min-h-8 items-center gap-1 rounded-md border border-primary bg-primary/5 py-0.5 pr-0.5 pl-2.5 text-foreground text-sm"
							>
								<span className="min-w-0 break-words">{label}</span>
								<button
									type="button"
									aria-label={`Remove ${label}`}
									className="inline-flex size-7 shrink-0 items-center justify-center rounded text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
									onClick={() => onChange(selected.filter((candidate) => candidate !== id))}
								>
									<svg
										aria-hidden="true"
										viewBox="0 0 24 24"
										fill="none"
										stroke="currentColor"
										strokeWidth="2"
										className="size-3.5"
									>
										<path d="M6 6l12 12M18 6L6 18" />
									</svg>
								</button>
							</li>
						)
					})}
				</ul>
			) : null}
			<div className="relative">
				<input
					ref={inputRef}
					id={controlId}
					type="text"
					role="combobox"
					value={text}
					aria-expanded={isExpanded}
					aria-controls={listId}
					aria-autocomplete="list"
					aria-activedescendant={isExpanded && activeIndex >= 0 ? optionId(activeIndex) : undefined}
					aria-describedby={[describedBy(props), statusId].filter(Boolean).join(' ')}
					aria-invalid={props.error ? true : undefined}
					aria-required={field.required || undefined}
					placeholder={field.placeholder || `Type ${minSearchChars} letters to search…`}
					autoComplete="off"
					spellCheck={false}
					className={`${controlClasses} h-10 py-1 sm:h-9 pointer-coarse:h-10`}
					onChange={(event) => {
						setText(event.target.value)
						setIsOpen(true)
						ask(event.target.value)
					}}
					onKeyDown={onKeyDown}
					onFocus={() => setIsOpen(true)}
					onBlur={() => {
						setIsOpen(false)
						setActiveIndex(-1)
					}}
				/>
				<div
					id={listId}
					role="listbox"
					aria-label={field.label}
					aria-multiselectable="true"
					hidden={!isExpanded}
					className={`${isExpanded ? 'grid' : 'hidden'} absolute inset-x-0 top-full z-10 mt-1 max-h-64 gap-0.5 overflow-y-auto overscroll-contain rounded-md border border-input bg-background p-1 shadow-md dark:bg-background`}
				>
					{choices.map((choice, index) => {
						const isChosen = selected.includes(choice.id)
						return (
							// biome-ignore lint/a11y/useFocusableInteractive lint/a11y/useKeyWithClickEvents: options are reached from the combobox with the arrow keys and Enter (aria-activedescendant), never focused themselves.
							<div
								key={choice.id}
								id={optionId(index)}
								role="option"
								aria-selected={isChosen}
								data-active={index === activeIndex || undefined}
								className="flex min-h-10 cursor-pointer items-center gap-2 rounded px-2.5 py-1.5 text-foreground text-sm hover:bg-accent data-active:bg-accent data-active:outline-2 data-active:outline-ring/50"
								// Keeps focus in the input: the list is driven from there.
								onMouseDown={(event) => event.preventDefault()}
								onClick={() => {
									setActiveIndex(index)
									toggle(choice)
								}}
							>
								<span
									aria-hidden="true"
									className={`flex size-4 shrink-0 items-center justify-center rounded-sm border ${isChosen ? 'border-primary bg-primary text-primary-foreground' : 'border-input'}`}
								>
									{isChosen ? (
										<svg
											aria-hidden="true"
											viewBox="0 0 24 24"
											fill="none"
											stroke="currentColor"
											strokeWidth="3"
											className="size-3"
										>
											<path d="M5 12l5 5L20 7" />
										</svg>
									) : null}
								</span>
								<span className="min-w-0 break-words">{choice.label}</span>
							</div>
						)
					})}
				</div>
			</div>
			{selected.length > 0 ? <p className="text-[13px] text-muted-foreground">{selected.length} chosen</p> : null}
			<p id={statusId} role="status" className="text-[13px] text-muted-foreground empty:hidden">
				{status}
			</p>
			{search.status === 'failed' ? (
				<p role="alert" className="flex flex-wrap items-center gap-x-2 text-[13px] text-error">
					Couldn't search the choices.
					<button
						type="button"
						className="text-link underline-offset-4 hover:underline"
						onClick={() => {
							// Back to the box, so the matches open where the keys work.
							inputRef.current?.focus()
							ask(search.query)
						}}
					>
						Try again
					</button>
				</p>
			) : null}
		</FieldFrame>
	)
}
