import type { BillingProvider } from '../subscriptions.deps.ts'
import { planById } from '../subscriptions.plans.ts'
import { signupConfirmationUrl } from '../subscriptions.signup.ts'
import { endedState, saveState } from '../subscriptions.store.ts'

/** What the local provider shows as the payment method: it takes no payments. */
const localPaymentLabel = 'No card: billed by this installation'

/**
 * The self-hosted default: no payments. Every action the state machine allows is applied at
 * once, as the machine says; the plan and its limits are the owner's choice (or the operator's,
 * with BILLING_LOCAL_PLAN).
 */
export const localProvider: BillingProvider = {
	name: 'local',
	async act(ctx, _row, action, decision) {
		const extra = action.type === 'update_payment_details' ? { paymentMethodLabel: localPaymentLabel } : {}
		const row = await saveState(ctx.db, ctx.member.orgId, decision.next, extra)
		return { row, redirectUrl: null, message: decision.message }
	},
	endNow: (deps, row) => saveState(deps.db, row.organizationId, endedState(row, deps.now())),
	async startSignup(deps, signupId, input) {
		const plan = planById(input.planId)
		const url = signupConfirmationUrl(deps, signupId)
		await deps.mail.send({
			to: input.email,
			subject: `Confirm your e-mail to start your ${plan.name} trial`,
			text: [
				`Hi ${input.name},`,
				'',
				`Open this link to confirm your e-mail address and start your ${plan.name} trial:`,
				url,
				'',
				'The link works for 7 days. If you did not ask for this, ignore this e-mail: no account is made without it.',
			].join('\n'),
		})
		return {
			redirectUrl: null,
			message: `We sent a link to ${input.email}. Open it to confirm your address and start your ${plan.name} trial.`,
		}
	},
}
