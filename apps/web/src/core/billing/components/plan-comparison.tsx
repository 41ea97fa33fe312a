import {
	type LimitKey,
	limitLabels,
	type Plan,
	type PlanSwitch,
	planSwitchLabels,
} from '@blocksmith/contracts/subscriptions.ts'
import { Check, Minus } from 'lucide-react'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { formatLimit } from '../lib/billing-format.ts'

const limitKeys = Object.keys(limitLabels) as LimitKey[]
const switchKeys = Object.keys(planSwitchLabels) as PlanSwitch[]

/** Every limit and switch of every plan, one row each. */
export function PlanComparison({ plans }: { plans: readonly Plan[] }) {
	return (
		<Table aria-label="Compare the plans">
			<TableHeader>
				<TableRow>
					<TableHead>
						<span className="sr-only">Limit</span>
					</TableHead>
					{plans.map((plan) => (
						<TableHead key={plan.id} isNumeric>
							{plan.name}
						</TableHead>
					))}
				</TableRow>
			</TableHeader>
			<TableBody>
				{limitKeys.map((key) => (
					<TableRow key={key}>
						<TableHead scope="row" className="whitespace-normal font-normal text-foreground text-sm">
							{limitLabels[key].name}
						</TableHead>
						{plans.map((plan) => (
							<TableCell key={plan.id} isNumeric>
								{formatLimit(key, plan.limits[key])}
							</TableCell>
						))}
					</TableRow>
				))}
				{switchKeys.map((key) => (
					<TableRow key={key}>
						<TableHead scope="row" className="whitespace-normal font-normal text-foreground text-sm">
							{planSwitchLabels[key]}
						</TableHead>
						{plans.map((plan) => (
							<TableCell key={plan.id} isNumeric>
								{plan.switches[key] ? (
									<>
										<Check aria-hidden className="ml-auto size-4 text-success" />
										<span className="sr-only">Included</span>
									</>
								) : (
									<>
										<Minus aria-hidden className="ml-auto size-4 text-muted-foreground" />
										<span className="sr-only">Not included</span>
									</>
								)}
							</TableCell>
						))}
					</TableRow>
				))}
			</TableBody>
		</Table>
	)
}
