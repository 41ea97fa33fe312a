import { formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import { emailPlaceholders, type InvoiceProfile, invoiceDesigns, isValidIban } from '@blocksmith/contracts/invoices.ts'
import { Plus, Trash2 } from 'lucide-react'
import { type ReactNode, useMemo } from 'react'
import { Controller, useFieldArray, useWatch } from 'react-hook-form'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { countryOptions, currencyOptions } from '../lib/profile-form.ts'
import { errorAt, type ProfileForm } from './form-parts.ts'
import { LogoField } from './logo-field.tsx'
import { NumberingFields } from './numbering-fields.tsx'
import { TaxRatesEditor } from './tax-rates-editor.tsx'

// The profile's fields, in the order an invoice reads: who bills, in what money and taxes, how
// documents are numbered, how to pay, the texts, the look. Saving is the editor's (profile-editor).

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
	return (
		<section className="grid gap-4 rounded-xl border p-4 sm:p-5">
			<div className="grid gap-1">
				<h2 className="font-semibold text-base">{title}</h2>
				{description ? <p className="text-muted-foreground text-sm">{description}</p> : null}
			</div>
			{children}
		</section>
	)
}

export function ProfileFields({
	form,
	profile,
	isReadOnly,
}: {
	form: ProfileForm
	profile: InvoiceProfile | null
	isReadOnly: boolean
}) {
	const { register } = form
	const err = (path: string) => errorAt(form, path)
	return (
		<div className="grid gap-6">
			<Section title="Company" description="Who the invoice is from, as printed at its top.">
				<div className="grid items-start gap-4 sm:grid-cols-2">
					<Field label="Legal name" isRequired error={err('legalName')}>
						<Input autoComplete="organization" {...register('legalName')} />
					</Field>
					<Field
						label="Profile name"
						description="What your team sees in lists; the legal name if blank."
						error={err('name')}
					>
						<Input {...register('name')} />
					</Field>
				</div>
				<Field label="Address" description="Street and number; one line each, up to 4." error={err('address.lines')}>
					<Textarea rows={2} autoComplete="street-address" {...register('address.lines')} />
				</Field>
				<div className="grid gap-4 sm:grid-cols-[8rem_1fr_1fr]">
					<Field label="Postcode" error={err('address.postcode')}>
						<Input autoComplete="postal-code" {...register('address.postcode')} />
					</Field>
					<Field label="City" error={err('address.city')}>
						<Input autoComplete="address-level2" {...register('address.city')} />
					</Field>
					<CountryField form={form} />
				</div>
				<div className="grid items-start gap-4 sm:grid-cols-2">
					<Field
						label="VAT number"
						description="With its country prefix, e.g. DE123456789."
						error={err('taxIds.vatId')}
					>
						<Input {...register('taxIds.vatId')} />
					</Field>
					<Field label="E-mail" description="Printed as the contact for questions." error={err('email')}>
						<Input type="email" autoComplete="email" {...register('email')} />
					</Field>
				</div>
				<OtherTaxIds form={form} isReadOnly={isReadOnly} />
				<Controller
					control={form.control}
					name="logoBlobId"
					render={({ field }) => (
						<LogoField
							blobId={field.value}
							savedBlobId={profile?.logo?.blobId ?? null}
							savedUrl={profile?.logo?.url ?? null}
							error={err('logoBlobId')}
							isReadOnly={isReadOnly}
							onChange={(blobId) => field.onChange(blobId)}
						/>
					)}
				/>
			</Section>

			<Section title="Money and taxes">
				<CurrencyAndLocale form={form} />
				<TaxRatesEditor form={form} isReadOnly={isReadOnly} />
				<Controller
					control={form.control}
					name="isLineLevelVatRounding"
					render={({ field }) => (
						<Field
							orientation="horizontal"
							label="Round VAT on each line"
							description="Off (recommended): VAT is worked out once per rate on the summed lines, as EN 16931 asks, so totals never drift by a cent. Turn it on only if your accountant or a local rule wants each line's VAT rounded and added up."
						>
							<Switch checked={field.value} onCheckedChange={field.onChange} />
						</Field>
					)}
				/>
			</Section>

			<Section title="Numbering">
				<NumberingFields
					form={form}
					saved={profile ? { numbering: profile.numbering, next: profile.nextNumbers } : null}
				/>
			</Section>

			<Section title="Payment">
				<Field
					label="Payment terms (days)"
					description="The due date is the issue date plus these days."
					error={err('paymentTermsDays')}
				>
					<Input inputMode="numeric" className="w-32" {...register('paymentTermsDays')} />
				</Field>
				<BankFields form={form} />
			</Section>

			<Section title="Texts">
				<Field
					label="Notes"
					description="Printed above the footer of each invoice, e.g. thanks or delivery terms."
					error={err('notes')}
				>
					<Textarea rows={2} {...register('notes')} />
				</Field>
				<Field
					label="Footer"
					description="Small print at the bottom: register court, managing director."
					error={err('footer')}
				>
					<Textarea rows={2} {...register('footer')} />
				</Field>
				<Field label="E-mail subject" error={err('emailMessage.subject')}>
					<Input {...register('emailMessage.subject')} />
				</Field>
				<Field
					label="E-mail text"
					description={
						<>
							Placeholders, filled for each invoice:{' '}
							{emailPlaceholders.map((name, index) => (
								<span key={name}>
									{index > 0 ? ', ' : ''}
									<code>{`{${name}}`}</code>
								</span>
							))}
							.
						</>
					}
					error={err('emailMessage.body')}
				>
					<Textarea rows={6} {...register('emailMessage.body')} />
				</Field>
			</Section>

			<Section title="Design" description="How the PDF looks; the preview below shows each design.">
				<fieldset className="grid gap-2">
					<legend className="sr-only">Design</legend>
					<div className="grid gap-2 sm:grid-cols-3">
						{invoiceDesigns.map((one) => (
							<label
								key={one.design}
								className="grid cursor-pointer gap-1 rounded-lg border p-3 text-sm has-checked:border-primary has-checked:bg-muted/50 dark:has-checked:border-ring"
							>
								<span className="flex items-center gap-2 font-medium">
									<input
										type="radio"
										value={one.design}
										className="size-4 accent-primary"
										{...register('template.design')}
									/>
									{one.name}
								</span>
								<span className="text-[13px] text-muted-foreground">{one.description}</span>
							</label>
						))}
					</div>
				</fieldset>
				<div className="grid items-start gap-4 sm:grid-cols-3">
					<ColorField form={form} name="template.accentColor" label="Accent colour" />
					<ColorField form={form} name="template.textColor" label="Text colour" />
					<Field label="Font" error={err('template.font')}>
						<NativeSelect {...register('template.font')}>
							<option value="sans">Sans serif (Inter)</option>
							<option value="serif">Serif (Times)</option>
							<option value="mono">Monospaced (Courier)</option>
						</NativeSelect>
					</Field>
				</div>
			</Section>
		</div>
	)
}

function CountryField({ form }: { form: ProfileForm }) {
	const countries = useMemo(countryOptions, [])
	return (
		<Field label="Country" isRequired error={errorAt(form, 'address.country')}>
			<NativeSelect autoComplete="country" {...form.register('address.country')}>
				<option value="">Choose…</option>
				{countries.map((country) => (
					<option key={country.code} value={country.code}>
						{country.name}
					</option>
				))}
			</NativeSelect>
		</Field>
	)
}

function OtherTaxIds({ form, isReadOnly }: { form: ProfileForm; isReadOnly: boolean }) {
	const { fields, append, remove } = useFieldArray({ control: form.control, name: 'taxIds.other', keyName: 'key' })
	return (
		<div className="grid gap-2">
			{fields.map((field, index) => (
				<div key={field.key} className="grid items-end gap-2 sm:grid-cols-[1fr_1fr_auto]">
					<Field label={`Registration ${index + 1}`} error={errorAt(form, `taxIds.other.${index}.label`)}>
						<Input placeholder="Tax number" {...form.register(`taxIds.other.${index}.label`)} />
					</Field>
					<Field label={`Registration ${index + 1} number`} error={errorAt(form, `taxIds.other.${index}.value`)}>
						<Input {...form.register(`taxIds.other.${index}.value`)} />
					</Field>
					{isReadOnly ? null : (
						<Button
							variant="ghost"
							size="icon"
							aria-label={`Remove registration ${index + 1}`}
							onClick={() => remove(index)}
						>
							<Trash2 aria-hidden />
						</Button>
					)}
				</div>
			))}
			{errorAt(form, 'taxIds.other') ? <p className="text-[13px] text-error">{errorAt(form, 'taxIds.other')}</p> : null}
			{isReadOnly || fields.length >= 5 ? null : (
				<Button variant="outline" size="sm" className="w-fit" onClick={() => append({ label: '', value: '' })}>
					<Plus aria-hidden /> Add a tax number or register entry
				</Button>
			)}
		</div>
	)
}

function CurrencyAndLocale({ form }: { form: ProfileForm }) {
	const currencies = useMemo(currencyOptions, [])
	const [currency, locale] = useWatch({ control: form.control, name: ['currency', 'locale'] })
	const code = currency.trim().toUpperCase()
	const known = currencies.find((one) => one.code === code)
	let sample: string | null = null
	try {
		sample = known ? formatMoney(123456789, known.code, locale) : null
	} catch {
		sample = null
	}
	return (
		<div className="grid items-start gap-4 sm:grid-cols-2">
			<Field
				label="Currency"
				description={
					known
						? `${known.name}: ${known.decimals} decimal${known.decimals === 1 ? '' : 's'}.`
						: 'Type a code or a name, e.g. EUR or euro.'
				}
				error={errorAt(form, 'currency')}
			>
				<Input list="invoice-currencies" autoComplete="off" className="uppercase" {...form.register('currency')} />
			</Field>
			<datalist id="invoice-currencies">
				{currencies.map((one) => (
					<option key={one.code} value={one.code}>
						{one.name}
					</option>
				))}
			</datalist>
			<Field
				label="Language and number format"
				description={sample ? `Amounts look like ${sample}.` : 'A locale such as en-GB, de-DE or fr-FR.'}
				error={errorAt(form, 'locale')}
			>
				<Input list="invoice-locales" autoComplete="off" {...form.register('locale')} />
			</Field>
			<datalist id="invoice-locales">
				{['en-GB', 'en-US', 'de-DE', 'de-AT', 'de-CH', 'fr-FR', 'es-ES', 'it-IT', 'nl-NL', 'pl-PL', 'ja-JP'].map(
					(tag) => (
						<option key={tag} value={tag} />
					),
				)}
			</datalist>
		</div>
	)
}

function BankFields({ form }: { form: ProfileForm }) {
	const [kind, iban] = useWatch({ control: form.control, name: ['bank.kind', 'bank.iban'] })
	const compact = iban.replace(/[\s-]/g, '').toUpperCase()
	const ibanHint =
		compact.length >= 15 && !isValidIban(compact) ? 'This IBAN is not valid: check it for a typing error.' : undefined
	return (
		<div className="grid gap-4">
			<Field label="Bank details" error={errorAt(form, 'bank.kind') ?? errorAt(form, 'bank')}>
				<NativeSelect className="w-fit" {...form.register('bank.kind')}>
					<option value="none">None on the invoice</option>
					<option value="iban">IBAN (SEPA)</option>
					<option value="text">Other (written out)</option>
				</NativeSelect>
			</Field>
			{kind === 'iban' ? (
				<div className="grid items-start gap-4 sm:grid-cols-3">
					<Field label="IBAN" error={errorAt(form, 'bank.iban') ?? ibanHint}>
						<Input className="font-mono" autoComplete="off" {...form.register('bank.iban')} />
					</Field>
					<Field label="BIC" error={errorAt(form, 'bank.bic')}>
						<Input className="font-mono" autoComplete="off" {...form.register('bank.bic')} />
					</Field>
					<Field label="Account holder" error={errorAt(form, 'bank.accountHolder')}>
						<Input {...form.register('bank.accountHolder')} />
					</Field>
				</div>
			) : kind === 'text' ? (
				<Field
					label="Bank details as printed"
					description="Account and routing number, PayPal address…"
					error={errorAt(form, 'bank.text')}
				>
					<Textarea rows={3} {...form.register('bank.text')} />
				</Field>
			) : null}
		</div>
	)
}

function ColorField({
	form,
	name,
	label,
}: {
	form: ProfileForm
	name: 'template.accentColor' | 'template.textColor'
	label: string
}) {
	return (
		<Controller
			control={form.control}
			name={name}
			render={({ field }) => (
				<div className="flex items-end gap-2">
					<input
						type="color"
						aria-label={`${label} picker`}
						value={/^#[0-9a-f]{6}$/i.test(field.value) ? field.value : '#000000'}
						onChange={(event) => field.onChange(event.target.value)}
						className="h-9 w-10 shrink-0 cursor-pointer rounded-md border bg-background p-1"
					/>
					<Field className="flex-1" label={label} error={errorAt(form, name)}>
						<Input
							className="font-mono"
							value={field.value}
							onChange={field.onChange}
							onBlur={field.onBlur}
							ref={field.ref}
						/>
					</Field>
				</div>
			)}
		/>
	)
}
