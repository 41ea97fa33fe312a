// The ids of the gallery's templates, apart from the templates themselves (form-templates.ts):
// `createFormSchema` needs only the ids, so every dashboard page that reads a form does not
// download the seven templates' questions with it; the gallery loads them when it opens.

/** The templates, by id. */
export const formTemplateIds = [
	'contact',
	'lead_capture',
	'feedback_nps',
	'event_registration',
	'job_application',
	'client_onboarding',
	'bug_report',
] as const
export type FormTemplateId = (typeof formTemplateIds)[number]
