import { type Form, slugSchema } from '@blocksmith/contracts/forms.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Copy, KeyRound } from 'lucide-react'
import { useId, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { formKeys, updateFormUrl } from '../api/forms.ts'
import type { DraftErrors, FormDraft } from '../lib/draft.ts'
import { publicUrl } from '../lib/form-paths.ts'
import { LayoutSettings } from './builder/layout-settings.tsx'
import { EmbedSettings } from './embed-settings.tsx'
import { LimitsSettings } from './limits-settings.tsx'
import { NotificationSettings } from './notification-settings.tsx'
import { WebhookSettings } from './webhook-settings.tsx'

type FormSettingsProps = {
	form: Form
	draft: FormDraft
	errors: DraftErrors
	onChange: (changes: Partial<FormDraft>, path: string) => void
}

/** Name, messages, whether answers are taken, the password and the address. */
export function FormSettings({ form, draft, errors, onChange }: FormSettingsProps) {
	return (
		<div className="grid gap-8">
			<section className="grid gap-5" aria-labelledby="settings-heading">
				<div className="grid gap-0.5">
					<h2 id="settings-heading" className="font-semibold text-base">
						Settings
					</h2>
					<p className="text-muted-foreground text-sm">What visitors read around the form, and who may answer.</p>
				</div>
				<Field
					label="Form name"
					description="For you and your team; visitors see the page title."
					error={errors.name}
					isRequired
				>
					<Input
						value={draft.name}
						maxLength={200}
						onChange={(event) => onChange({ name: event.target.value }, 'name')}
					/>
				</Field>
				<LayoutSettings layout={draft.layout} onChange={(layout, path) => onChange({ layout }, path)} />
				<AfterSubmitting draft={draft} errors={errors} onChange={onChange} />
				<Field label="Submit button label" error={errors.submitLabel} isRequired>
					<Input
						maxLength={60}
						value={draft.submitLabel}
						onChange={(event) => onChange({ submitLabel: event.target.value }, 'submitLabel')}
					/>
				</Field>
				<Field
					label="Accepting responses"
					description="Off, a published form shows the closed message instead of its fields."
					orientation="horizontal"
				>
					<Switch
						checked={draft.acceptingResponses}
						onCheckedChange={(checked) => onChange({ acceptingResponses: checked }, 'acceptingResponses')}
					/>
				</Field>
				<Field
					label="Closed message"
					description="Shown while the form is not accepting responses."
					error={errors.closedMessage}
					isRequired
				>
					<Textarea
						rows={2}
						maxLength={2000}
						value={draft.closedMessage}
						onChange={(event) => onChange({ closedMessage: event.target.value }, 'closedMessage')}
					/>
				</Field>
			</section>
			<LimitsSettings draft={draft} errors={errors} onChange={onChange} />
			<NotificationSettings draft={draft} errors={errors} onChange={onChange} />
			<PasswordSettings form={form} password={draft.password} error={errors.password} onChange={onChange} />
			<AddressSettings form={form} />
			<EmbedSettings form={form} />
			<WebhookSettings formId={form.id} />
		</div>
	)
}

/** A message to read, or a web address to go to (with the answers added to it when asked). */
function AfterSubmitting({ draft, errors, onChange }: Omit<FormSettingsProps, 'form'>) {
	const id = useId()
	const isRedirect = draft.redirectUrl !== null
	return (
		<fieldset className="grid gap-4">
			<legend className="mb-2 font-medium text-sm leading-none">After submitting</legend>
			<div className="flex flex-wrap gap-x-5 gap-y-2">
				<label className="flex items-center gap-2 text-sm">
					<input
						type="radio"
						name={`${id}-after`}
						checked={!isRedirect}
						className="size-4 accent-primary"
						onChange={() => onChange({ redirectUrl: null }, 'redirectUrl')}
					/>
					Show a message
				</label>
				<label className="flex items-center gap-2 text-sm">
					<input
						type="radio"
						name={`${id}-after`}
						checked={isRedirect}
						className="size-4 accent-primary"
						onChange={() => onChange({ redirectUrl: '' }, 'redirectUrl')}
					/>
					Go to a web address
				</label>
			</div>
			{isRedirect ? (
				<>
					<Field
						label="Redirect URL"
						description="Visitors go to this address once they submit. {Label} placeholders are filled with the answers."
						error={errors.redirectUrl}
						isRequired
					>
						<Input
							type="url"
							inputMode="url"
							maxLength={2000}
							placeholder="https://example.com/thanks"
							value={draft.redirectUrl ?? ''}
							onChange={(event) => onChange({ redirectUrl: event.target.value }, 'redirectUrl')}
						/>
					</Field>
					<Field
						label="Add the answers to the link"
						description="Each answer goes along as a parameter named like its field's URL parameter (?name=Ada)."
						orientation="horizontal"
						error={errors.redirectWithAnswers}
					>
						<Switch
							checked={draft.redirectWithAnswers}
							onCheckedChange={(checked) => onChange({ redirectWithAnswers: checked }, 'redirectWithAnswers')}
						/>
					</Field>
				</>
			) : null}
			{/* Kept while redirecting too: the server still uses it where a redirect cannot happen. */}
			<Field
				label="Confirmation message"
				description="Shown after a visitor submits. Write {Label} to put in the answer to the field with that label, e.g. Thank you, {Name}!"
				error={errors.confirmationMessage}
				isRequired
			>
				<Textarea
					rows={2}
					maxLength={2000}
					value={draft.confirmationMessage}
					onChange={(event) => onChange({ confirmationMessage: event.target.value }, 'confirmationMessage')}
				/>
			</Field>
		</fieldset>
	)
}

function PasswordSettings({
	form,
	password,
	error,
	onChange,
}: {
	form: Form
	password: string | null | undefined
	error?: string | undefined
	onChange: (changes: Partial<FormDraft>, path: string) => void
}) {
	const set = (value: string | null | undefined) => onChange({ password: value }, 'password')
	return (
		<section className="grid gap-3" aria-labelledby="password-heading">
			<div className="grid gap-0.5">
				<h3 id="password-heading" className="flex items-center gap-2 font-semibold text-sm">
					<KeyRound aria-hidden className="size-4 text-muted-foreground" /> Password
				</h3>
				<p className="text-muted-foreground text-sm">
					{password === null
						? 'The password is removed when you save.'
						: form.hasPassword
							? 'Visitors enter a password before they see the form.'
							: 'Anyone with the link can open the form.'}
				</p>
			</div>
			{typeof password === 'string' ? (
				<div className="grid gap-2">
					<Field
						label={form.hasPassword ? 'New password' : 'Password'}
						description={
							form.hasPassword
								? 'Replaces the current password when you save.'
								: 'At least 4 characters. It takes effect when you save; share it with the people who may answer.'
						}
						error={error}
					>
						<Input
							type="password"
							autoComplete="new-password"
							maxLength={128}
							value={password}
							onChange={(event) => set(event.target.value)}
						/>
					</Field>
					<div>
						<Button variant="ghost" size="sm" onClick={() => set(undefined)}>
							{form.hasPassword ? 'Keep the current password' : 'No password'}
						</Button>
					</div>
				</div>
			) : password === null ? (
				<div>
					<Button variant="outline" size="sm" onClick={() => set(undefined)}>
						Keep the password
					</Button>
				</div>
			) : form.hasPassword ? (
				<div className="flex flex-wrap gap-2">
					<Button variant="outline" size="sm" onClick={() => set('')}>
						Change password
					</Button>
					<Button variant="ghost" size="sm" className="text-error" onClick={() => set(null)}>
						Remove password
					</Button>
				</div>
			) : (
				<div>
					<Button variant="outline" size="sm" onClick={() => set('')}>
						Add a password
					</Button>
				</div>
			)}
		</section>
	)
}

/** The custom address is saved on its own: it is checked against every other form's. */
function AddressSettings({ form }: { form: Form }) {
	const id = useId()
	const queryClient = useQueryClient()
	const [slug, setSlug] = useState(form.slug ?? '')
	const [isTouched, setIsTouched] = useState(false)
	const parsed = slugSchema.safeParse(slug)
	const localProblem = isTouched && !parsed.success ? (parsed.error.issues[0]?.message ?? 'Check the address.') : null
	const save = useMutation({
		mutationFn: updateFormUrl,
		meta: { isFormMutation: true },
		onSuccess: async (saved) => {
			queryClient.setQueryData(formKeys.detail(saved.id), saved)
			await queryClient.invalidateQueries({ queryKey: formKeys.list })
			setSlug(saved.slug ?? '')
			toast.success(`The form's address is now ${publicUrl(saved)}`)
		},
	})
	const serverProblem =
		save.error instanceof ApiError
			? (save.error.fieldErrors.find((problem) => problem.field === 'slug')?.message ?? save.error.detail)
			: null
	const url = publicUrl(form)
	const prefix = `${window.location.host}/forms/`

	async function copy(): Promise<void> {
		try {
			await navigator.clipboard.writeText(url)
			toast.success('The link was copied.')
		} catch {
			toast.error('The link could not be copied: select it and copy it by hand.')
		}
	}

	return (
		<section className="grid gap-4" aria-labelledby={`${id}-heading`}>
			<div className="grid gap-0.5">
				<h3 id={`${id}-heading`} className="font-semibold text-sm">
					Address
				</h3>
				<p className="text-muted-foreground text-sm">
					Where visitors find the form.{form.published ? '' : ' It answers once the form is published.'}
				</p>
			</div>
			<div className="grid gap-1.5">
				<span id={`${id}-link-label`} className="font-medium text-sm">
					Public link
				</span>
				<div className="flex flex-wrap items-center gap-2">
					<a
						href={url}
						target="_blank"
						rel="noreferrer"
						aria-labelledby={`${id}-link-label ${id}-link`}
						id={`${id}-link`}
						className="min-w-0 break-all text-link text-sm hover:underline"
					>
						{url}
					</a>
					<Button variant="outline" size="sm" onClick={() => void copy()}>
						<Copy aria-hidden /> Copy link
					</Button>
				</div>
			</div>
			<form
				className="grid gap-2"
				noValidate
				onSubmit={(event) => {
					event.preventDefault()
					setIsTouched(true)
					if (parsed.success && parsed.data !== form.slug) {
						save.mutate({ id: form.id, slug: parsed.data })
					}
				}}
			>
				<Field
					label="Custom address"
					description="Lowercase letters, digits and single hyphens, 3 to 60 characters. Links to an earlier address keep working."
					error={localProblem ?? serverProblem ?? undefined}
				>
					<Input
						value={slug}
						maxLength={60}
						autoCapitalize="none"
						autoCorrect="off"
						spellCheck={false}
						placeholder="my-form"
						onChange={(event) => {
							setSlug(event.target.value)
							save.reset()
						}}
						onBlur={() => setIsTouched(Boolean(slug))}
					/>
				</Field>
				<p className="break-all text-muted-foreground text-xs">
					{prefix}
					<span className="font-medium text-foreground">{slug.trim() || form.id}</span>
				</p>
				<div>
					<Button type="submit" variant="outline" size="sm" isLoading={save.isPending}>
						Save address
					</Button>
				</div>
			</form>
		</section>
	)
}
