import type { Discount } from '@blocksmith/contracts/invoice-money.ts'
import type { TaxRate } from '@blocksmith/contracts/invoices.ts'
import { MoveDown, MoveUp, Plus, Trash2 } from 'lucide-react'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { type FieldErrors, type LineDraft, newLineKey, rateLabel } from '../lib/invoice-draft.ts'

// The draft's lines as a list of small forms (a table of inputs does not fit a phone): each line
// its description, quantity, unit, price, rate and discount, moved with buttons (reachable by
// keyboard, unlike dragging).

type Props = {
	lines: LineDraft[]
	taxRates: TaxRate[]
	errors: FieldErrors
	currency: string
	onChange: (lines: LineDraft[]) => void
}

export function InvoiceLines({ lines, taxRates, errors, currency, onChange }: Props) {
	const defaultRate = taxRates.find((rate) => rate.isDefault) ?? taxRates[0]
	const update = (index: number, changes: Partial<LineDraft>) =>
		onChange(lines.map((line, at) => (at === index ? { ...line, ...changes } : line)))
	const move = (index: number, by: -1 | 1) => {
		const next = [...lines]
		const [line] = next.splice(index, 1)
		if (line) {
			next.splice(index + by, 0, line)
			onChange(next)
		}
	}
	const add = () =>
		onChange([
			...lines,
			{
				key: newLineKey(),
				description: '',
				quantity: '1',
				unit: '',
				unitPrice: '0',
				taxRateId: defaultRate?.id ?? '',
				discount: null,
			},
		])
	return (
		<div className="grid gap-3">
			{lines.length === 0 ? (
				<p className="rounded-lg border border-dashed p-4 text-muted-foreground text-sm">
					No lines yet: add one, or bring them in from rows or tracked time.
				</p>
			) : (
				<ol className="grid gap-3">
					{lines.map((line, index) => (
						<LineForm
							key={line.key}
							line={line}
							index={index}
							count={lines.length}
							taxRates={taxRates}
							errors={errors}
							currency={currency}
							onChange={(changes) => update(index, changes)}
							onMove={(by) => move(index, by)}
							onRemove={() => onChange(lines.filter((_, at) => at !== index))}
						/>
					))}
				</ol>
			)}
			<div>
				<Button variant="outline" onClick={add}>
					<Plus aria-hidden /> Add a line
				</Button>
			</div>
		</div>
	)
}

function LineForm({
	line,
	index,
	count,
	taxRates,
	errors,
	currency,
	onChange,
	onMove,
	onRemove,
}: {
	line: LineDraft
	index: number
	count: number
	taxRates: TaxRate[]
	errors: FieldErrors
	currency: string
	onChange: (changes: Partial<LineDraft>) => void
	onMove: (by: -1 | 1) => void
	onRemove: () => void
}) {
	const name = `Line ${index + 1}`
	const error = (part: string) => errors[`lines.${index}.${part}`]
	const discountKind = line.discount?.kind ?? 'none'
	const discountValue =
		line.discount?.kind === 'percent'
			? line.discount.percent
			: line.discount?.kind === 'amount'
				? line.discount.amount
				: ''
	const setDiscount = (kind: string, value: string) => {
		const discount: Discount | null =
			kind === 'percent' ? { kind, percent: value } : kind === 'amount' ? { kind, amount: value } : null
		onChange({ discount })
	}
	return (
		<li aria-label={name} className="grid gap-3 rounded-lg border bg-card p-3">
			<div className="flex items-center justify-between gap-2">
				<span className="font-medium text-sm">{name}</span>
				<div className="flex gap-1">
					<Button
						variant="ghost"
						size="icon-sm"
						aria-label={`Move ${name.toLowerCase()} up`}
						disabled={index === 0}
						onClick={() => onMove(-1)}
					>
						<MoveUp aria-hidden />
					</Button>
					<Button
						variant="ghost"
						size="icon-sm"
						aria-label={`Move ${name.toLowerCase()} down`}
						disabled={index === count - 1}
						onClick={() => onMove(1)}
					>
						<MoveDown aria-hidden />
					</Button>
					<Button variant="ghost" size="icon-sm" aria-label={`Remove ${name.toLowerCase()}`} onClick={onRemove}>
						<Trash2 aria-hidden />
					</Button>
				</div>
			</div>
			<Field label="Description" error={error('description')}>
				<Input value={line.description} onChange={(event) => onChange({ description: event.target.value })} />
			</Field>
			<div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
				<Field label="Quantity" error={error('quantity')}>
					<Input
						inputMode="decimal"
						value={line.quantity}
						onChange={(event) => onChange({ quantity: event.target.value })}
					/>
				</Field>
				<Field label="Unit" error={error('unit')}>
					<Input value={line.unit} placeholder="hours" onChange={(event) => onChange({ unit: event.target.value })} />
				</Field>
				<Field label={`Unit price (${currency || '—'})`} error={error('unitPrice')}>
					<Input
						inputMode="decimal"
						value={line.unitPrice}
						onChange={(event) => onChange({ unitPrice: event.target.value })}
					/>
				</Field>
				<Field label="Tax rate" error={error('taxRateId')}>
					<NativeSelect value={line.taxRateId} onChange={(event) => onChange({ taxRateId: event.target.value })}>
						{taxRates.some((rate) => rate.id === line.taxRateId) ? null : <option value={line.taxRateId}>—</option>}
						{taxRates.map((rate) => (
							<option key={rate.id} value={rate.id}>
								{rateLabel(rate)}
							</option>
						))}
					</NativeSelect>
				</Field>
			</div>
			<div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
				<Field label="Line discount">
					<NativeSelect
						value={discountKind}
						onChange={(event) => setDiscount(event.target.value, discountValue || '0')}
					>
						<option value="none">None</option>
						<option value="percent">Percent</option>
						<option value="amount">Amount</option>
					</NativeSelect>
				</Field>
				{line.discount ? (
					<Field
						label={line.discount.kind === 'percent' ? 'Discount (%)' : `Discount (${currency || '—'})`}
						error={error(`discount.${line.discount.kind}`) ?? error('discount')}
					>
						<Input
							inputMode="decimal"
							value={discountValue}
							onChange={(event) => setDiscount(discountKind, event.target.value)}
						/>
					</Field>
				) : null}
			</div>
		</li>
	)
}
