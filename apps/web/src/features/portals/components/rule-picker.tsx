import type { PortalDatabaseOption, PortalRule } from '@blocksmith/contracts/portals.ts'
import { useId, useState } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { describeRule, ruleKey } from '../lib/rules.ts'

/**
 * Which rows of the page a member sees: one of the rules the server suggests for the database
 * (given the portal's access settings), in plain words. Showing every row to every member is
 * behind its own button, with a warning, and is never preselected.
 */
export function RulePicker({
	label,
	value,
	database,
	error,
	onChange,
}: {
	label: string
	/** An unset rule has an empty property: nothing is checked. */
	value: PortalRule
	database: PortalDatabaseOption | undefined
	error: string | undefined
	onChange: (rule: PortalRule) => void
}) {
	const id = useId()
	const [isEveryoneShown, setIsEveryoneShown] = useState(value.kind === 'everyone')
	const suggested = database?.suggestedRules.filter((rule) => rule.kind !== 'everyone') ?? []
	const current = ruleKey(value)
	const isSet = !('property' in value) || value.property !== ''
	// A saved rule the database no longer suggests (a property renamed, access changed) stays listed, said as it is.
	const options =
		isSet && value.kind !== 'everyone' && !suggested.some((rule) => ruleKey(rule) === current)
			? [value, ...suggested]
			: suggested
	const radio = (rule: PortalRule, text: string, isWarning = false) => {
		const key = ruleKey(rule)
		return (
			<label
				key={key}
				htmlFor={`${id}-${key}`}
				className={cn(
					'flex cursor-pointer items-start gap-2.5 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/5',
					isWarning && 'has-[:checked]:border-warning has-[:checked]:bg-warning/5',
				)}
			>
				<input
					id={`${id}-${key}`}
					type="radio"
					name={`${id}-rule`}
					className="mt-0.5 size-4 shrink-0 accent-primary"
					checked={isSet && current === key}
					onChange={() => onChange(rule)}
				/>
				<span>{text}</span>
			</label>
		)
	}
	return (
		<fieldset
			className="grid gap-2"
			aria-invalid={error ? true : undefined}
			aria-describedby={error ? `${id}-error` : undefined}
		>
			<legend className="mb-1 font-medium text-sm">{label}</legend>
			{options.length === 0 ? (
				<p className="text-muted-foreground text-sm">
					No property of this database points at a member yet: choose the companies or members database under Access, or
					add a relation to it, an e-mail or a people property.
				</p>
			) : (
				<div className="grid gap-1.5">{options.map((rule) => radio(rule, describeRule(rule, database)))}</div>
			)}
			{isEveryoneShown ? (
				<div className="grid gap-2">
					{radio({ kind: 'everyone' }, 'Every row, to every member', true)}
					{value.kind === 'everyone' ? (
						<Alert variant="warning" title="Every member sees every row">
							Each client sees the other clients’ rows of this page. Choose this only for what is meant for all of them,
							like a price list or a help page.
						</Alert>
					) : null}
				</div>
			) : (
				<Button variant="link" size="sm" className="w-fit" onClick={() => setIsEveryoneShown(true)}>
					Share every row with every member…
				</Button>
			)}
			{error ? (
				<p id={`${id}-error`} className="text-[13px] text-error">
					{error}
				</p>
			) : null}
		</fieldset>
	)
}
