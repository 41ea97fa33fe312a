import { ChevronLeft } from 'lucide-react'
import { Link, useLocation, useParams } from 'react-router'
import { FormGate, FormHeader } from '../components/form-frame.tsx'
import { SubmissionDetailView } from '../components/submission-detail.tsx'
import { formPaths } from '../lib/form-paths.ts'

/**
 * /forms/:id/submissions/:submissionId: one answer on its own page, so it can be linked. The
 * list's filters ride along in the query string, and the way back keeps them.
 */
export function FormSubmissionPage() {
	const { id = '', submissionId = '' } = useParams()
	const { search } = useLocation()
	const backTo = `${formPaths.submissions(id)}${search}`
	return (
		<FormGate id={id}>
			{(form) => (
				<div className="grid grid-cols-1 gap-5">
					<FormHeader form={form} />
					<Link to={backTo} className="inline-flex w-fit items-center gap-1 text-link text-sm hover:underline">
						<ChevronLeft aria-hidden className="size-4" /> All submissions
					</Link>
					<SubmissionDetailView form={form} submissionId={submissionId} backTo={backTo} />
				</div>
			)}
		</FormGate>
	)
}
