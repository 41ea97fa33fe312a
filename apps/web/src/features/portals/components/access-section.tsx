import type { PortalDatabaseOption } from '@blocksmith/contracts/portals.ts'
import type { ChangeEvent } from 'react'
import { Controller, useWatch } from 'react-hook-form'
import { Field } from '#src/components/ui/field.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { Section } from './branding-section.tsx'
import { errorAt, type PortalForm } from './form-parts.ts'

/** Who the members are: the companies they belong to, optionally a row per contact, and how they sign in. */
export function AccessSection({
	form,
	databases,
}: {
	form: PortalForm
	databases: PortalDatabaseOption[] | undefined
}) {
	const err = (path: string) => errorAt(form, path)
	const [companiesDatabaseId, membersDatabaseId, membersEmailProperty] = useWatch({
		control: form.control,
		name: ['access.companiesDatabaseId', 'access.membersDatabaseId', 'access.membersEmailProperty'],
	})
	// Controlled: the choices arrive after the form, and a registered select would show "None" meanwhile.
	const choose = (name: 'access.companiesDatabaseId' | 'access.membersDatabaseId' | 'access.membersEmailProperty') => ({
		onChange: (event: ChangeEvent<HTMLSelectElement>) => {
			form.clearErrors(name)
			form.setValue(name, event.target.value, { shouldDirty: true })
		},
	})
	const membersDatabase = databases?.find((database) => database.id === membersDatabaseId)
	const emailProperties =
		membersDatabase?.properties.filter((property) => property.type === 'email' || property.type === 'rich_text') ?? []
	const options = (databases ?? []).map((database) => (
		<option key={database.id} value={database.id}>
			{database.name}
		</option>
	))
	return (
		<Section
			id="access"
			title="Access"
			description="Members are invited by e-mail and sign in with a link, never with a Notion account."
		>
			<div className="grid items-start gap-4 sm:grid-cols-2">
				<Field
					label="Companies database"
					description="Its rows are your clients: each member belongs to one, and a page can share the rows related to it with all of that client’s contacts."
					error={err('access.companiesDatabaseId')}
				>
					<NativeSelect value={companiesDatabaseId} {...choose('access.companiesDatabaseId')}>
						<option value="">None</option>
						{options}
					</NativeSelect>
				</Field>
				<Field
					label="Members database"
					description="Optional: a row per contact, found by their e-mail, for pages that belong to one person."
					error={err('access.membersDatabaseId')}
				>
					<NativeSelect value={membersDatabaseId} {...choose('access.membersDatabaseId')}>
						<option value="">None</option>
						{options}
					</NativeSelect>
				</Field>
			</div>
			{membersDatabaseId ? (
				<Field
					label="E-mail property of the members database"
					isRequired
					error={err('access.membersEmailProperty')}
					className="sm:max-w-sm"
				>
					<NativeSelect value={membersEmailProperty} {...choose('access.membersEmailProperty')}>
						<option value="">Choose a property…</option>
						{emailProperties.map((property) => (
							<option key={property.id} value={property.id}>
								{property.name}
							</option>
						))}
					</NativeSelect>
				</Field>
			) : null}
			<Controller
				control={form.control}
				name="access.allowPasswords"
				render={({ field }) => (
					<Field
						orientation="horizontal"
						label="Members may also set a password"
						description="The link by e-mail always works; a password saves waiting for it."
					>
						<Switch checked={field.value} onCheckedChange={field.onChange} />
					</Field>
				)}
			/>
		</Section>
	)
}
