import type { DocumentDiscount } from '@blocksmith/contracts/invoice-money.ts'
import { Plus, Trash2 } from 'lucide-react'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import type { FieldErrors } from '../lib/invoice-draft.ts'

// Discounts on the whole invoice, each a percent or an amount with an optional reason; the money
// core spreads each over the VAT rates (EN 16931 allowances).

export function InvoiceDiscounts({
	discounts,
	currency,
	errors,
	onChange,
}: {
	discounts: DocumentDiscount[]
	currency: string
	errors: FieldErrors
	onChange: (discounts: DocumentDiscount[]) => void
}) {
	const update = (index: number, next: DocumentDiscount) =>
		onChange(discounts.map((discount, at) => (at === index ? next : discount)))
	return (
		<section aria-labelledby="invoice-discounts" className="grid gap-3">
			<h2 id="invoice-discounts" className="font-semibold text-base">
				Invoice discounts
			</h2>
			{errors.discounts ? <p className="text-error text-sm">{errors.discounts}</p> : null}
			{discounts.map((discount, index) => {
				const name = `Discount ${index + 1}`
				const value = discount.kind === 'percent' ? discount.percent : discount.amount
				const reason = discount.reason ?? null
				const make = (kind: string, text: string): DocumentDiscount =>
					kind === 'percent' ? { kind: 'percent', percent: text, reason } : { kind: 'amount', amount: text, reason }
				return (
					<fieldset
						// biome-ignore lint/suspicious/noArrayIndexKey: discounts have no id; their place is their identity
						key={index}
						className="grid items-end gap-3 rounded-lg border p-3 sm:grid-cols-[8rem_10rem_1fr_auto]"
					>
						<legend className="sr-only">{name}</legend>
						<Field label={`${name}: kind`}>
							<NativeSelect value={discount.kind} onChange={(event) => update(index, make(event.target.value, value))}>
								<option value="percent">Percent</option>
								<option value="amount">Amount</option>
							</NativeSelect>
						</Field>
						<Field
							label={discount.kind === 'percent' ? `${name} (%)` : `${name} (${currency})`}
							error={errors[`discounts.${index}.${discount.kind}`]}
						>
							<Input
								inputMode="decimal"
								value={value}
								onChange={(event) => update(index, make(discount.kind, event.target.value))}
							/>
						</Field>
						<Field label={`${name}: reason`}>
							<Input
								value={reason ?? ''}
								onChange={(event) => update(index, { ...discount, reason: event.target.value || null })}
							/>
						</Field>
						<Button
							variant="ghost"
							size="icon"
							aria-label={`Remove ${name.toLowerCase()}`}
							onClick={() => onChange(discounts.filter((_, at) => at !== index))}
						>
							<Trash2 aria-hidden />
						</Button>
					</fieldset>
				)
			})}
			<div>
				<Button
					variant="outline"
					disabled={discounts.length >= 10}
					onClick={() => onChange([...discounts, { kind: 'percent', percent: '0', reason: null }])}
				>
					<Plus aria-hidden /> Add a discount
				</Button>
			</div>
		</section>
	)
}
