import { Plus, Trash2 } from 'lucide-react'
import { useFieldArray, useWatch } from 'react-hook-form'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { vatCategories } from '../lib/profile-form.ts'
import { errorAt, type ProfileForm } from './form-parts.ts'

/**
 * The profile's tax rates, one row each: name, rate, EN 16931 category (explained in plain words)
 * and, for the categories that charge no VAT, the reason the invoice prints. One is the default.
 */
export function TaxRatesEditor({ form, isReadOnly }: { form: ProfileForm; isReadOnly: boolean }) {
	const { fields, append, remove } = useFieldArray({ control: form.control, name: 'taxRates', keyName: 'key' })
	const rates = useWatch({ control: form.control, name: 'taxRates' })
	const listError = errorAt(form, 'taxRates') ?? errorAt(form, 'taxRates.root')

	function makeDefault(index: number): void {
		rates.forEach((_, other) => {
			form.setValue(`taxRates.${other}.isDefault`, other === index, { shouldDirty: true })
		})
	}

	return (
		<fieldset className="grid gap-3">
			<legend className="mb-1 font-medium text-sm">Tax rates</legend>
			<p className="-mt-1 text-[13px] text-muted-foreground">
				The rates your invoice lines choose from. Changing a rate keeps invoices already written with it as they are.
			</p>
			{fields.length === 0 ? <p className="text-muted-foreground text-sm">No tax rates yet.</p> : null}
			<ul aria-label="Tax rates" className="grid gap-3">
				{fields.map((field, index) => {
					const category = vatCategories.find((one) => one.code === rates[index]?.categoryCode)
					const n = index + 1
					return (
						<li key={field.key} aria-label={`Tax rate ${n}`} className="grid gap-3 rounded-lg border p-3">
							<div className="grid items-start gap-3 sm:grid-cols-[1fr_7rem_1fr]">
								<Field label={`Name of rate ${n}`} error={errorAt(form, `taxRates.${index}.name`)}>
									<Input placeholder="VAT 19 %" {...form.register(`taxRates.${index}.name`)} />
								</Field>
								<Field label={`Rate ${n} (%)`} error={errorAt(form, `taxRates.${index}.rate`)}>
									<Input inputMode="decimal" placeholder="19" {...form.register(`taxRates.${index}.rate`)} />
								</Field>
								<Field
									label={`Category of rate ${n}`}
									error={errorAt(form, `taxRates.${index}.categoryCode`)}
									description={category?.help}
								>
									<NativeSelect {...form.register(`taxRates.${index}.categoryCode`)}>
										{vatCategories.map((one) => (
											<option key={one.code} value={one.code}>
												{one.name} ({one.code})
											</option>
										))}
									</NativeSelect>
								</Field>
							</div>
							{category?.needsReason ? (
								<div className="grid items-start gap-3 sm:grid-cols-[1fr_14rem]">
									<Field
										label={`Exemption reason of rate ${n}`}
										description="Printed on the invoice, e.g. “Reverse charge” or the law that exempts it."
										error={errorAt(form, `taxRates.${index}.exemptionReason`)}
									>
										<Input {...form.register(`taxRates.${index}.exemptionReason`)} />
									</Field>
									<Field
										label={`VATEX code of rate ${n}`}
										description="Optional, for e-invoices (e.g. VATEX-EU-AE)."
										error={errorAt(form, `taxRates.${index}.exemptionReasonCode`)}
									>
										<Input {...form.register(`taxRates.${index}.exemptionReasonCode`)} />
									</Field>
								</div>
							) : null}
							<div className="flex flex-wrap items-center justify-between gap-2">
								<label className="flex items-center gap-2 text-sm">
									<input
										type="radio"
										name="default-tax-rate"
										checked={Boolean(rates[index]?.isDefault)}
										onChange={() => makeDefault(index)}
										className="size-4 accent-primary"
									/>
									Default for new lines
								</label>
								{isReadOnly ? null : (
									<Button variant="ghost" size="sm" onClick={() => remove(index)}>
										<Trash2 aria-hidden /> Remove rate {n}
									</Button>
								)}
							</div>
						</li>
					)
				})}
			</ul>
			{listError ? <p className="text-[13px] text-error">{listError}</p> : null}
			{isReadOnly ? null : (
				<Button
					variant="outline"
					size="sm"
					className="w-fit"
					onClick={() =>
						append({
							name: '',
							categoryCode: 'S',
							rate: '',
							exemptionReason: '',
							exemptionReasonCode: '',
							isDefault: fields.length === 0,
						})
					}
				>
					<Plus aria-hidden /> Add a tax rate
				</Button>
			)}
		</fieldset>
	)
}
