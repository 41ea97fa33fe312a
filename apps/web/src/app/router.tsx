import { createBrowserRouter } from 'react-router'
import { RootLayout } from './root-layout.tsx'
import { RouteError } from './route-error.tsx'

// Every page is its own chunk: the sign-in and public pages never download dashboard code,
// and the dashboard's shell loads once for all its pages.
export function createAppRouter() {
	return createBrowserRouter([
		{
			Component: RootLayout,
			ErrorBoundary: RouteError,
			children: [
				{ path: '/login', lazy: () => import('./routes/login-page.tsx').then((m) => ({ Component: m.LoginPage })) },
				{
					path: '/login/notion',
					lazy: () => import('./routes/notion-sign-in-page.tsx').then((m) => ({ Component: m.NotionSignInPage })),
				},
				{
					path: '/register',
					lazy: () => import('./routes/register-page.tsx').then((m) => ({ Component: m.RegisterPage })),
				},
				{
					path: '/forgot-password',
					lazy: () => import('./routes/forgot-password-page.tsx').then((m) => ({ Component: m.ForgotPasswordPage })),
				},
				{
					path: '/reset-password',
					lazy: () => import('./routes/reset-password-page.tsx').then((m) => ({ Component: m.ResetPasswordPage })),
				},
				{
					path: '/confirm',
					lazy: () => import('./routes/confirm-page.tsx').then((m) => ({ Component: m.ConfirmPage })),
				},
				{
					path: '/forms/:id',
					lazy: () => import('./routes/public-form-page.tsx').then((m) => ({ Component: m.PublicFormPage })),
				},
				{
					// A time report shared by a link: signed out, no dashboard shell and no data layer.
					path: '/time/shared/:token',
					lazy: () =>
						import('#src/features/time/routes/time-shared-page.tsx').then((m) => ({ Component: m.TimeSharedPage })),
				},
				{
					// An invoice's public link: view, download and pay it, signed out (decision 036).
					path: '/i/:token',
					lazy: () =>
						import('#src/features/invoices/routes/invoice-public-page.tsx').then((m) => ({
							Component: m.InvoicePublicPage,
						})),
				},
				{
					lazy: () => import('./layouts/data-layout.tsx').then((m) => ({ Component: m.DataLayout })),
					// The invitation page reads data (React Query), so it lives under the data layout only:
					// a second, bare /invite/:id route above would match first and crash without it.
					children: [
						{
							path: '/invite/:id',
							lazy: () => import('./routes/invite-page.tsx').then((m) => ({ Component: m.InvitePage })),
						},
						// Outside the dashboard's shell (its gate sends inactive organizations here), inside
						// the data layout: actions here and the gate share the organization's details.
						{
							path: '/paused',
							lazy: () => import('./routes/paused-page.tsx').then((m) => ({ Component: m.PausedPage })),
						},
						// Public, signed in or not; signed in, a plan's button leads to Settings → Billing.
						{
							path: '/pricing',
							lazy: () => import('./routes/pricing-page.tsx').then((m) => ({ Component: m.PricingPage })),
						},
						{
							lazy: () => import('./layouts/app-layout.tsx').then((m) => ({ Component: m.AppLayout })),
							children: [
								{ index: true, lazy: () => import('./routes/home-page.tsx').then((m) => ({ Component: m.HomePage })) },
								{
									path: '/charts',
									lazy: () =>
										import('#src/features/charts/routes/charts-page.tsx').then((m) => ({ Component: m.ChartsPage })),
								},
								{
									path: '/charts/:id/edit',
									lazy: () =>
										import('#src/features/charts/routes/chart-builder-page.tsx').then((m) => ({
											Component: m.ChartBuilderPage,
										})),
								},
								{
									// Its own chunk: the grid library loads with the editor, never with the other pages.
									path: '/charts/dashboards/:id/edit',
									lazy: () =>
										import('#src/features/charts/routes/dashboard-editor-page.tsx').then((m) => ({
											Component: m.DashboardEditorPage,
										})),
								},
								{
									path: '/forms',
									lazy: () =>
										import('#src/features/forms/routes/forms-page.tsx').then((m) => ({ Component: m.FormsPage })),
								},
								{
									path: '/forms/:id/edit',
									lazy: () =>
										import('#src/features/forms/routes/form-builder-page.tsx').then((m) => ({
											Component: m.FormBuilderPage,
										})),
								},
								{
									path: '/forms/:id/submissions',
									lazy: () =>
										import('#src/features/forms/routes/form-submissions-page.tsx').then((m) => ({
											Component: m.FormSubmissionsPage,
										})),
								},
								{
									path: '/forms/:id/submissions/:submissionId',
									lazy: () =>
										import('#src/features/forms/routes/form-submission-page.tsx').then((m) => ({
											Component: m.FormSubmissionPage,
										})),
								},
								{
									path: '/forms/:id/analytics',
									lazy: () =>
										import('#src/features/forms/routes/form-analytics-page.tsx').then((m) => ({
											Component: m.FormAnalyticsPage,
										})),
								},
								{
									path: '/invoices',
									lazy: () =>
										import('#src/features/invoices/routes/invoices-page.tsx').then((m) => ({
											Component: m.InvoicesPage,
										})),
								},
								{
									path: '/invoices/settings',
									lazy: () =>
										import('#src/features/invoices/routes/invoice-settings-page.tsx').then((m) => ({
											Component: m.InvoiceSettingsPage,
										})),
								},
								{
									path: '/invoices/recurring',
									lazy: () =>
										import('#src/features/invoices/routes/invoice-recurring-page.tsx').then((m) => ({
											Component: m.InvoiceRecurringPage,
										})),
								},
								{
									path: '/invoices/database',
									lazy: () =>
										import('#src/features/invoices/routes/invoice-database-page.tsx').then((m) => ({
											Component: m.InvoiceDatabasePage,
										})),
								},
								{
									path: '/invoices/:id',
									lazy: () =>
										import('#src/features/invoices/routes/invoice-page.tsx').then((m) => ({
											Component: m.InvoicePage,
										})),
								},
								{
									path: '/portals',
									lazy: () =>
										import('#src/features/portals/routes/portals-page.tsx').then((m) => ({ Component: m.PortalsPage })),
								},
								{
									path: '/portals/new',
									lazy: () =>
										import('#src/features/portals/routes/portals-page.tsx').then((m) => ({
											Component: m.NewPortalPage,
										})),
								},
								{
									path: '/portals/:id',
									lazy: () =>
										import('#src/features/portals/routes/portal-setup-page.tsx').then((m) => ({
											Component: m.PortalSetupPage,
										})),
								},
								{
									path: '/portals/:id/members',
									lazy: () =>
										import('#src/features/portals/routes/portal-members-page.tsx').then((m) => ({
											Component: m.PortalMembersPage,
										})),
								},
								{
									path: '/time',
									lazy: () =>
										import('#src/features/time/routes/time-page.tsx').then((m) => ({ Component: m.TimePage })),
								},
								{
									path: '/time/setup',
									lazy: () =>
										import('#src/features/time/routes/time-setup-page.tsx').then((m) => ({
											Component: m.TimeSetupPage,
										})),
								},
								{
									path: '/time/timesheet',
									lazy: () =>
										import('#src/features/time/routes/time-timesheet-page.tsx').then((m) => ({
											Component: m.TimeTimesheetPage,
										})),
								},
								{
									path: '/time/reports',
									lazy: () =>
										import('#src/features/time/routes/time-reports-page.tsx').then((m) => ({
											Component: m.TimeReportsPage,
										})),
								},
								{
									path: '/time/reports/:id',
									lazy: () =>
										import('#src/features/time/routes/time-report-page.tsx').then((m) => ({
											Component: m.TimeReportPage,
										})),
								},
								{
									path: '/workspaces',
									lazy: () =>
										import('#src/workspaces/routes/workspaces-page.tsx').then((m) => ({ Component: m.WorkspacesPage })),
								},
								{
									path: '/workspaces/:workspaceId/databases/:databaseId',
									lazy: () =>
										import('#src/workspaces/routes/database-page.tsx').then((m) => ({ Component: m.DatabasePage })),
								},
								{
									path: '/settings',
									lazy: () => import('./routes/settings-page.tsx').then((m) => ({ Component: m.SettingsPage })),
								},
							],
						},
					],
				},
				{ path: '*', lazy: () => import('./routes/not-found-page.tsx').then((m) => ({ Component: m.NotFoundPage })) },
			],
		},
	])
}
