import { useState } from 'react'
import { type FieldProps, GroupFrame } from './field-frame.tsx'
import { scaleRangeOf } from './kind-values.ts'
import { ClearChoice } from './scale-field.tsx'

// A rating: stars from 1 to the field's maximum, as a radio group (native radios, so Tab enters
// the group once and the arrow keys move the choice). Pointing at a star, or focusing it, lights
// the stars up to it, so the visitor sees what a click would give.

function Star({ isLit }: { isLit: boolean }) {
	return (
		<svg
			aria-hidden="true"
			viewBox="0 0 24 24"
			strokeWidth="1.5"
			strokeLinejoin="round"
			className={`size-8 transition-colors ${isLit ? 'fill-primary stroke-primary' : 'fill-transparent stroke-muted-foreground/60'}`}
		>
			<path d="m12 2.8 2.8 5.7 6.3.9-4.55 4.44 1.07 6.26L12 17.14l-5.62 2.96 1.07-6.26L2.9 9.4l6.3-.9z" />
		</svg>
	)
}

export function RatingField(props: FieldProps) {
	const { field, value, onChange, controlId } = props
	const { max } = scaleRangeOf(field)
	const selected = typeof value === 'string' && value !== '' ? Number(value) : 0
	const [preview, setPreview] = useState<number | null>(null)
	const lit = preview ?? selected
	const stars = Array.from({ length: max }, (_, index) => index + 1)
	return (
		<GroupFrame {...props} isRadioGroup>
			{/* biome-ignore lint/a11y/noStaticElementInteractions: leaving the stars only ends the hover preview. */}
			<div className="flex flex-wrap gap-0.5" onMouseLeave={() => setPreview(null)}>
				{stars.map((star) => (
					<label
						key={star}
						className="cursor-pointer rounded-md p-0.5 has-focus-visible:ring-3 has-focus-visible:ring-ring/40"
						onMouseEnter={() => setPreview(star)}
					>
						<input
							type="radio"
							id={star === 1 ? controlId : `${controlId}-${star}`}
							name={`${controlId}-rating`}
							value={star}
							checked={selected === star}
							className="sr-only"
							onChange={() => onChange(String(star))}
							onFocus={() => setPreview(star)}
							onBlur={() => setPreview(null)}
						/>
						<Star isLit={star <= lit} />
						<span className="sr-only">{star === 1 ? '1 star' : `${star} stars`}</span>
					</label>
				))}
			</div>
			<p className="text-[13px] text-muted-foreground" aria-hidden="true">
				{lit > 0 ? `${lit} of ${max}` : `Choose from 1 to ${max} stars`}
			</p>
			{!field.required && selected > 0 ? <ClearChoice onClear={() => onChange('')} label="Clear rating" /> : null}
		</GroupFrame>
	)
}
