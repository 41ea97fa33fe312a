import type { FormLimits } from '@blocksmith/contracts/forms.ts'
import { useId } from 'react'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import type { DraftErrors, FormDraft } from '../lib/draft.ts'
import { browserTimeZone, instantToLocal, localToInstant, timeZones } from '../lib/time-zone.ts'

type LimitsSettingsProps = {
	draft: FormDraft
	errors: DraftErrors
	onChange: (changes: Partial<FormDraft>, path: string) => void
}

const oneResponseChoices: { value: FormLimits['oneResponsePer']; label: string; description: string }[] = [
	{
		value: 'none',
		label: 'No limit',
		description: 'Anyone may answer as many times as they like.',
	},
	{
		value: 'email',
		label: 'By e-mail address',
		description:
			'A second answer with an address already given in the chosen e-mail field is refused. Someone with several addresses can still answer once with each.',
	},
	{
		value: 'browser',
		label: 'By browser',
		description:
			'The browser keeps a token once it has answered, and the form refuses it a second answer. Clearing the browser’s data, or using another browser or device, allows another answer.',
	},
]

/** When the form closes by itself, how many answers it takes, and how often one person may answer. */
export function LimitsSettings({ draft, errors, onChange }: LimitsSettingsProps) {
	const id = useId()
	const limits = draft.limits
	// An untouched form has no zone of its own yet ('UTC' is the contract's default): the editor's is the better guess.
	const timeZone = limits.closesAt === null && limits.timeZone === 'UTC' ? browserTimeZone() : limits.timeZone
	const emailFields = draft.fields.filter((field) => field.kind === 'email')
	const set = (changes: Partial<FormLimits>, key: string) =>
		onChange({ limits: { ...limits, ...changes } }, `limits.${key}`)

	return (
		<section className="grid gap-5" aria-labelledby={`${id}-heading`}>
			<div className="grid gap-0.5">
				<h3 id={`${id}-heading`} className="font-semibold text-sm">
					Limits
				</h3>
				<p className="text-muted-foreground text-sm">When a published form stops taking answers by itself.</p>
			</div>
			<div className="grid gap-4 sm:grid-cols-2">
				<Field
					label="Closing date and time"
					description="After it, visitors read the closed message. Empty: the form stays open."
					error={errors['limits.closesAt']}
				>
					<Input
						type="datetime-local"
						value={limits.closesAt ? instantToLocal(limits.closesAt, timeZone) : ''}
						onChange={(event) => set({ closesAt: localToInstant(event.target.value, timeZone), timeZone }, 'closesAt')}
					/>
				</Field>
				<Field label="Time zone" description="The closing time is read in this zone." error={errors['limits.timeZone']}>
					<NativeSelect
						value={timeZone}
						onChange={(event) => {
							const zone = event.target.value
							// The time as typed stays; it now means that time in the new zone.
							const local = limits.closesAt ? instantToLocal(limits.closesAt, timeZone) : ''
							set({ timeZone: zone, closesAt: local ? localToInstant(local, zone) : null }, 'timeZone')
						}}
					>
						{timeZones(timeZone).map((zone) => (
							<option key={zone} value={zone}>
								{zone.replaceAll('_', ' ')}
							</option>
						))}
					</NativeSelect>
				</Field>
			</div>
			<Field
				label="Maximum number of answers"
				description="Once reached, visitors read the message below. Empty: no maximum."
				error={errors['limits.maxSubmissions']}
			>
				<Input
					type="number"
					inputMode="numeric"
					min={1}
					max={1_000_000}
					step={1}
					className="max-w-40"
					value={limits.maxSubmissions ?? ''}
					onChange={(event) => {
						const value = event.target.valueAsNumber
						set({ maxSubmissions: Number.isNaN(value) ? null : value }, 'maxSubmissions')
					}}
				/>
			</Field>
			<Field label="Message when the maximum is reached" error={errors['limits.limitReachedMessage']} isRequired>
				<Textarea
					rows={2}
					maxLength={2000}
					value={limits.limitReachedMessage}
					onChange={(event) => set({ limitReachedMessage: event.target.value }, 'limitReachedMessage')}
				/>
			</Field>
			<fieldset className="grid gap-3">
				<legend className="mb-2 font-medium text-sm leading-none">One answer per person</legend>
				{oneResponseChoices.map((choice) => (
					<label key={choice.value} className="flex items-start gap-2 text-sm">
						<input
							type="radio"
							name={`${id}-one-response`}
							value={choice.value}
							checked={limits.oneResponsePer === choice.value}
							aria-describedby={`${id}-${choice.value}-description`}
							className="mt-0.5 size-4 accent-primary"
							onChange={() => set({ oneResponsePer: choice.value }, 'oneResponsePer')}
						/>
						<span className="grid gap-0.5">
							<span className="font-medium">{choice.label}</span>
							<span id={`${id}-${choice.value}-description`} className="text-muted-foreground">
								{choice.description}
							</span>
						</span>
					</label>
				))}
				{errors['limits.oneResponsePer'] ? (
					<p className="text-[13px] text-error">{errors['limits.oneResponsePer']}</p>
				) : null}
			</fieldset>
			{limits.oneResponsePer === 'email' ? (
				<Field
					label="E-mail field that identifies people"
					description={emailFields.length ? undefined : 'The form has no E-mail field yet: add one in Fields.'}
					error={errors['limits.emailFieldId']}
					isRequired
				>
					<NativeSelect
						value={limits.emailFieldId ?? ''}
						onChange={(event) => set({ emailFieldId: event.target.value || null }, 'emailFieldId')}
					>
						<option value="">Pick a field…</option>
						{emailFields.map((field) => (
							<option key={field.id} value={field.id}>
								{field.label}
							</option>
						))}
					</NativeSelect>
				</Field>
			) : null}
			{limits.oneResponsePer === 'none' && !errors['limits.alreadyRespondedMessage'] ? null : (
				<Field
					label="Message for people who already answered"
					error={errors['limits.alreadyRespondedMessage']}
					isRequired
				>
					<Textarea
						rows={2}
						maxLength={2000}
						value={limits.alreadyRespondedMessage}
						onChange={(event) => set({ alreadyRespondedMessage: event.target.value }, 'alreadyRespondedMessage')}
					/>
				</Field>
			)}
		</section>
	)
}
