// The form templates of the gallery (issue 19). Their questions and the properties those write are
// defined here, so the gallery shows what a template asks before anything is made.

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
