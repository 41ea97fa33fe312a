import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { ArrowDown, ArrowUp } from 'lucide-react'
import { useId } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Checkbox } from '#src/components/ui/checkbox.tsx'

/**
 * The properties a page shows, in their order: the shown ones first (moved up and down), then the
 * others to add. The title is always shown and is not listed. Nothing else of a row is sent.
 */
export function PropertyPicker({
	label,
	properties,
	value,
	error,
	onChange,
}: {
	label: string
	properties: Property[]
	value: string[]
	error: string | undefined
	onChange: (value: string[]) => void
}) {
	const id = useId()
	const listable = properties.filter((property) => property.type !== 'title')
	const byId = new Map(listable.map((property) => [property.id, property]))
	const shown = value.map((ref) => byId.get(ref) ?? { id: ref, name: ref, type: 'unsupported' as const })
	const others = listable.filter((property) => !value.includes(property.id))
	const move = (index: number, by: number) => {
		const next = [...value]
		const [moved] = next.splice(index, 1)
		if (moved !== undefined) {
			next.splice(index + by, 0, moved)
			onChange(next)
		}
	}
	return (
		<fieldset className="grid gap-2" aria-describedby={error ? `${id}-error` : undefined}>
			<legend className="mb-1 font-medium text-sm">{label}</legend>
			<p className="text-[13px] text-muted-foreground">The title is always shown. Check what else members see.</p>
			<ul aria-label={`${label}: shown`} className="grid gap-1">
				{shown.map((property, index) => (
					<li key={property.id} className="flex items-center gap-2 rounded-md border px-2 py-1">
						<Checkbox
							aria-label={`Show ${property.name}`}
							checked
							onCheckedChange={() => onChange(value.filter((ref) => ref !== property.id))}
						/>
						<span className="min-w-0 flex-1 truncate text-sm">{property.name}</span>
						<span className="hidden text-muted-foreground text-xs sm:inline">{property.type.replace('_', ' ')}</span>
						<Button
							variant="ghost"
							size="icon-sm"
							aria-label={`Move ${property.name} up`}
							disabled={index === 0}
							onClick={() => move(index, -1)}
						>
							<ArrowUp aria-hidden />
						</Button>
						<Button
							variant="ghost"
							size="icon-sm"
							aria-label={`Move ${property.name} down`}
							disabled={index === shown.length - 1}
							onClick={() => move(index, 1)}
						>
							<ArrowDown aria-hidden />
						</Button>
					</li>
				))}
			</ul>
			{others.length > 0 ? (
				<ul aria-label={`${label}: not shown`} className="grid gap-1">
					{others.map((property) => (
						<li key={property.id} className="flex items-center gap-2 px-2 py-1">
							<Checkbox
								aria-label={`Show ${property.name}`}
								checked={false}
								onCheckedChange={() => onChange([...value, property.id])}
							/>
							<span className="min-w-0 flex-1 truncate text-muted-foreground text-sm">{property.name}</span>
						</li>
					))}
				</ul>
			) : null}
			{error ? (
				<p id={`${id}-error`} className="text-[13px] text-error">
					{error}
				</p>
			) : null}
		</fieldset>
	)
}
