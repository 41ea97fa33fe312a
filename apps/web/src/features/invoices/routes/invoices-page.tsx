import { useQuery } from '@tanstack/react-query'
import { Building2, FileText } from 'lucide-react'
import { Link } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Button } from '#src/components/ui/button.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { profilesQuery } from '../api/invoices.ts'
import { InvoicesLayout } from '../components/invoices-nav.tsx'

/**
 * /invoices: the list of invoices once they exist. Until invoices can be written, an honest empty
 * state: what comes next and what can be done today (the company they bill from).
 */
export function InvoicesPage() {
	const profiles = useQuery(profilesQuery)
	const hasCompany = (profiles.data?.length ?? 0) > 0
	// Until the profiles are read, nothing about the company: no "set up" flashing before "review".
	const isKnown = profiles.isSuccess
	return (
		<InvoicesLayout title="Invoices" description="Invoices from your workspace rows and tracked time.">
			<EmptyState
				icon={FileText}
				title="No invoices yet"
				description={
					<>
						Writing invoices arrives next: from database rows or tracked time, numbered, sent as PDFs and paid online.{' '}
						{!isKnown
							? null
							: hasCompany
								? 'Your company is set up, so they will be ready to go.'
								: 'You can already set up the company you bill from: its details, logo, tax rates and numbering.'}
					</>
				}
				action={
					isKnown ? (
						<Button asChild variant={hasCompany ? 'outline' : 'primary'}>
							<Link to={paths.invoicesSettings}>
								<Building2 aria-hidden /> {hasCompany ? 'Review your company' : 'Set up your company'}
							</Link>
						</Button>
					) : null
				}
			/>
		</InvoicesLayout>
	)
}
