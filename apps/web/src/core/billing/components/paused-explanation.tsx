import type { OrgDetails } from '@blocksmith/contracts/teams.ts'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Button } from '#src/components/ui/button.tsx'
import { membersQuery } from '#src/core/teams/api/teams.ts'
import { subscriptionQuery } from '../api/billing.ts'
import { formatDate } from '../lib/billing-format.ts'
import { changePlanPath } from '../lib/billing-paths.ts'
import { ResumeButton, UpdatePaymentButton } from './action-buttons.tsx'

type Why = 'trial_ended' | 'requested' | 'past_due' | 'canceled'

function whyOf(org: OrgDetails): Why {
	if (org.subscriptionState === 'paused') {
		return org.pauseReason === 'trial_ended' ? 'trial_ended' : 'requested'
	}
	return org.subscriptionState === 'past_due' ? 'past_due' : 'canceled'
}

/** What the owners and admins are asked to do, in the words a member passes on. */
const askTo: Record<Why, string> = {
	trial_ended: 'choose a plan',
	requested: 'resume the subscription',
	past_due: 'update the payment details',
	canceled: 'choose a plan',
}

/**
 * Why the organization's dashboard is closed (paused, past due or canceled), that nothing was
 * lost, and the way back: the action itself for owners and admins, whom to ask for members.
 */
export function PausedExplanation({ org }: { org: OrgDetails }) {
	const why = whyOf(org)
	const isManager = org.role === 'owner' || org.role === 'admin'
	// Only a pause the team asked for may have a date to resume on; the organization's details lack it.
	const subscription = useQuery({ ...subscriptionQuery, enabled: why === 'requested' })
	const resumesAt = subscription.data?.subscription.resumesAt ?? null

	const explanations: Record<Why, { title: string; text: string }> = {
		trial_ended: {
			title: 'Your trial has ended',
			text: `The free trial of ${org.name} ended before a plan was chosen.`,
		},
		requested: {
			title: `${org.name} is paused`,
			text: resumesAt
				? `Your team paused the subscription. It resumes by itself on ${formatDate(resumesAt)}.`
				: 'Your team paused the subscription until someone resumes it.',
		},
		past_due: {
			title: 'A payment failed',
			text: `The last payment for ${org.name} did not go through. The dashboard opens again once the payment details are updated.`,
		},
		canceled: {
			title: 'The subscription was canceled',
			text: `${org.name}'s subscription has ended. Choosing a plan starts it again.`,
		},
	}
	const { title, text } = explanations[why]

	return (
		<>
			<h1 className="font-semibold text-xl tracking-tight">{title}</h1>
			<div className="grid gap-3 text-muted-foreground text-sm">
				<p>{text}</p>
				<p>
					Nothing was deleted: your forms, charts, portals and data are all kept. Until then, published forms, charts
					and portals show visitors an “unavailable” message.
				</p>
			</div>
			{isManager ? <ManagerActions why={why} /> : <AskSomeone org={org} why={why} />}
		</>
	)
}

function ManagerActions({ why }: { why: Why }) {
	return (
		<div className="flex flex-wrap justify-center gap-2">
			{why === 'requested' ? <ResumeButton /> : null}
			{why === 'past_due' ? <UpdatePaymentButton variant="primary" size="md" /> : null}
			{why === 'trial_ended' || why === 'canceled' ? (
				<Button asChild>
					<Link to={changePlanPath()}>Choose a plan</Link>
				</Button>
			) : null}
			<Button asChild variant="outline">
				<Link to={paths.billing}>Billing settings</Link>
			</Button>
		</div>
	)
}

function AskSomeone({ org, why }: { org: OrgDetails; why: Why }) {
	const members = useQuery({ ...membersQuery, meta: { isErrorShownInPage: true } })
	const managers = members.data?.filter((member) => member.role === 'owner' || member.role === 'admin') ?? []
	return (
		<div className="grid gap-2 text-sm">
			<p className="font-medium">
				Ask an owner or admin of {org.name} to {askTo[why]}.
			</p>
			{managers.length > 0 ? (
				<ul aria-label={`Owners and admins of ${org.name}`} className="grid gap-1 text-muted-foreground">
					{managers.map((member) => (
						<li key={member.id}>
							<span className="text-foreground">{member.name}</span> ({member.role}) ·{' '}
							<a href={`mailto:${member.email}`} className="text-link hover:underline">
								{member.email}
							</a>
						</li>
					))}
				</ul>
			) : null}
		</div>
	)
}
