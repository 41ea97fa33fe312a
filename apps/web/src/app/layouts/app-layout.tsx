import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Database, Home, LogOut, Menu, Settings } from 'lucide-react'
import { lazy, Suspense, useEffect, useState } from 'react'
import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router'
import { toast } from 'sonner'
import { Brand } from '#src/app/brand.tsx'
import { modules } from '#src/app/modules.ts'
import { loginWithNext, paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Avatar } from '#src/components/ui/avatar.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Dialog, DialogContent, DialogTrigger } from '#src/components/ui/dialog.tsx'
import {
	DropdownMenu,
	DropdownMenuContent,
	DropdownMenuItem,
	DropdownMenuLabel,
	DropdownMenuSeparator,
	DropdownMenuTrigger,
} from '#src/components/ui/dropdown-menu.tsx'
import { ThemeToggle } from '#src/components/ui/theme-toggle.tsx'
import { resendConfirmation, signOut } from '#src/core/auth/api/account.ts'
import { presentBillingProblem } from '#src/core/billing/components/billing-problems.ts'
import { TrialBanner } from '#src/core/billing/components/trial-banner.tsx'
import { isInactive } from '#src/core/billing/lib/billing-state.ts'
import { orgDetailsQuery, teamKeys } from '#src/core/teams/api/teams.ts'
import { OrganizationSwitcher } from '#src/core/teams/components/organization-switcher.tsx'
import { HeaderTimer } from '#src/features/time/components/header-timer.tsx'
import type { ApiError } from '#src/lib/api-client.ts'
import { addErrorPresenter } from '#src/lib/query-client.ts'
import { useSession, useSessionStore } from '#src/lib/session-context.tsx'

const navigation = [
	{ name: 'Home', path: paths.home, icon: Home },
	{ name: 'Workspaces', path: paths.workspaces, icon: Database },
	...modules.map(({ name, path, icon }) => ({ name, path, icon })),
	{ name: 'Settings', path: paths.settings, icon: Settings },
]

// Their own chunks: only an organization scheduled for deletion, or an account without one, shows them.
const DeletionPage = lazy(() => import('#src/core/your-data/components/deletion-page.tsx'))
const NoOrganizationPage = lazy(() => import('#src/core/teams/components/no-organization-page.tsx'))

/** The dashboard's frame: navigation, organization, account. Signed-in members only. */
export function AppLayout() {
	const { status, user } = useSession()
	const location = useLocation()
	const [isMenuOpen, setIsMenuOpen] = useState(false)
	const isSignedIn = status === 'authenticated' && Boolean(user)
	const org = useQuery({ ...orgDetailsQuery, enabled: isSignedIn })
	const queryClient = useQueryClient()
	// A plan's limit or a stopped subscription, met on any screen, reads as what it means; the
	// latter reads the organization again, so the gate below closes the dashboard at once. So does
	// an organization being deleted (by another owner, in another tab), or none left (deleted, or
	// removed from it): no toast, the page says it.
	useEffect(() => {
		const readOrgAgain = () => void queryClient.invalidateQueries({ queryKey: teamKeys.orgDetails })
		return addErrorPresenter((error) => {
			if (error.code !== 'ORGANIZATION_DELETING' && error.code !== 'NO_ORGANIZATION') {
				return presentBillingProblem(error, readOrgAgain)
			}
			// Unless the organization's own read said it: reading it again would say it again, for ever.
			if (queryClient.getQueryState(teamKeys.orgDetails)?.error !== error) {
				readOrgAgain()
			}
			return true
		})
	}, [queryClient])

	if (!isSignedIn || !user) {
		return <Navigate to={loginWithNext(location)} replace />
	}
	// No organization, or one scheduled for deletion: one page instead of the modules, with the ways on.
	const isWithoutOrganization = (org.error as ApiError | null)?.code === 'NO_ORGANIZATION'
	if (isWithoutOrganization || org.data?.deletion) {
		return (
			<Suspense fallback={null}>
				{isWithoutOrganization || !org.data ? (
					<NoOrganizationPage />
				) : (
					<DeletionPage org={org.data} switcher={<OrganizationSwitcher />} />
				)}
			</Suspense>
		)
	}
	// Paused, past due or canceled: /paused says why and how back. Settings stays open, so that
	// owners reach Billing (and everyone their profile).
	if (org.data && isInactive(org.data.subscriptionState) && !location.pathname.startsWith(paths.settings)) {
		return <Navigate to={paths.paused} replace />
	}

	return (
		<div className="min-h-dvh bg-background lg:grid lg:grid-cols-[15rem_1fr]">
			<a
				href="#main"
				className="sr-only z-50 rounded-md bg-background px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
			>
				Skip to content
			</a>
			<aside className="hidden border-r bg-muted/30 lg:flex lg:flex-col">
				<Sidebar />
			</aside>
			<div className="flex min-w-0 flex-col">
				<header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background/90 px-4 backdrop-blur lg:hidden">
					{/* In the Dialog as its trigger, so closing the menu gives the focus back to this button. */}
					<Dialog open={isMenuOpen} onOpenChange={setIsMenuOpen}>
						<DialogTrigger asChild>
							<Button variant="ghost" size="icon" aria-label="Open navigation">
								<Menu aria-hidden />
							</Button>
						</DialogTrigger>
						<DialogContent title="Navigation" className="max-h-[90dvh] overflow-y-auto p-0">
							<Sidebar onNavigate={() => setIsMenuOpen(false)} isCompact />
						</DialogContent>
					</Dialog>
					<Link to={paths.home}>
						<Brand />
					</Link>
					<div className="ml-auto flex items-center gap-1">
						<HeaderTimer variant="bar" isListening />
						<ThemeToggle />
						<UserMenu />
					</div>
				</header>
				<TrialBanner org={org.data} />
				<main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:px-6 lg:px-10 lg:py-10">
					{user.emailVerified ? null : <UnconfirmedNotice email={user.email} />}
					<Outlet />
				</main>
			</div>
		</div>
	)
}

function Sidebar({ onNavigate, isCompact = false }: { onNavigate?: () => void; isCompact?: boolean }) {
	return (
		<div className="flex h-full flex-col gap-4 p-3">
			{isCompact ? null : (
				<div className="flex items-center justify-between px-2 pt-1">
					<Link to={paths.home}>
						<Brand />
					</Link>
					<ThemeToggle />
				</div>
			)}
			<OrganizationSwitcher />
			{isCompact ? null : <HeaderTimer variant="sidebar" />}
			<nav aria-label="Main" className="grid gap-0.5">
				{navigation.map(({ name, path, icon: Icon }) => (
					<NavLink
						key={path}
						to={path}
						end={path === paths.home}
						onClick={onNavigate}
						className={({ isActive }) =>
							cn(
								'flex h-9 items-center gap-2.5 rounded-md px-2.5 font-medium text-sm transition-colors pointer-coarse:h-10',
								isActive
									? 'bg-accent text-accent-foreground'
									: 'text-muted-foreground hover:bg-accent/60 hover:text-foreground',
							)
						}
					>
						<Icon aria-hidden className="size-4" />
						{name}
					</NavLink>
				))}
			</nav>
			{isCompact ? null : (
				<div className="mt-auto border-t pt-3">
					<UserMenu isWide />
				</div>
			)}
		</div>
	)
}

function UserMenu({ isWide = false }: { isWide?: boolean }) {
	const { user } = useSession()
	const session = useSessionStore()
	if (!user) {
		return null
	}
	return (
		<DropdownMenu>
			<DropdownMenuTrigger asChild>
				<Button
					variant="ghost"
					size={isWide ? 'md' : 'icon'}
					className={cn(isWide && 'w-full justify-start px-2')}
					// With the name shown, the spoken name starts with it (WCAG 2.5.3: label in name).
					aria-label={isWide ? `${user.name}, account menu` : 'Account menu'}
				>
					<Avatar name={user.name} size="sm" isDecorative />
					{isWide ? <span className="truncate">{user.name}</span> : null}
				</Button>
			</DropdownMenuTrigger>
			<DropdownMenuContent align="end" className="w-60">
				<DropdownMenuLabel>
					<span className="block truncate font-medium text-foreground">{user.name}</span>
					<span className="block truncate font-normal text-muted-foreground text-xs">{user.email}</span>
				</DropdownMenuLabel>
				<DropdownMenuSeparator />
				<DropdownMenuItem asChild>
					<Link to={paths.settings}>
						<Settings aria-hidden /> Settings
					</Link>
				</DropdownMenuItem>
				<DropdownMenuItem
					onSelect={async () => {
						await signOut()
						session.clear()
					}}
				>
					<LogOut aria-hidden /> Sign out
				</DropdownMenuItem>
			</DropdownMenuContent>
		</DropdownMenu>
	)
}

function UnconfirmedNotice({ email }: { email: string }) {
	const resend = useMutation({
		mutationFn: resendConfirmation,
		onSuccess: () => toast.success(`We sent the confirmation e-mail to ${email} again.`),
	})
	return (
		<Alert
			variant="info"
			className="mb-6"
			title="Confirm your e-mail address"
			action={
				<Button variant="outline" size="sm" isLoading={resend.isPending} onClick={() => resend.mutate()}>
					Send again
				</Button>
			}
		>
			We sent a link to {email}. Confirming it keeps your account recoverable.
		</Alert>
	)
}
