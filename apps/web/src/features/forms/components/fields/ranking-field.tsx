import { type DragEvent, type KeyboardEvent, useRef, useState } from 'react'
import { type FieldProps, GroupFrame } from './field-frame.tsx'

// A ranking: the choices in a list the visitor puts in order, by dragging a row (the browser's own
// drag and drop, no library) or with each row's up and down buttons (which also answer the arrow
// keys, Home and End). Every move is announced. The answer is the whole order; until the visitor
// orders it (or keeps the order shown), the question counts as unanswered.

const moveButtonClasses =
	'inline-flex size-9 shrink-0 items-center justify-center rounded-md border border-input bg-background text-foreground transition-colors hover:bg-accent focus-visible:outline-hidden focus-visible:ring-3 focus-visible:ring-ring/40 disabled:pointer-events-none disabled:opacity-40 dark:bg-input/20'

function Arrow({ direction }: { direction: 'up' | 'down' }) {
	return (
		<svg
			aria-hidden="true"
			viewBox="0 0 24 24"
			fill="none"
			stroke="currentColor"
			strokeWidth="2"
			strokeLinecap="round"
			strokeLinejoin="round"
			className="size-4"
		>
			<path d={direction === 'up' ? 'm18 15-6-6-6 6' : 'm6 9 6 6 6-6'} />
		</svg>
	)
}

function moved(order: string[], from: number, to: number): string[] {
	const next = [...order]
	const [item] = next.splice(from, 1)
	next.splice(to, 0, item as string)
	return next
}

export function RankingField(props: FieldProps) {
	const { field, value, onChange, controlId } = props
	const options = field.options ?? []
	// Its own two lines rather than field-values' chosenOf: importing that from this lazy chunk would
	// split field-values out of the page's main chunk, which costs the first load more.
	const chosen = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
	const isOrdered = chosen.length === options.length && chosen.length > 0
	const order = isOrdered ? chosen : options
	const [announcement, setAnnouncement] = useState('')
	const [dragged, setDragged] = useState<number | null>(null)
	const listRef = useRef<HTMLOListElement>(null)

	const move = (from: number, to: number, focus?: 'up' | 'down') => {
		if (to < 0 || to >= order.length || from === to) {
			return
		}
		const item = order[from] as string
		onChange(moved(order, from, to))
		setAnnouncement(`${item} moved to position ${to + 1} of ${order.length}.`)
		if (focus) {
			// The focus follows the moved row; at an end, to its button that still works.
			const atEnd = (focus === 'up' && to === 0) || (focus === 'down' && to === order.length - 1)
			const button = atEnd ? (focus === 'up' ? 'down' : 'up') : focus
			requestAnimationFrame(() =>
				listRef.current?.querySelector<HTMLButtonElement>(`[data-move="${button}-${to}"]`)?.focus(),
			)
		}
	}

	const onKeyDown = (event: KeyboardEvent, index: number) => {
		const target = { ArrowUp: index - 1, ArrowDown: index + 1, Home: 0, End: order.length - 1 }[event.key]
		if (target === undefined) {
			return
		}
		event.preventDefault()
		move(index, target, target < index ? 'up' : 'down')
	}

	const onDrop = (event: DragEvent, index: number) => {
		event.preventDefault()
		if (dragged !== null) {
			move(dragged, index)
		}
		setDragged(null)
	}

	return (
		<GroupFrame {...props} note={[props.note, 'Drag or use the arrows to order.'].filter(Boolean).join(' ')}>
			<ol ref={listRef} className="grid gap-2" aria-label={`Order of ${field.label}`}>
				{order.map((item, index) => (
					<li
						key={item}
						draggable
						onDragStart={(event) => {
							event.dataTransfer.effectAllowed = 'move'
							// Firefox starts a drag only with some data set.
							event.dataTransfer.setData('text/plain', item)
							setDragged(index)
						}}
						onDragOver={(event) => event.preventDefault()}
						onDrop={(event) => onDrop(event, index)}
						onDragEnd={() => setDragged(null)}
						className={`flex min-h-11 cursor-grab items-center gap-3 rounded-md border bg-background py-1 pr-1 pl-3 text-foreground text-sm dark:bg-input/20 ${dragged === index ? 'border-primary opacity-60' : 'border-input'}`}
					>
						<span
							aria-hidden="true"
							className={`flex size-6 shrink-0 items-center justify-center rounded-full font-medium text-xs tabular-nums ${isOrdered ? 'bg-primary text-primary-foreground' : 'bg-muted text-muted-foreground'}`}
						>
							{index + 1}
						</span>
						<span className="min-w-0 flex-1 break-words">{item}</span>
						<button
							type="button"
							data-move={`up-${index}`}
							className={moveButtonClasses}
							aria-label={`Move ${item} up (position ${index + 1} of ${order.length})`}
							disabled={index === 0}
							onClick={() => move(index, index - 1, 'up')}
							onKeyDown={(event) => onKeyDown(event, index)}
						>
							<Arrow direction="up" />
						</button>
						<button
							type="button"
							// The first row's up button is disabled: its down button is the one the form focuses.
							id={index === 0 ? controlId : undefined}
							data-move={`down-${index}`}
							className={moveButtonClasses}
							aria-label={`Move ${item} down (position ${index + 1} of ${order.length})`}
							disabled={index === order.length - 1}
							onClick={() => move(index, index + 1, 'down')}
							onKeyDown={(event) => onKeyDown(event, index)}
						>
							<Arrow direction="down" />
						</button>
					</li>
				))}
			</ol>
			{!isOrdered && options.length > 0 ? (
				<button
					type="button"
					className="justify-self-start text-[13px] text-link underline-offset-4 hover:underline"
					onClick={() => {
						onChange([...options])
						setAnnouncement('Order kept as shown.')
					}}
				>
					Keep this order
				</button>
			) : null}
			{isOrdered && !field.required ? (
				<button
					type="button"
					className="justify-self-start text-[13px] text-link underline-offset-4 hover:underline"
					onClick={() => {
						onChange([])
						setAnnouncement('Order cleared.')
					}}
				>
					Clear order
				</button>
			) : null}
			{options.length === 0 ? <p className="text-muted-foreground text-sm">No choices to order.</p> : null}
			<p className="sr-only" aria-live="polite">
				{announcement}
			</p>
		</GroupFrame>
	)
}
