import type { FormNotifications } from '@blocksmith/contracts/forms.ts'
import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { Checkbox } from '#src/components/ui/checkbox.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { membersQuery } from '#src/core/teams/api/teams.ts'
import type { DraftErrors, FormDraft } from '../lib/draft.ts'

type NotificationSettingsProps = {
	draft: FormDraft
	errors: DraftErrors
	onChange: (changes: Partial<FormDraft>, path: string) => void
}

/** E-mails sent on each answer: to chosen members, and a confirmation to the person who answered. */
export function NotificationSettings({ draft, errors, onChange }: NotificationSettingsProps) {
	const id = useId()
	const members = useQuery(membersQuery)
	const notifications = draft.notifications
	const respondent = notifications.respondent
	const emailFields = draft.fields.filter((field) => field.kind === 'email')
	const set = (changes: Partial<FormNotifications>, path: string) =>
		onChange({ notifications: { ...notifications, ...changes } }, `notifications.${path}`)
	const setRespondent = (changes: Partial<FormNotifications['respondent']>, key: string) =>
		set({ respondent: { ...respondent, ...changes } }, `respondent.${key}`)
	const chosen = new Set(notifications.memberIds)
	// Members who left the team stay in the list until unticked, so that saving does not drop them silently.
	const gone = notifications.memberIds.filter((userId) => !members.data?.some((member) => member.userId === userId))

	function toggleMember(userId: string, checked: boolean): void {
		const memberIds = checked
			? [...notifications.memberIds, userId]
			: notifications.memberIds.filter((member) => member !== userId)
		set({ memberIds }, 'memberIds')
	}

	return (
		<section className="grid gap-5" aria-labelledby={`${id}-heading`}>
			<div className="grid gap-0.5">
				<h3 id={`${id}-heading`} className="font-semibold text-sm">
					Notifications
				</h3>
				<p className="text-muted-foreground text-sm">E-mails sent each time someone answers.</p>
			</div>
			<fieldset className="grid gap-2" aria-describedby={`${id}-members-description`}>
				<legend className="mb-1 font-medium text-sm leading-none">E-mail these members on each answer</legend>
				<p id={`${id}-members-description`} className="text-muted-foreground text-sm">
					With the answers and a link to the submissions.
				</p>
				{members.isPending ? (
					<p className="text-muted-foreground text-sm">Loading the members…</p>
				) : members.isError ? (
					<p className="text-error text-sm">The members could not be loaded. Reload the page to try again.</p>
				) : (
					<ul className="grid gap-2">
						{members.data.map((member) => (
							<li key={member.userId} className="flex items-center gap-2 text-sm">
								<Checkbox
									id={`${id}-member-${member.userId}`}
									checked={chosen.has(member.userId)}
									onCheckedChange={(checked) => toggleMember(member.userId, checked === true)}
								/>
								<label htmlFor={`${id}-member-${member.userId}`}>
									{member.name || member.email} <span className="text-muted-foreground">({member.email})</span>
								</label>
							</li>
						))}
						{gone.map((userId) => (
							<li key={userId} className="flex items-center gap-2 text-sm">
								<Checkbox
									id={`${id}-member-${userId}`}
									checked
									onCheckedChange={(checked) => toggleMember(userId, checked === true)}
								/>
								<label htmlFor={`${id}-member-${userId}`}>A former member</label>
							</li>
						))}
					</ul>
				)}
				{errors['notifications.memberIds'] ? (
					<p className="text-[13px] text-error">{errors['notifications.memberIds']}</p>
				) : null}
			</fieldset>
			<Field
				label="Send a confirmation to the person who answered"
				description="An e-mail to the address they gave in an E-mail field."
				orientation="horizontal"
				error={errors['notifications.respondent.enabled']}
			>
				<Switch checked={respondent.enabled} onCheckedChange={(enabled) => setRespondent({ enabled }, 'enabled')} />
			</Field>
			{respondent.enabled || Object.keys(errors).some((path) => path.startsWith('notifications.respondent.')) ? (
				<div className="grid gap-4 border-l-2 pl-4">
					<Field
						label="Send the confirmation to"
						description={emailFields.length ? undefined : 'The form has no E-mail field yet: add one in Fields.'}
						error={errors['notifications.respondent.fieldId']}
						isRequired
					>
						<NativeSelect
							value={respondent.fieldId ?? ''}
							onChange={(event) => setRespondent({ fieldId: event.target.value || null }, 'fieldId')}
						>
							<option value="">Pick an e-mail field…</option>
							{emailFields.map((field) => (
								<option key={field.id} value={field.id}>
									{field.label}
								</option>
							))}
						</NativeSelect>
					</Field>
					<Field label="Subject" error={errors['notifications.respondent.subject']} isRequired>
						<Input
							maxLength={200}
							value={respondent.subject}
							onChange={(event) => setRespondent({ subject: event.target.value }, 'subject')}
						/>
					</Field>
					<Field
						label="Message"
						description="Write {Label} to put in the answer to the field with that label, e.g. Hello {Name}."
						error={errors['notifications.respondent.message']}
						isRequired
					>
						<Textarea
							rows={4}
							maxLength={5000}
							value={respondent.message}
							onChange={(event) => setRespondent({ message: event.target.value }, 'message')}
						/>
					</Field>
					<Field
						label="Reply-to address"
						description="Where replies to the confirmation go. Empty: replies are not expected."
						error={errors['notifications.respondent.replyTo']}
					>
						<Input
							type="email"
							maxLength={254}
							autoComplete="off"
							value={respondent.replyTo ?? ''}
							onChange={(event) => setRespondent({ replyTo: event.target.value.trim() || null }, 'replyTo')}
						/>
					</Field>
				</div>
			) : null}
		</section>
	)
}
