import { ArrowDown, ArrowUp, Plus, X } from 'lucide-react'
import { useId } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Input } from '#src/components/ui/input.tsx'

type ChoicesEditorProps = {
	/** Names the group and each input: "Choice 2", "Row 1". */
	legend: string
	noun: string
	items: readonly string[]
	/** At least this many stay (the remove buttons stop there). */
	min?: number
	max: number
	/** The list's error, and each item's by index. */
	error?: string | undefined
	itemError?: (index: number) => string | undefined
	onChange: (items: string[], path: string) => void
}

/** A list of labels to add, rename, reorder and remove: choices, a matrix's rows or columns. */
export function ChoicesEditor({ legend, noun, items, min = 1, max, error, itemError, onChange }: ChoicesEditorProps) {
	const id = useId()
	const replace = (index: number, value: string) => items.map((item, position) => (position === index ? value : item))
	function move(index: number, to: number): void {
		const next = [...items]
		const [item] = next.splice(index, 1)
		if (item !== undefined) {
			next.splice(to, 0, item)
			onChange(next, '')
			requestAnimationFrame(() => document.getElementById(`${id}-${to}`)?.focus())
		}
	}
	return (
		<fieldset className="grid gap-2" aria-describedby={error ? `${id}-error` : undefined}>
			<legend className="mb-2 font-medium text-sm leading-none">{legend}</legend>
			<ol className="grid gap-1.5">
				{items.map((item, index) => {
					const problem = itemError?.(index)
					return (
						// biome-ignore lint/suspicious/noArrayIndexKey: labels may repeat while typed; the position is the identity
						<li key={index} className="grid gap-1">
							<div className="flex items-center gap-1">
								<Input
									id={`${id}-${index}`}
									aria-label={`${noun} ${index + 1}`}
									aria-invalid={problem ? true : undefined}
									aria-describedby={problem ? `${id}-${index}-error` : undefined}
									className="h-8 min-w-0 flex-1"
									maxLength={200}
									value={item}
									onChange={(event) => onChange(replace(index, event.target.value), `${index}`)}
								/>
								<Button
									variant="ghost"
									size="icon-sm"
									aria-label={`Move ${noun.toLowerCase()} ${index + 1} up`}
									disabled={index === 0}
									onClick={() => move(index, index - 1)}
								>
									<ArrowUp aria-hidden />
								</Button>
								<Button
									variant="ghost"
									size="icon-sm"
									aria-label={`Move ${noun.toLowerCase()} ${index + 1} down`}
									disabled={index === items.length - 1}
									onClick={() => move(index, index + 1)}
								>
									<ArrowDown aria-hidden />
								</Button>
								<Button
									variant="ghost"
									size="icon-sm"
									aria-label={`Remove ${noun.toLowerCase()} ${index + 1}`}
									disabled={items.length <= min}
									className="text-muted-foreground hover:text-error"
									onClick={() =>
										onChange(
											items.filter((_, position) => position !== index),
											'',
										)
									}
								>
									<X aria-hidden />
								</Button>
							</div>
							{problem ? (
								<p id={`${id}-${index}-error`} className="text-[13px] text-error">
									{problem}
								</p>
							) : null}
						</li>
					)
				})}
			</ol>
			<Button
				variant="outline"
				size="sm"
				className="w-fit"
				disabled={items.length >= max}
				onClick={() => {
					onChange([...items, `${noun} ${items.length + 1}`], '')
					requestAnimationFrame(() => document.getElementById(`${id}-${items.length}`)?.focus())
				}}
			>
				<Plus aria-hidden /> Add {noun.toLowerCase()}
			</Button>
			{error ? (
				<p id={`${id}-error`} className="text-[13px] text-error">
					{error}
				</p>
			) : null}
		</fieldset>
	)
}
